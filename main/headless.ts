import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dataHome } from './core/paths.js';
import { APP_VERSION } from './core/version.js';
import { toNuzoError } from './core/errors.js';
import { Store } from './store/store.js';
import { SettingsQueries } from './store/settings.js';
import { ConsentEngine } from './consent/engine.js';
import { startIpcServer, type IpcServerHandle, type IpcSession } from './ipc/server.js';
import { FrameTransport } from './mcp/frame-transport.js';
import { createMcpConnection } from './mcp/server.js';
import { handlePostToolUse, handleSessionStart } from './hooks/hook-events.js';
import { createServiceApi, type HostConfigProvider } from './ui-api/service-api.js';
import type { NuzoApi } from './ui-api/contract.js';
import { answerCli } from './cli/cli-ops.js';

export interface ServiceOptions {
  home?: string;
  /** Serve the window on loopback HTTP (headless mode). */
  ui?: boolean;
  port?: number;
  /** A window exists outside this process (the Electron shell): offers can always be shown. */
  windowAttached?: boolean;
  hostConfigs?: HostConfigProvider;
  log?: (line: string) => void;
}

export interface ServiceHandle {
  home: string;
  store: Store;
  engine: ConsentEngine;
  api: NuzoApi;
  socketPath: string;
  /** Set when the loopback window is served: the URL carries the per-launch token. */
  uiUrl: string | null;
  close(): Promise<void>;
}

const HOST_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

const envMs = (name: string): number | undefined => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : undefined;
};

const rendererDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'renderer');

const noHostConfigs: HostConfigProvider = {
  list: () => [],
  write: () => {
    throw new Error('connecting hosts is not available in this build');
  },
};

async function loadHostConfigs(): Promise<HostConfigProvider> {
  try {
    const mod = (await import('./connect/provider.js')) as { defaultHostConfigProvider: () => HostConfigProvider };
    return mod.defaultHostConfigProvider();
  } catch {
    return noHostConfigs;
  }
}

/**
 * The Nuzo service without Electron: the store (single writer), the consent engine, the local
 * socket that bridges and hooks reach, and optionally the loopback window. The desktop app runs
 * exactly this in a utility process, so there is one service, tested under plain Node.
 */
export async function startService(options: ServiceOptions = {}): Promise<ServiceHandle> {
  const home = options.home ?? dataHome();
  const log = options.log ?? ((line: string) => void process.stderr.write(line + '\n'));
  const store = Store.open(home, 'nuzo service', { log });
  const waitMs = envMs('NUZO_CONSENT_WAIT_MS') ?? 45_000;
  const engine = new ConsentEngine(store, { waitMs, ...(envMs('NUZO_OFFER_TTL_MS') ? { offerTtlMs: envMs('NUZO_OFFER_TTL_MS')! } : {}) });
  const settings = new SettingsQueries(store.db);
  const live = new Set<string>();
  const hostConfigs = options.hostConfigs ?? (await loadHostConfigs());
  const api = createServiceApi({ store, engine, liveConnections: live, hostConfigs });
  const cliApi = createServiceApi({ store, engine, liveConnections: live, hostConfigs, actor: 'cli' });
  const detachers: Array<() => void> = [];
  if (options.windowAttached) detachers.push(engine.attachWindow());

  const onSession = (session: IpcSession): void => {
    const { hello } = session;
    if (hello.mode === 'mcp') {
      live.add(session.id);
      const requesterKey = `bridge:${hello.instance ?? `${hello.pid}:${hello.cwd}`}`;
      const connection = createMcpConnection(store, engine, { connectionId: session.id, requesterKey, pid: hello.pid, cwd: hello.cwd }, waitMs);
      session.onClose(() => {
        live.delete(session.id);
        engine.emit({ type: 'connection.changed', id: session.id });
        connection.server.close().catch(() => {});
      });
      connection.server.connect(new FrameTransport(session)).catch((error: unknown) => log(`nuzo: mcp connection failed: ${toNuzoError(error).message}`));
      return;
    }
    session.onFrame((frame) => {
      void answer(session, frame as Record<string, unknown>);
    });
  };

  const answer = async (session: IpcSession, frame: Record<string, unknown>): Promise<void> => {
    try {
      if (session.hello.mode === 'hook' && frame['t'] === 'hook') {
        // a host name is what grants match on: anything malformed is `unknown`, which no grant names
        const host = typeof frame['host'] === 'string' && HOST_NAME.test(frame['host']) ? frame['host'] : 'unknown';
        const reply =
          frame['event'] === 'session-start'
            ? handleSessionStart(store, frame['payload'])
            : frame['event'] === 'post-tool-use'
              ? handlePostToolUse(store, engine, frame['payload'], settings.get('capture_paused', false), host)
              : { ok: false as const, code: 'validation_error', message: `unknown hook event ${String(frame['event'])}` };
        session.send({ t: 'hook-result', ...reply });
      } else if (session.hello.mode === 'cli' && frame['t'] === 'cli') {
        session.send({ t: 'cli-result', ok: true, result: await answerCli(cliApi, store, engine, frame, openWindow) });
      } else {
        session.send({ t: 'error', code: 'validation_error', message: 'unexpected frame for this mode' });
      }
    } catch (error) {
      const e = toNuzoError(error);
      session.send({ t: 'error', code: e.code, message: e.message });
    }
  };

  let ipc: IpcServerHandle;
  try {
    ipc = await startIpcServer({ home, appVersion: APP_VERSION, onSession, log: (line) => log(`nuzo ipc: ${line}`) });
  } catch (error) {
    store.close();
    throw error;
  }

  let uiUrl: string | null = null;
  let closeUi: () => Promise<void> = async () => {};
  /** Serves the window on loopback once; later calls return the same address. */
  const openWindow = async (): Promise<string> => {
    if (uiUrl) return uiUrl;
    const { startUiServer } = await import('./ui-api/http-server.js');
    const ui = await startUiServer({ api, staticDir: rendererDir, log, ...(options.port !== undefined ? { port: options.port } : {}) });
    uiUrl = ui.url;
    closeUi = () => ui.close();
    detachers.push(engine.attachWindow());
    log(`nuzo: window at ${uiUrl}`);
    return uiUrl;
  };
  if (options.ui) await openWindow();

  const sweep = setInterval(() => {
    for (const id of engine.offers.expireDue(Date.now())) engine.emit({ type: 'offer.decided', id, state: 'expired' });
  }, 60_000);
  sweep.unref();

  log(`nuzo: service running on ${home} (pid ${process.pid}); socket ${ipc.path}`);

  return {
    home,
    store,
    engine,
    api,
    socketPath: ipc.path,
    get uiUrl() {
      return uiUrl;
    },
    async close() {
      clearInterval(sweep);
      engine.close();
      detachers.forEach((d) => d());
      await closeUi();
      await ipc.close();
      store.close();
    },
  };
}
