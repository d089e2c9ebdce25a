/**
 * Newline-delimited JSON frames with a hard cap on line length. Node builtins only (bridge side too).
 */
import { NuzoError } from '../core/errors.js';

export const MAX_FRAME_BYTES = 8 * 1024 * 1024;
const NEWLINE = 0x0a;

export type FrameProblem = 'frame_too_large' | 'invalid_json' | 'not_an_object';

export interface FrameDecoderEvents {
  onFrame(frame: Record<string, unknown>): void;
  /** Called once; the decoder ignores everything after it. */
  onError(problem: FrameProblem, message: string): void;
}

/**
 * Splits a byte stream into frames. Each byte is scanned once: only a new chunk is searched for
 * newlines, and the unfinished tail is kept as a list of chunks joined once when its line ends.
 * The tail never grows past `maxFrameBytes`: the line is refused as soon as it would.
 */
export class FrameDecoder {
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private failed = false;

  constructor(
    private readonly events: FrameDecoderEvents,
    private readonly maxFrameBytes: number = MAX_FRAME_BYTES,
  ) {}

  /** Bytes of an unfinished line held right now. */
  get bufferedBytes(): number {
    return this.tailBytes;
  }

  push(chunk: Buffer): void {
    let start = 0;
    while (!this.failed && start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      if (newline === -1) {
        this.hold(chunk.subarray(start));
        return;
      }
      const piece = chunk.subarray(start, newline);
      start = newline + 1;
      if (this.tailBytes + piece.length > this.maxFrameBytes) {
        this.fail('frame_too_large', `a frame is longer than the ${describeBytes(this.maxFrameBytes)} limit`);
        return;
      }
      const line = this.tail.length === 0 ? piece : Buffer.concat([...this.tail, piece]);
      this.tail = [];
      this.tailBytes = 0;
      this.deliver(line);
    }
  }

  /** Drops any partial line, e.g. when the connection ends. */
  reset(): void {
    this.tail = [];
    this.tailBytes = 0;
  }

  private hold(rest: Buffer): void {
    if (rest.length === 0) return;
    if (this.tailBytes + rest.length > this.maxFrameBytes) {
      this.fail('frame_too_large', `a frame is longer than the ${describeBytes(this.maxFrameBytes)} limit`);
      return;
    }
    this.tail.push(rest);
    this.tailBytes += rest.length;
  }

  private deliver(line: Buffer): void {
    // Blank lines (and a lone CR from a CRLF writer) carry nothing; JSON.parse skips other whitespace.
    if (line.length === 0 || (line.length === 1 && line[0] === 0x0d)) return;
    let value: unknown;
    try {
      value = JSON.parse(line.toString('utf8'));
    } catch {
      this.fail('invalid_json', 'a frame is not valid JSON');
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.fail('not_an_object', 'a frame must be a JSON object');
      return;
    }
    this.events.onFrame(value as Record<string, unknown>);
  }

  private fail(problem: FrameProblem, message: string): void {
    this.failed = true;
    this.reset();
    this.events.onError(problem, message);
  }
}

/** One frame on the wire. Refuses what the peer would refuse, so the sender hears why. */
export function encodeFrame(frame: object, maxFrameBytes: number = MAX_FRAME_BYTES): Buffer {
  const bytes = Buffer.from(`${JSON.stringify(frame)}\n`, 'utf8');
  if (bytes.length - 1 > maxFrameBytes) {
    throw new NuzoError(
      'internal_error',
      `An IPC message of ${describeBytes(bytes.length - 1)} is over the ${describeBytes(maxFrameBytes)} limit and was not sent.`,
      { bytes: bytes.length - 1, limit: maxFrameBytes },
    );
  }
  return bytes;
}

function describeBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(bytes % (1024 * 1024) === 0 ? 0 : 1)} MiB` : `${bytes} bytes`;
}
