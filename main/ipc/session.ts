/**
 * The post-handshake view of a connection, the same on both sides. Node builtins only.
 */
import type { FramedConnection } from './connection.js';

export interface FrameSession {
  /** Throws a NuzoError for a frame over the size limit; a frame sent after close is dropped. */
  send(frame: object): void;
  onFrame(callback: (frame: unknown) => void): void;
  onClose(callback: () => void): void;
  close(): void;
}

/** Frames that arrive before anyone listens are held, but not without end. */
const MAX_EARLY_FRAMES = 1_024;

/**
 * Frames that arrive before the first `onFrame` (for instance in the same chunk as the handshake's
 * last frame, or while the client awaits its connect promise) are held and delivered in order.
 * A throwing callback is reported, never allowed to unwind into the socket's event loop.
 */
export function openSession(conn: FramedConnection, report: (error: unknown) => void): FrameSession {
  const listeners: Array<(frame: unknown) => void> = [];
  const backlog: Array<Record<string, unknown>> = [];
  let flushing = false;
  let ready = false;

  const dispatch = (frame: Record<string, unknown>): void => {
    for (const listener of listeners) {
      try {
        listener(frame);
      } catch (error) {
        report(error);
      }
    }
  };

  conn.setHandler((frame) => {
    if (ready) {
      dispatch(frame);
    } else if (backlog.length >= MAX_EARLY_FRAMES) {
      conn.fail('internal_error', 'too many messages before the session was ready');
    } else {
      backlog.push(frame);
    }
  });

  return {
    send: (frame) => conn.send(frame),
    onFrame(callback) {
      listeners.push(callback);
      if (flushing) return;
      flushing = true;
      // Later, not now: a callback must not run while it is being registered.
      queueMicrotask(() => {
        for (const frame of backlog.splice(0)) dispatch(frame);
        ready = true;
      });
    },
    onClose(callback) {
      conn.onClose(() => {
        try {
          callback();
        } catch (error) {
          report(error);
        }
      });
    },
    close: () => conn.close(),
  };
}
