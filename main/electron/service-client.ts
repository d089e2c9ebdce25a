/**
 * The main-process side of the service process: starts it, relays calls, restarts it after a
 * crash (a bounded number of times), and stops it cleanly on quit. Written against a small
 * ServiceChild interface, so it is tested under plain Node with a forked child; the Electron
 * shell adapts utilityProcess.fork to it (service-process.ts).
 */
import type { ApiError, ApiEvent, ApiMethod } from '../ui-api/contract.js';
import type { CallResult } from './call-gate.js';
import { isFromService, type InitMessage, type ToService } from './service-messages.js';

export interface ServiceChild {
  postMessage(message: ToService): void;
  onMessage(listener: (message: unknown) => void): void;
  onExit(listener: (code: number | null) => void): void;
  kill(): void;
}

export interface ServiceClientOptions {
  spawn: () => ServiceChild;
  init: InitMessage;
  onEvent(event: ApiEvent): void;
  /** The service could not start (e.g. the data folder is in use) or kept crashing. */
  onFatal(error: ApiError): void;
  onReady?(info: { home: string; socketPath: string }): void;
  log(line: string): void;
  /** Waits before each restart after a crash; more crashes than entries within the window = give up. */
  restartDelaysMs?: readonly number[];
  crashWindowMs?: number;
}

type State = 'idle' | 'starting' | 'ready' | 'restarting' | 'failed' | 'stopping' | 'stopped';

const unavailable = (message: string): CallResult => ({ ok: false, error: { code: 'app_unavailable', message } });

export class ServiceClient {
  private state: State = 'idle';
  private child: ServiceChild | null = null;
  private nextId = 1;
  private readonly inFlight = new Map<number, (result: CallResult) => void>();
  private queued: Array<() => void> = [];
  private crashes: number[] = [];
  private stopWaiters: Array<() => void> = [];
  private fatalSeen = false;

  constructor(private readonly options: ServiceClientOptions) {}

  get ready(): boolean {
    return this.state === 'ready';
  }

  start(): void {
    if (this.state !== 'idle' && this.state !== 'restarting') return;
    this.state = 'starting';
    this.fatalSeen = false;
    const child = this.options.spawn();
    this.child = child;
    child.onMessage((message) => this.onMessage(child, message));
    child.onExit((code) => this.onExit(child, code));
    child.postMessage(this.options.init);
  }

  call(method: ApiMethod, params: unknown): Promise<CallResult> {
    return new Promise((resolve) => {
      const send = (): void => {
        if (this.state !== 'ready' || !this.child) {
          resolve(unavailable('Nuzo’s service is not running. Quit and start Nuzo again.'));
          return;
        }
        const id = this.nextId++;
        this.inFlight.set(id, resolve);
        this.child.postMessage({ t: 'call', id, method, params });
      };
      if (this.state === 'starting' || this.state === 'restarting') this.queued.push(send);
      else send();
    });
  }

  /** Asks the service to close the database and exit; kills it if it has not after `timeoutMs`. */
  stop(timeoutMs = 5000): Promise<void> {
    const child = this.child;
    if (!child || this.state === 'stopped' || this.state === 'failed' || this.state === 'idle') {
      this.state = 'stopped';
      return Promise.resolve();
    }
    this.state = 'stopping';
    return new Promise((resolve) => {
      const timer = setTimeout(() => child.kill(), timeoutMs);
      this.stopWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
      child.postMessage({ t: 'stop' });
    });
  }

  private onMessage(child: ServiceChild, message: unknown): void {
    if (child !== this.child) return;
    if (!isFromService(message)) {
      this.options.log('nuzo: ignored a malformed message from the service process');
      return;
    }
    switch (message.t) {
      case 'ready': {
        if (this.state !== 'starting') return;
        this.state = 'ready';
        this.options.onReady?.({ home: message.home, socketPath: message.socketPath });
        const queued = this.queued;
        this.queued = [];
        queued.forEach((send) => send());
        return;
      }
      case 'result': {
        const resolve = this.inFlight.get(message.id);
        this.inFlight.delete(message.id);
        resolve?.(message.result);
        return;
      }
      case 'event':
        this.options.onEvent(message.event);
        return;
      case 'fatal':
        this.fatalSeen = true;
        this.fail(message.error);
        return;
    }
  }

  private onExit(child: ServiceChild, code: number | null): void {
    if (child !== this.child) return;
    this.child = null;
    this.failInFlight('Nuzo’s service stopped while answering; the change may not have been made. Reload to check.');
    if (this.state === 'stopping' || this.state === 'stopped') {
      this.state = 'stopped';
      this.stopWaiters.splice(0).forEach((done) => done());
      return;
    }
    if (this.state === 'failed' || this.fatalSeen) return;
    const now = Date.now();
    const windowMs = this.options.crashWindowMs ?? 120_000;
    this.crashes = [...this.crashes.filter((t) => now - t < windowMs), now];
    const delays = this.options.restartDelaysMs ?? [500, 2000, 5000, 15_000];
    const delay = delays[this.crashes.length - 1];
    if (delay === undefined) {
      this.fail({ code: 'app_unavailable', message: `Nuzo’s service stopped ${this.crashes.length} times in a row (last exit code ${code ?? 'none'}); see its log.` });
      return;
    }
    this.options.log(`nuzo: the service process exited (code ${code ?? 'none'}); restarting in ${delay} ms`);
    this.state = 'restarting';
    setTimeout(() => this.start(), delay);
  }

  private fail(error: ApiError): void {
    if (this.state === 'failed') return;
    this.state = 'failed';
    this.failInFlight(error.message);
    const queued = this.queued;
    this.queued = [];
    queued.forEach((send) => send());
    this.options.onFatal(error);
  }

  private failInFlight(message: string): void {
    for (const resolve of this.inFlight.values()) resolve(unavailable(message));
    this.inFlight.clear();
  }
}
