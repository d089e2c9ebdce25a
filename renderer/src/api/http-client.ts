/**
 * NuzoApi over loopback HTTP, for the window served by `nuzo serve --ui`. The session cookie set
 * by the token URL authenticates every call; nothing here ever sees the token.
 */
import type { ApiEvent, ApiMethod, NuzoApi } from '../../../main/ui-api/contract';
import { ApiRequestError } from './api-error';

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
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
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

/** One EventSource shared by every listener, opened on first use and closed with the last. */
function eventStream(): { subscribe: NuzoApi['subscribe']; onLinkState: HttpNuzoApi['onLinkState'] } {
  const listeners = new Set<(event: ApiEvent) => void>();
  const linkListeners = new Set<(state: LinkState) => void>();
  let source: EventSource | null = null;
  let state: LinkState = 'connecting';

  const setState = (next: LinkState): void => {
    if (next === state) return;
    state = next;
    for (const listener of linkListeners) listener(next);
  };

  const open = (): void => {
    source = new EventSource('/api/events', { withCredentials: true });
    source.onopen = () => setState('open');
    // EventSource retries by itself; a closed source (e.g. 401 after a restart) does not.
    source.onerror = () => setState('lost');
    source.onmessage = (message: MessageEvent<string>) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(message.data);
      } catch {
        return;
      }
      if (!isApiEvent(parsed)) return;
      for (const listener of listeners) listener(parsed);
    };
  };

  return {
    subscribe(listener) {
      listeners.add(listener);
      if (source === null) open();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && source !== null) {
          source.close();
          source = null;
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
