/**
 * One framed connection, either side. Node builtins only (the bridge uses it too).
 */
import type { Socket } from 'node:net';
import type { ErrorCode } from '../core/vocabulary.js';
import { encodeFrame, FrameDecoder, MAX_FRAME_BYTES } from './framing.js';
import type { ErrorFrame } from './protocol.js';

/** A peer that stops reading must not make this side queue without end. */
export const MAX_QUEUED_BYTES = 4 * MAX_FRAME_BYTES;
/** How long a closing peer gets to take our last frames before the connection is cut. */
const LINGER_MS = 1_000;

export type FrameHandler = (frame: Record<string, unknown>) => void;

export interface ConnectionHooks {
  /** The size of a partly received frame after each chunk (server statistics). */
  onBuffered?(bytes: number): void;
  /** Why this side dropped the peer, for the log. */
  onDrop?(reason: string): void;
}

export class FramedConnection {
  private handler: FrameHandler = () => {};
  private readonly closeListeners: Array<() => void> = [];
  private state: 'open' | 'closing' | 'closed' = 'open';
  private lingerTimer: NodeJS.Timeout | undefined;
  private readonly decoder: FrameDecoder;
  private failure: string | undefined;

  constructor(
    private readonly socket: Socket,
    private readonly hooks: ConnectionHooks = {},
  ) {
    this.decoder = new FrameDecoder({
      onFrame: (frame) => this.handler(frame),
      onError: (_problem, message) => this.fail('validation_error', message),
    });
    socket.on('data', (chunk: Buffer) => {
      if (this.state !== 'open') return;
      this.decoder.push(chunk);
      hooks.onBuffered?.(this.decoder.bufferedBytes);
    });
    // Resets and broken pipes are ordinary ways for a peer to go; 'close' follows and cleans up.
    socket.on('error', () => {});
    socket.on('close', () => this.finish());
  }

  /** Why this side gave up on the peer, if it did. */
  get failureReason(): string | undefined {
    return this.failure;
  }

  /** Frames go to the latest handler: the handshake first, then the session. */
  setHandler(handler: FrameHandler): void {
    this.handler = handler;
  }

  onClose(listener: () => void): void {
    if (this.state === 'closed') queueMicrotask(listener);
    else this.closeListeners.push(listener);
  }

  /** Sending on a closed connection is a normal race with the peer leaving: the frame is dropped. */
  send(frame: object): void {
    if (this.state !== 'open') return;
    const bytes = encodeFrame(frame);
    if (this.socket.writableLength + bytes.length > MAX_QUEUED_BYTES) {
      this.fail('internal_error', 'the peer stopped reading; too much output is waiting');
      return;
    }
    this.socket.write(bytes);
  }

  /** Tells the peer why (best effort) and closes. */
  fail(code: ErrorCode, message: string): void {
    if (this.state !== 'open') return;
    this.failure = `${code}: ${message}`;
    this.hooks.onDrop?.(this.failure);
    const last: ErrorFrame = { t: 'error', code, message };
    this.shutDown(encodeFrame(last));
  }

  close(): void {
    if (this.state === 'open') this.shutDown();
  }

  private shutDown(last?: Buffer): void {
    this.state = 'closing';
    this.decoder.reset();
    // Nothing more is read; a peer still sending fills its own buffer, not ours.
    this.socket.pause();
    this.lingerTimer = setTimeout(() => this.socket.destroy(), LINGER_MS);
    this.lingerTimer.unref();
    const cut = (): void => {
      this.socket.destroy();
    };
    if (last) this.socket.end(last, cut);
    else this.socket.end(cut);
  }

  private finish(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    clearTimeout(this.lingerTimer);
    this.decoder.reset();
    this.handler = () => {};
    for (const listener of this.closeListeners.splice(0)) listener();
  }
}
