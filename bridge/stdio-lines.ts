/**
 * Splits the host's stdin into lines (MCP's stdio transport is newline-delimited JSON). Unlike
 * the IPC decoder, a bad line here is reported and skipped, never fatal: the host is not an
 * adversary, and one oversized message must not end its whole session.
 */

const NEWLINE = 0x0a;
const CR = 0x0d;

export interface LineEvents {
  onLine(line: string): void;
  /** A line longer than the limit was dropped (its bytes are skipped up to the next newline). */
  onOversized(bytes: number): void;
}

export class LineSplitter {
  private tail: Buffer[] = [];
  private tailBytes = 0;
  /** Set while skipping the rest of an oversized line; counts the bytes skipped. */
  private skipping: number | null = null;

  constructor(
    private readonly events: LineEvents,
    private readonly maxLineBytes: number,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      const piece = chunk.subarray(start, end);
      start = end + 1;
      if (this.skipping !== null) {
        this.skipping += piece.length;
        if (newline !== -1) {
          this.events.onOversized(this.skipping);
          this.skipping = null;
        }
        continue;
      }
      if (this.tailBytes + piece.length > this.maxLineBytes) {
        this.skipping = this.tailBytes + piece.length;
        this.tail = [];
        this.tailBytes = 0;
        if (newline !== -1) {
          this.events.onOversized(this.skipping);
          this.skipping = null;
        }
        continue;
      }
      if (newline === -1) {
        this.tail.push(piece);
        this.tailBytes += piece.length;
        return;
      }
      this.emit(this.tail.length === 0 ? piece : Buffer.concat([...this.tail, piece]));
      this.tail = [];
      this.tailBytes = 0;
    }
  }

  /** At end of input a last line without its newline still counts. */
  end(): void {
    if (this.skipping !== null) {
      this.events.onOversized(this.skipping);
      this.skipping = null;
    }
    if (this.tailBytes > 0) this.emit(Buffer.concat(this.tail));
    this.tail = [];
    this.tailBytes = 0;
  }

  private emit(line: Buffer): void {
    const text = (line.length > 0 && line[line.length - 1] === CR ? line.subarray(0, -1) : line).toString('utf8');
    if (text.trim() !== '') this.events.onLine(text);
  }
}
