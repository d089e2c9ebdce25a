/**
 * NuzoApi over loopback HTTP, for the window served by `nuzo serve --ui`. Every call, the event
 * stream included, carries `Authorization: Bearer <token>` (see session-token.ts); no cookies.
 */
import type { ApiEvent, ApiMethod, NuzoApi } from '../../../main/ui-api/contract';
import { ApiRequestError } from './api-error';
import { authHeaders, captureToken } from './session-token';

export type LinkState = 'connecting' | 'open' | 'lost';

export interface HttpNuzoApi extends NuzoApi {
  /** Live-event stream health, for the "connection lost" banner. */
  onLinkState(listener: (state: LinkState) => void): () => void;
}

interface Envelope {
  ok: boolean;
  result?: unknown;
  error?: { code?: unknown; message?: unknown; details?: unknown };
}

async function call<T>(method: ApiMethod, params: object = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`/api/${method}`, {
      method: 'POST',
      credentials: 'omit',
      cache: 'no-store',
      headers: { 'content-type': 'application/json', ...authHeaders() },
      body: JSON.stringify(params),
    });
  } catch {
    throw new ApiRequestError('app_unavailable', 'Nuzo’s service is not answering.');
  }
  let envelope: Envelope;
  try {
    envelope = (await response.json()) as Envelope;
  } catch {
    if (response.status === 401) throw new ApiRequestError('auth_failed', 'This window’s session is not valid any more.');
    throw new ApiRequestError('internal_error', `Nuzo answered ${response.status} without a readable body.`);
  }
  if (envelope.ok) return envelope.result as T;
  const error = envelope.error ?? {};
  const code = typeof error.code === 'string' ? error.code : response.status === 401 ? 'auth_failed' : 'internal_error';
  const message = typeof error.message === 'string' ? error.message : `Request failed (${response.status}).`;
  const details = typeof error.details === 'object' && error.details !== null ? (error.details as Record<string, unknown>) : {};
  throw new ApiRequestError(code as ApiRequestError['code'], message, details);
}

function isApiEvent(value: unknown): value is ApiEvent {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string' && typeof (value as { id?: unknown }).id === 'string';
}

const RETRY_MS = 2000;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

/**
 * Reads server-sent events from a fetch body (EventSource cannot send the bearer header). Calls
 * `onData` with each event's data and `onRetry` with a `retry:` hint; resolves when the stream ends.
 */
async function readEvents(body: ReadableStream<Uint8Array>, onData: (data: string) => void, onRetry: (ms: number) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  const line = (text: string): void => {
    if (text === '') {
      if (data.length > 0) onData(data.join('\n'));
      data = [];
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'retry' && /^\d+$/.test(value)) onRetry(Number(value));
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.search(/\r\n|\r|\n/)) >= 0) {
      // A lone \r at the end of a chunk may be the first half of \r\n: wait for the next chunk.
      if (buffer[end] === '\r' && end === buffer.length - 1) break;
      const next = buffer[end] === '\r' && buffer[end + 1] === '\n' ? end + 2 : end + 1;
      line(buffer.slice(0, end));
      buffer = buffer.slice(next);
    }
  }
}

/** One event stream shared by every listener, opened on first use and closed with the last. */
function eventStream(): { subscribe: NuzoApi['subscribe']; onLinkState: HttpNuzoApi['onLinkState'] } {
  const listeners = new Set<(event: ApiEvent) => void>();
  const linkListeners = new Set<(state: LinkState) => void>();
  let controller: AbortController | null = null;
  let state: LinkState = 'connecting';

  const setState = (next: LinkState): void => {
    if (next === state) return;
    state = next;
    for (const listener of linkListeners) listener(next);
  };

  const dispatch = (data: string): void => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      return;
    }
    if (!isApiEvent(parsed)) return;
    for (const listener of listeners) listener(parsed);
  };

  // Reconnects after a dropped stream or an unreachable service, like EventSource; a 401 or 403
  // means this tab's token is not valid (Nuzo restarted), so it stops there, as EventSource does.
  const run = async (signal: AbortSignal): Promise<void> => {
    let retryMs = RETRY_MS;
    while (!signal.aborted) {
      try {
        const response = await fetch('/api/events', {
          credentials: 'omit',
          cache: 'no-store',
          headers: { accept: 'text/event-stream', ...authHeaders() },
          signal,
        });
        if (response.status === 401 || response.status === 403) {
          setState('lost');
          return;
        }
        if (response.ok && response.body !== null) {
          setState('open');
          await readEvents(response.body, dispatch, (ms) => (retryMs = Math.min(Math.max(ms, 500), 60_000)));
        }
      } catch {
        // Network error or abort: handled below.
      }
      if (signal.aborted) return;
      setState('lost');
      await sleep(retryMs, signal);
    }
  };

  return {
    subscribe(listener) {
      listeners.add(listener);
      if (controller === null) {
        controller = new AbortController();
        void run(controller.signal);
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && controller !== null) {
          controller.abort();
          controller = null;
          setState('connecting');
        }
      };
    },
    onLinkState(listener) {
      linkListeners.add(listener);
      listener(state);
      return () => linkListeners.delete(listener);
    },
  };
}

export function createHttpApi(): HttpNuzoApi {
  captureToken();
  const events = eventStream();
  return {
    inbox: () => call('inbox'),
    offer: (p) => call('offer', p),
    decideOffer: (p) => call('decideOffer', p),
    searchMemories: (p) => call('searchMemories', p),
    memory: (p) => call('memory', p),
    facets: () => call('facets'),
    createMemory: (p) => call('createMemory', p),
    updateMemory: (p) => call('updateMemory', p),
    forgetMemory: (p) => call('forgetMemory', p),
    restoreMemory: (p) => call('restoreMemory', p),
    restoreRevision: (p) => call('restoreRevision', p),
    audit: (p) => call('audit', p),
    connections: () => call('connections'),
    grants: () => call('grants'),
    createGrant: (p) => call('createGrant', p),
    revokeGrant: (p) => call('revokeGrant', p),
    hostConfigs: () => call('hostConfigs'),
    writeHostConfig: (p) => call('writeHostConfig', p),
    settings: () => call('settings'),
    setCapturePaused: (p) => call('setCapturePaused', p),
    exportData: (p) => call('exportData', p),
    importData: (p) => call('importData', p),
    backup: () => call('backup'),
    subscribe: events.subscribe,
    onLinkState: events.onLinkState,
  };
}
