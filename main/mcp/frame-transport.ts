import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import type { FrameSession } from '../ipc/session.js';

/**
 * An MCP transport over an authenticated IPC session: each MCP message travels unchanged as
 * `{t: "mcp", m: <message>}`. Anything else on the session belongs to other layers.
 */
export class FrameTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  private closed = false;

  constructor(private readonly session: FrameSession) {}

  async start(): Promise<void> {
    this.session.onFrame((frame) => {
      const f = frame as { t?: unknown; m?: unknown };
      if (f.t !== 'mcp') return;
      const parsed = JSONRPCMessageSchema.safeParse(f.m);
      if (!parsed.success) {
        this.onerror?.(new Error('a relayed message is not JSON-RPC'));
        return;
      }
      this.onmessage?.(parsed.data);
    });
    this.session.onClose(() => {
      if (this.closed) return;
      this.closed = true;
      this.onclose?.();
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    this.session.send({ t: 'mcp', m: message });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.session.close();
    this.onclose?.();
  }
}
