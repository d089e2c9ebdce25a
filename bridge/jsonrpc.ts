/**
 * Just enough JSON-RPC 2.0 for a relay: tell requests, notifications and responses apart, key
 * ids, and build error responses. Checked by hand (no schema library on the cold-start path);
 * the MCP server in the app validates every message properly.
 */

export type JsonRpcId = string | number;

export interface JsonRpcMessage {
  jsonrpc: '2.0';
  id?: JsonRpcId | null;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: unknown;
  [key: string]: unknown;
}

export type Classified =
  | { kind: 'request'; id: JsonRpcId; method: string; message: JsonRpcMessage }
  | { kind: 'notification'; method: string; message: JsonRpcMessage }
  | { kind: 'response'; id: JsonRpcId; message: JsonRpcMessage }
  | { kind: 'invalid'; id: JsonRpcId | null; reason: string };

/** Standard codes (JSON-RPC 2.0) and the one server-defined code the bridge uses. */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const BRIDGE_ERROR = -32000;

function isId(value: unknown): value is JsonRpcId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/** Ids are compared by JSON spelling: the request `1` and the request `"1"` are different. */
export function idKey(id: JsonRpcId): string {
  return JSON.stringify(id);
}

export function classify(value: unknown): Classified {
  if (Array.isArray(value)) return { kind: 'invalid', id: null, reason: 'JSON-RPC batches are not supported by MCP; send one message per line' };
  if (typeof value !== 'object' || value === null) return { kind: 'invalid', id: null, reason: 'a JSON-RPC message must be a JSON object' };
  const message = value as JsonRpcMessage;
  const id = isId(message.id) ? message.id : null;
  if (message.jsonrpc !== '2.0') return { kind: 'invalid', id, reason: 'the "jsonrpc" member must be "2.0"' };
  if ('method' in message) {
    if (typeof message.method !== 'string' || message.method === '') return { kind: 'invalid', id, reason: 'the "method" member must be a non-empty string' };
    if (!('id' in message)) return { kind: 'notification', method: message.method, message };
    if (id === null) return { kind: 'invalid', id: null, reason: 'a request id must be a string or a number' };
    return { kind: 'request', id, method: message.method, message };
  }
  if (id !== null && ('result' in message || 'error' in message)) return { kind: 'response', id, message };
  return { kind: 'invalid', id, reason: 'neither a request, a notification nor a response' };
}

export interface JsonRpcErrorBody {
  code: number;
  message: string;
  data?: Record<string, unknown>;
}

export function errorResponse(id: JsonRpcId | null, error: JsonRpcErrorBody): JsonRpcMessage {
  return { jsonrpc: '2.0', id, error };
}
