/**
 * The utility-process side: waits for `init`, starts the service, answers calls and forwards
 * events until `stop`. Transport-neutral (a Channel), so it runs under plain Node in tests over a
 * forked process and in Electron over process.parentPort.
 */
import type { ApiEvent, NuzoApi } from '../ui-api/contract.js';
import { toApiError } from '../ui-api/http-errors.js';
import { API_METHODS } from './api-methods.js';
import { isToService, type FromService, type InitMessage } from './service-messages.js';
import type { CallResult } from './call-gate.js';

export interface Channel {
  send(message: FromService): void;
  onMessage(listener: (message: unknown) => void): void;
}

export interface StartedService {
  home: string;
  socketPath: string;
  api: NuzoApi;
  close(): Promise<void>;
}

async function invoke(api: NuzoApi, method: string, params: unknown): Promise<CallResult> {
  // The main process already checked method and params; this is only a guard against drift.
  if (!(API_METHODS as readonly string[]).includes(method)) return { ok: false, error: { code: 'not_found', message: `There is no API method "${method}".` } };
  const fn = api[method as (typeof API_METHODS)[number]] as (params: unknown) => Promise<unknown>;
  try {
    return { ok: true, result: (await fn.call(api, params)) ?? null };
  } catch (thrown) {
    return { ok: false, error: toApiError(thrown) };
  }
}

/** Resolves when the service has stopped: 'stopped' after `stop`, 'failed' when it could not start. */
export function runServiceHost(channel: Channel, start: (init: InitMessage) => Promise<StartedService>, log: (line: string) => void): Promise<'stopped' | 'failed'> {
  return new Promise((resolve) => {
    let service: StartedService | null = null;
    let unsubscribe: () => void = () => undefined;
    let state: 'waiting' | 'starting' | 'running' | 'stopping' = 'waiting';

    const stop = async (): Promise<void> => {
      if (state === 'stopping') return;
      state = 'stopping';
      unsubscribe();
      try {
        await service?.close();
      } catch (error) {
        log(`nuzo service: close failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      resolve('stopped');
    };

    channel.onMessage((message) => {
      if (!isToService(message)) {
        log('nuzo service: ignored a malformed message from the main process');
        return;
      }
      if (message.t === 'stop') {
        void stop();
      } else if (message.t === 'init' && state === 'waiting') {
        state = 'starting';
        start(message).then(
          (started) => {
            if (state === 'stopping') {
              void started.close();
              return;
            }
            service = started;
            state = 'running';
            unsubscribe = started.api.subscribe((event: ApiEvent) => channel.send({ t: 'event', event }));
            channel.send({ t: 'ready', home: started.home, socketPath: started.socketPath });
          },
          (error: unknown) => {
            channel.send({ t: 'fatal', error: toApiError(error) });
            state = 'stopping';
            resolve('failed');
          },
        );
      } else if (message.t === 'call') {
        const api = service?.api;
        if (state !== 'running' || !api) {
          channel.send({ t: 'result', id: message.id, result: { ok: false, error: { code: 'app_unavailable', message: 'Nuzo’s service is not running yet.' } } });
          return;
        }
        void invoke(api, message.method, message.params).then((result) => channel.send({ t: 'result', id: message.id, result }));
      }
    });
  });
}
