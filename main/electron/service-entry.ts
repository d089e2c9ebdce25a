/**
 * Entry of the service process: the same service as `nuzo serve`, in Electron's utility process
 * (process.parentPort) so SQL never runs on the Electron main thread. It also runs under plain
 * Node as a forked child (process.send), which is how it is tested where there is no Electron.
 * No electron import: a utility process has no use for it.
 */
import { startService } from '../headless.js';
import { defaultHostConfigProvider } from '../connect/provider.js';
import { runServiceHost, type Channel } from './service-host.js';
import type { FromService } from './service-messages.js';

interface ParentPortLike {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
}

const log = (line: string): void => void process.stderr.write(line + '\n');

interface ParentChannel extends Channel {
  /** Resolves once what was sent has left this process (so a last `fatal` is not lost on exit). */
  drain(): Promise<void>;
}

function parentChannel(): ParentChannel | null {
  const port = (process as unknown as { parentPort?: ParentPortLike | null }).parentPort;
  if (port) {
    return {
      send: (m: FromService) => port.postMessage(m),
      onMessage: (l) => port.on('message', (e) => l(e.data)),
      drain: () => new Promise((resolve) => setTimeout(resolve, 50)),
    };
  }
  if (typeof process.send === 'function') {
    const send = process.send.bind(process);
    let last: Promise<void> = Promise.resolve();
    return {
      send: (m: FromService) => {
        last = new Promise((resolve) => void send(m, undefined, undefined, () => resolve()));
      },
      onMessage: (l) => void process.on('message', l),
      drain: () => last,
    };
  }
  return null;
}

const channel = parentChannel();
if (channel === null) {
  log('nuzo: service-entry runs as a child of the Nuzo app; use `nuzo serve` from a terminal.');
  process.exit(2);
}

let stopRequested: (() => void) | null = null;
const stopped = runServiceHost(
  {
    send: channel.send,
    onMessage: (listener) => {
      channel.onMessage(listener);
      stopRequested = () => listener({ t: 'stop' });
    },
  },
  async (init) => {
    const service = await startService({
      windowAttached: true,
      // Without a bridge from the shell, connect falls back to this process's own Node.
      hostConfigs: defaultHostConfigProvider(init.bridge ? { bridge: init.bridge } : {}),
      log,
    });
    return { home: service.home, socketPath: service.socketPath, api: service.api, close: () => service.close() };
  },
  log,
);

// A kill from the parent or the OS still closes the database cleanly; a vanished parent too.
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => stopRequested?.());
process.once('disconnect', () => stopRequested?.());

void stopped.then(async (outcome) => {
  await channel.drain();
  process.exit(outcome === 'failed' ? 1 : 0);
});
