/**
 * Raw HTTP for the loopback window's security tests: node:http lets a test send exactly the Host,
 * Origin and path bytes an attacker's page or a rebinding DNS name would, which fetch does not.
 */
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface RawRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export function raw(port: number, req: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { host: `127.0.0.1:${port}`, ...req.headers };
    if (req.body !== undefined) headers['content-length'] = Buffer.byteLength(req.body);
    const r = request({ host: '127.0.0.1', port, method: req.method ?? 'GET', path: req.path, headers, setHost: false, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    r.on('error', reject);
    if (req.body !== undefined) r.write(req.body);
    r.end();
  });
}

/** A same-origin JSON API call authenticated with the bearer token. */
export async function apiCall(port: number, token: string, method: string, params: unknown): Promise<RawResponse & { json: { ok: boolean; result?: unknown; error?: { code: string; message: string; details?: unknown } } }> {
  const res = await raw(port, {
    method: 'POST',
    path: `/api/${method}`,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', origin: `http://127.0.0.1:${port}` },
    body: JSON.stringify(params),
  });
  return { ...res, json: JSON.parse(res.body) as { ok: boolean; result?: unknown; error?: { code: string; message: string } } };
}

/** Opens `/api/events` and resolves with the first `data:` event matching `match`. */
export function nextEvent(port: number, token: string, match: (event: { type: string; id: string }) => boolean, timeoutMs = 5000): { ready: Promise<void>; event: Promise<{ type: string; id: string }> } {
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const event = new Promise<{ type: string; id: string }>((resolve, reject) => {
    const r = request({ host: '127.0.0.1', port, path: '/api/events', headers: { host: `127.0.0.1:${port}`, authorization: `Bearer ${token}`, accept: 'text/event-stream' }, setHost: false, agent: false }, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`events answered ${res.statusCode}`));
        return;
      }
      markReady();
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block
            .split('\n')
            .filter((line) => line.startsWith('data: '))
            .map((line) => line.slice(6))
            .join('\n');
          if (data === '') continue;
          const parsed = JSON.parse(data) as { type: string; id: string };
          if (match(parsed)) {
            clearTimeout(timer);
            r.destroy();
            resolve(parsed);
            return;
          }
        }
      });
    });
    const timer = setTimeout(() => {
      r.destroy();
      reject(new Error('no matching event in time'));
    }, timeoutMs);
    r.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    r.end();
  });
  return { ready, event };
}

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

/**
 * An unrelated server on another loopback port (someone else's dev server, a proxy): it answers
 * every request with a small page and remembers what the browser sent it.
 */
export async function recordingServer(): Promise<{ port: number; seen: SeenRequest[]; close(): Promise<void> }> {
  const seen: SeenRequest[] = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end('<!doctype html><title>Another local server</title><p>Not Nuzo.</p>');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
