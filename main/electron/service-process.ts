/** Runs service-entry.js in an Electron utility process and adapts it to ServiceClient. */
import { utilityProcess } from 'electron';
import type { ServiceChild } from './service-client.js';
import type { ToService } from './service-messages.js';

export function forkServiceProcess(entry: string): ServiceChild {
  const child = utilityProcess.fork(entry, [], { serviceName: 'Nuzo service', stdio: 'inherit' });
  return {
    postMessage: (message: ToService) => child.postMessage(message),
    onMessage: (listener) => void child.on('message', (message: unknown) => listener(message)),
    onExit: (listener) => void child.on('exit', (code) => listener(code)),
    kill: () => void child.kill(),
  };
}
