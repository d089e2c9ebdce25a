import { NuzoError, isNuzoError } from '../core/errors.js';
import { dataHome } from '../core/paths.js';
import { APP_VERSION } from '../core/version.js';
import { Store } from '../store/store.js';
import { ConsentEngine } from '../consent/engine.js';
import { createServiceApi } from '../ui-api/service-api.js';
import { connectIpc, type IpcClientSession } from '../../bridge/ipc-client.js';
import { answerCli } from './cli-ops.js';

export interface Local {
  store: Store;
  answer(frame: object): Promise<unknown>;
}

/**
 * Command-line writes go through the running service when there is one; otherwise the command
 * takes the data folder's lock itself for its duration (DESIGN §1). Both paths answer the same
 * `cli` frames, so the command cannot behave differently depending on which one it got.
 */
export async function withWriter<T>(holder: string, work: (ask: (frame: object) => Promise<unknown>, via: 'service' | 'local') => Promise<T>): Promise<T> {
  const home = dataHome();
  let store: Store;
  try {
    store = Store.open(home, holder);
  } catch (error) {
    if (!isNuzoError(error) || error.code !== 'already_running') throw error;
    const session = await connectIpc({ home, mode: 'cli', clientVersion: APP_VERSION, timeoutMs: 5_000 });
    try {
      return await work((frame) => request(session, frame), 'service');
    } finally {
      session.close();
    }
  }
  try {
    const engine = new ConsentEngine(store);
    const api = createServiceApi({ store, engine, liveConnections: new Set(), actor: 'cli', hostConfigs: { list: () => [], write: () => ({ path: '', backup: null, changed: false }) } });
    return await work((frame) => answerCli(api, store, engine, frame), 'local');
  } finally {
    store.close();
  }
}

/** One request, one answer: the session carries nothing else in `cli` mode. */
function request(session: IpcClientSession, frame: object): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let settled = false;
    session.onFrame((reply) => {
      if (settled) return;
      settled = true;
      const r = reply as { t?: string; ok?: boolean; result?: unknown; code?: string; message?: string };
      if (r.t === 'cli-result' && r.ok) resolve(r.result);
      else reject(new NuzoError((r.code as never) ?? 'internal_error', r.message ?? 'the service refused the request'));
    });
    session.onClose(() => {
      if (!settled) reject(new NuzoError('app_unavailable', 'The Nuzo service closed the connection before answering.'));
      settled = true;
    });
    session.send(frame);
  });
}
