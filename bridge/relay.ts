/**
 * The relay between one MCP host (stdio) and the app (IPC session), and the rules that keep the
 * host's session alive across app restarts:
 * - messages from the host while no session is ready wait in a bounded queue;
 * - when the session drops, requests the app had not answered get an error (the app that was
 *   running them is gone), the bridge reconnects, replays the host's `initialize` and
 *   `notifications/initialized`, swallows the replay's answer, then sends what waited;
 * - when no app can be had, every request is answered with an error that says what to do.
 * stdout and the socket are reached only through `RelayPorts`, so the rules can be driven alone.
 */
import { describeError } from './bridge-log.js';
import type { IpcClientSession } from './ipc-client.js';
import { classify, errorResponse, idKey, type JsonRpcErrorBody, type JsonRpcId, type JsonRpcMessage } from './jsonrpc.js';
import { connectionFailure, invalidRequest, parseError, queueFull, restartedDuringRequest, sessionNotRestored } from './relay-errors.js';

export interface RelayPorts {
  /** One complete MCP message for the host (one stdout line). */
  toHost(message: JsonRpcMessage): void;
  log(line: string): void;
  /** A new session with the app; rejects with the reason none could be had. */
  connect(kind: 'initial' | 'reconnect'): Promise<IpcClientSession>;
}

export interface RelayLimits {
  /** Messages from the host held while (re)connecting. */
  maxQueuedMessages: number;
  maxQueuedBytes: number;
  /** How long the app gets to answer the replayed `initialize`. */
  replayTimeoutMs: number;
  /** More session losses than this within `churnWindowMs` stop the reconnecting. */
  maxReconnects: number;
  churnWindowMs: number;
}

export const DEFAULT_LIMITS: RelayLimits = {
  maxQueuedMessages: 256,
  maxQueuedBytes: 16 * 1024 * 1024,
  replayTimeoutMs: 10_000,
  maxReconnects: 5,
  churnWindowMs: 60_000,
};

type Phase = 'connecting' | 'replaying' | 'open' | 'failed' | 'closed';

type HostKind = 'request' | 'notification' | 'response';

interface Queued {
  message: JsonRpcMessage;
  kind: HostKind;
  /** Set for requests: they are owed an answer even if they never leave the queue. */
  id: JsonRpcId | null;
  bytes: number;
}

/** The replayed `initialize` uses an id no host request can carry in this process. */
const REPLAY_ID_PREFIX = 'nuzo-bridge-replay-';

export class Relay {
  private phase: Phase = 'connecting';
  private session: IpcClientSession | null = null;
  private failure: JsonRpcErrorBody | null = null;
  private queue: Queued[] = [];
  private queuedBytes = 0;
  /** Host requests sent on the current session and not yet answered, by id key. */
  private readonly inFlight = new Map<string, JsonRpcId>();
  /** Requests the app sent the host on the current session; the host's answers go back only to them. */
  private readonly appRequests = new Set<string>();
  /**
   * Requests a previous app process sent and the host has not answered yet. The app numbers its
   * requests afresh per connection, so an answer to one of these must not reach the new app.
   */
  private readonly staleAppRequests = new Set<string>();
  private initialize: { message: JsonRpcMessage; key: string; answered: boolean } | null = null;
  private initialized: JsonRpcMessage | null = null;
  private replay: { id: string; timer: NodeJS.Timeout } | null = null;
  private replays = 0;
  private losses: number[] = [];
  private idleWaiter: (() => void) | null = null;

  constructor(
    private readonly ports: RelayPorts,
    private readonly limits: RelayLimits = DEFAULT_LIMITS,
  ) {}

  /** Connects at once, before the host speaks: the host's `initialize` should not wait for it. */
  start(): void {
    this.connect('initial');
  }

  /** One line from the host's stdin. */
  fromHostLine(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.ports.toHost(errorResponse(null, parseError()));
      return;
    }
    const message = classify(value);
    if (message.kind === 'invalid') {
      this.ports.toHost(errorResponse(message.id, invalidRequest(message.reason)));
      return;
    }
    if (message.kind === 'request' && message.method === 'initialize' && this.initialize === null) {
      this.initialize = { message: message.message, key: idKey(message.id), answered: false };
    }
    if (message.kind === 'notification' && message.method === 'notifications/initialized') {
      this.initialized = message.message;
    }
    const queued: Queued = { message: message.message, kind: message.kind, id: message.kind === 'request' ? message.id : null, bytes: Buffer.byteLength(line) };
    if (this.phase === 'closed') return;
    if (this.phase === 'failed') {
      if (queued.id !== null && this.failure) this.ports.toHost(errorResponse(queued.id, this.failure));
      return;
    }
    if (this.phase === 'open') this.send(queued);
    else this.enqueue(queued);
  }

  /** A line over the size limit was skipped: its id is unknown, so the answer carries none. */
  fromHostOversized(bytes: number, limit: number): void {
    this.ports.log(`dropped a ${bytes}-byte message from the host (limit ${limit} bytes)`);
    this.ports.toHost(errorResponse(null, invalidRequest(`a message of ${bytes} bytes is over the ${limit}-byte limit`)));
  }

  /**
   * The host closed stdin. Requests still owed an answer get it if it comes within `graceMs`;
   * then the session is closed. Resolves when the bridge may exit.
   */
  async hostClosed(graceMs: number): Promise<void> {
    if (this.phase !== 'failed' && this.phase !== 'closed' && this.owed() > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, graceMs);
        function done(): void {
          clearTimeout(timer);
          resolve();
        }
        this.idleWaiter = done;
      });
    }
    this.idleWaiter = null;
    this.phase = 'closed';
    this.clearReplay();
    const session = this.session;
    this.session = null;
    if (session) {
      await new Promise<void>((resolve) => {
        // The socket lingers at most a second for the app to take our last frames.
        const timer = setTimeout(resolve, 1_500);
        session.onClose(() => {
          clearTimeout(timer);
          resolve();
        });
        session.close();
      });
    }
  }

  /** Requests from the host that have not been answered yet. */
  private owed(): number {
    return this.inFlight.size + this.queue.filter((q) => q.id !== null).length;
  }

  private checkIdle(): void {
    if (this.idleWaiter && (this.owed() === 0 || this.phase === 'failed')) this.idleWaiter();
  }

  private connect(kind: 'initial' | 'reconnect'): void {
    this.phase = 'connecting';
    this.ports.connect(kind).then(
      (session) => this.attach(session),
      (error: unknown) => {
        if (this.phase === 'closed') return;
        this.fail(connectionFailure(error));
      },
    );
  }

  private attach(session: IpcClientSession): void {
    if (this.phase === 'closed') {
      session.close();
      return;
    }
    this.session = session;
    session.onFrame((frame) => this.fromApp(session, frame));
    session.onClose(() => this.lost(session));
    if (this.initialize?.answered) {
      this.startReplay(session, this.initialize.message);
    } else {
      this.open();
    }
  }

  private startReplay(session: IpcClientSession, initialize: JsonRpcMessage): void {
    this.phase = 'replaying';
    this.replays += 1;
    const id = `${REPLAY_ID_PREFIX}${this.replays}`;
    const timer = setTimeout(() => {
      this.fail(sessionNotRestored(`the app did not answer the replayed initialize within ${this.limits.replayTimeoutMs} ms`));
    }, this.limits.replayTimeoutMs);
    this.replay = { id, timer };
    this.sendRaw(session, { ...initialize, id });
  }

  private replayAnswered(message: JsonRpcMessage): void {
    this.clearReplay();
    const error = message.error as { message?: unknown } | undefined;
    if (error !== undefined) {
      this.fail(sessionNotRestored(`the app refused the replayed initialize: ${typeof error.message === 'string' ? error.message : 'no reason given'}`));
      return;
    }
    if (this.initialized && this.session) this.sendRaw(this.session, this.initialized);
    this.ports.log('reconnected to Nuzo; the MCP session was restored');
    this.open();
  }

  private clearReplay(): void {
    if (this.replay) clearTimeout(this.replay.timer);
    this.replay = null;
  }

  private open(): void {
    this.phase = 'open';
    while (this.phase === 'open' && this.queue.length > 0) {
      const next = this.queue.shift()!;
      this.queuedBytes -= next.bytes;
      this.send(next);
    }
  }

  private enqueue(queued: Queued): void {
    if (this.queue.length >= this.limits.maxQueuedMessages || this.queuedBytes + queued.bytes > this.limits.maxQueuedBytes) {
      if (queued.id !== null) this.ports.toHost(errorResponse(queued.id, queueFull(this.queue.length)));
      else this.ports.log(`dropped a ${queued.kind} from the host while reconnecting: ${this.queue.length} messages are already waiting`);
      return;
    }
    this.queue.push(queued);
    this.queuedBytes += queued.bytes;
  }

  /** A host message onto the open session. */
  private send({ message, kind, id }: Queued): void {
    const session = this.session;
    if (!session) return;
    if (kind === 'response') {
      const key = idKey(message.id as JsonRpcId);
      if (this.staleAppRequests.delete(key) || !this.appRequests.delete(key)) {
        this.ports.log(`dropped the host's answer to request ${key}: the Nuzo process that asked it has gone`);
        return;
      }
    }
    if (id !== null) this.inFlight.set(idKey(id), id);
    if (!this.sendRaw(session, message) && id !== null) {
      this.inFlight.delete(idKey(id));
      this.ports.toHost(errorResponse(id, invalidRequest('the message is too large to relay to Nuzo')));
      this.checkIdle();
    }
  }

  private sendRaw(session: IpcClientSession, message: JsonRpcMessage): boolean {
    try {
      session.send({ t: 'mcp', m: message });
      return true;
    } catch (error) {
      this.ports.log(`could not relay a message: ${describeError(error)}`);
      return false;
    }
  }

  private fromApp(session: IpcClientSession, frame: unknown): void {
    if (session !== this.session || typeof frame !== 'object' || frame === null) return;
    const f = frame as { t?: unknown; m?: unknown; code?: unknown; message?: unknown };
    if (f.t === 'error') {
      this.ports.log(`Nuzo closed the connection: ${String(f.code)}: ${String(f.message)}`);
      return;
    }
    if (f.t !== 'mcp') return;
    const message = classify(f.m);
    if (message.kind === 'invalid') {
      this.ports.log(`ignored a message from Nuzo: ${message.reason}`);
      return;
    }
    if (message.kind === 'response') {
      const key = idKey(message.id);
      if (this.replay && key === idKey(this.replay.id)) {
        this.replayAnswered(message.message);
        return;
      }
      this.inFlight.delete(key);
      if (this.initialize && key === this.initialize.key) this.initialize.answered = true;
    } else if (message.kind === 'request') {
      this.appRequests.add(idKey(message.id));
    }
    this.ports.toHost(message.message);
    this.checkIdle();
  }

  /** The session ended: the app quit, crashed or restarted. */
  private lost(session: IpcClientSession): void {
    if (session !== this.session) return;
    this.session = null;
    for (const key of this.appRequests) this.staleAppRequests.add(key);
    this.appRequests.clear();
    this.clearReplay();
    if (this.phase === 'closed' || this.phase === 'failed') return;
    const retry: Queued[] = [];
    for (const [key, id] of this.inFlight) {
      if (this.initialize && key === this.initialize.key && !this.initialize.answered) {
        // The host has seen nothing of it yet, and initialize changes nothing: the next app may answer it.
        retry.push({ message: this.initialize.message, kind: 'request', id, bytes: 0 });
      } else {
        this.ports.toHost(errorResponse(id, restartedDuringRequest()));
      }
    }
    this.inFlight.clear();
    this.queue.unshift(...retry);
    if (this.idleWaiter) {
      // The host has left: nobody needs the app back.
      this.idleWaiter();
      return;
    }
    const now = Date.now();
    this.losses = [...this.losses.filter((t) => now - t < this.limits.churnWindowMs), now];
    if (this.losses.length > this.limits.maxReconnects) {
      this.fail(sessionNotRestored(`the connection to Nuzo was lost ${this.losses.length} times within ${Math.round(this.limits.churnWindowMs / 1000)} s`));
      return;
    }
    this.ports.log('the connection to Nuzo was lost; reconnecting');
    this.connect('reconnect');
  }

  /** No app can be had: answer everything owed, and every later request, with the reason. */
  private fail(error: JsonRpcErrorBody): void {
    if (this.phase === 'closed' || this.phase === 'failed') return;
    this.phase = 'failed';
    this.failure = error;
    this.clearReplay();
    this.ports.log(error.message);
    for (const id of this.inFlight.values()) this.ports.toHost(errorResponse(id, error));
    this.inFlight.clear();
    for (const queued of this.queue) if (queued.id !== null) this.ports.toHost(errorResponse(queued.id, error));
    this.queue = [];
    this.queuedBytes = 0;
    const session = this.session;
    this.session = null;
    session?.close();
    this.checkIdle();
  }
}
