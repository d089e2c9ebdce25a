/**
 * The window over loopback HTTP (headless mode, `nuzo serve --ui`): the Vite build plus the
 * NuzoApi as `POST /api/<method>` and live events as `GET /api/events`. node:http only.
 *
 * Order of checks for every request: Host (DNS rebinding) → Origin and content type for writes
 * (CSRF) → the legacy `?token=` URL → for /api, `Authorization: Bearer <token>` → routing.
 * The static build (index.html, scripts, styles) holds no data and is served without the token,
 * behind the same Host check and CSP; every /api route needs the bearer token. There is no cookie:
 * cookies are per host, not per port, and would reach every other server on 127.0.0.1.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ApiError, NuzoApi } from './contract.js';
import { statusFor, toApiError } from './http-errors.js';
import { streamEvents } from './http-events.js';
import { isApiMethod, parseParams } from './http-schemas.js';
import {
  expireLegacyCookie,
  hostAllowed,
  isJsonContentType,
  newToken,
  originAllowed,
  requestAuthorised,
  setSecurityHeaders,
  tokenMatches,
  windowUrl,
} from './http-security.js';
import { serveStatic } from './http-static.js';

export interface UiServerOptions {
  api: NuzoApi;
  /** 0 or absent: any free port. */
  port?: number;
  /** The Vite build output (dist/renderer). */
  staticDir: string;
  log?: (line: string) => void;
}

export interface UiServer {
  /**
   * `http://127.0.0.1:<port>/#token=<token>`: the token is in the fragment, which the browser never
   * sends; the page moves it into sessionStorage and sends it as a bearer header.
   */
  url: string;
  token: string;
  port: number;
  close(): Promise<void>;
}

export const BODY_LIMIT = 1024 * 1024;
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

class BodyTooLarge extends Error {}

function page(res: ServerResponse, status: number, title: string, text: string): void {
  // Plain markup only: the CSP forbids inline style and script, on error pages too.
  const escape = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Nuzo — ${escape(title)}</title></head><body><h1>${escape(title)}</h1><p>${escape(text)}</p></body></html>`;
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(body);
}

function json(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(body);
}

function apiError(res: ServerResponse, error: ApiError): void {
  json(res, statusFor(error.code), { ok: false, error: { code: error.code, message: error.message, details: error.details ?? {} } });
}

function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      reject(new BodyTooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new BodyTooLarge());
        req.pause();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const UNAUTHORISED_TEXT =
  'This window needs the address printed by `nuzo serve --ui` (it ends in #token=… for this launch). Open that URL; if Nuzo was restarted, use the new one.';

export async function startUiServer(opts: UiServerOptions): Promise<UiServer> {
  const { api, staticDir } = opts;
  const log = opts.log ?? ((line: string) => process.stderr.write(line + '\n'));
  const token = newToken();
  const closers = new Set<() => void>();
  let port = 0;

  async function handleApi(req: IncomingMessage, res: ServerResponse, name: string): Promise<void> {
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      json(res, 405, { ok: false, error: { code: 'validation_error', message: 'API methods are called with POST.', details: {} } });
      return;
    }
    if (!isApiMethod(name)) {
      apiError(res, { code: 'not_found', message: `There is no API method "${name.slice(0, 64)}".`, details: {} });
      return;
    }
    let raw: string;
    try {
      raw = await readBody(req, BODY_LIMIT);
    } catch (error) {
      if (error instanceof BodyTooLarge) {
        // The rest of the body is never read, so this connection cannot carry another request.
        res.setHeader('Connection', 'close');
        res.on('finish', () => req.destroy());
        json(res, 413, { ok: false, error: { code: 'validation_error', message: 'The request body is larger than 1 MiB.', details: { limit: BODY_LIMIT } } });
        return;
      }
      throw error;
    }
    let body: unknown = undefined;
    if (raw.trim() !== '') {
      try {
        body = JSON.parse(raw);
      } catch {
        apiError(res, { code: 'validation_error', message: 'The request body is not valid JSON.', details: {} });
        return;
      }
    }
    const parsed = parseParams(name, body);
    if (!parsed.ok) {
      apiError(res, { code: 'validation_error', message: `Invalid parameters for ${name}.`, details: { issues: parsed.issues } });
      return;
    }
    // The allowlist and schema above make this a call to a known method with checked params.
    const method = api[name] as unknown as (params: unknown) => Promise<unknown>;
    try {
      const result = await method.call(api, parsed.value);
      json(res, 200, { ok: true, result: result ?? null });
    } catch (thrown) {
      const error = toApiError(thrown);
      if (error.code === 'internal_error') log(`ui: ${name} failed: ${thrown instanceof Error ? (thrown.stack ?? thrown.message) : String(thrown)}`);
      apiError(res, error);
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    setSecurityHeaders(res);
    if (!hostAllowed(req, port)) {
      // 421: this server is not the one the name was meant for (a rebinding page's hostname).
      page(res, 421, 'Wrong address', `Nuzo only answers at http://127.0.0.1:${port}/ or http://localhost:${port}/.`);
      return;
    }
    expireLegacyCookie(req, res);
    // Concatenated, not resolved against a base: `//host/path` must stay a path, never a host.
    const target = req.url ?? '/';
    const url = new URL(`http://127.0.0.1:${port}${target.startsWith('/') ? target : `/${target}`}`);
    const unsafe = UNSAFE_METHODS.has(req.method ?? '');

    if (unsafe && (!originAllowed(req, port) || !isJsonContentType(req))) {
      json(res, 403, { ok: false, error: { code: 'auth_failed', message: 'Cross-origin or non-JSON requests are refused.', details: {} } });
      return;
    }

    if ((req.method === 'GET' || req.method === 'HEAD') && url.pathname === '/' && url.searchParams.has('token')) {
      // The address format of earlier versions (kept for one release): move the token into the
      // fragment, where the page picks it up, and out of the query string.
      if (!tokenMatches(url.searchParams.get('token'), token)) {
        page(res, 401, 'Token not valid', UNAUTHORISED_TEXT);
        return;
      }
      res.writeHead(303, { Location: `/#token=${token}`, 'Cache-Control': 'no-store' });
      res.end();
      return;
    }

    const isApi = url.pathname === '/api' || url.pathname.startsWith('/api/');
    if (isApi) {
      if (!requestAuthorised(req, token)) {
        res.setHeader('WWW-Authenticate', 'Bearer realm="nuzo"');
        json(res, 401, { ok: false, error: { code: 'auth_failed', message: UNAUTHORISED_TEXT, details: {} } });
        return;
      }
      if (url.pathname === '/api/events') {
        if (req.method !== 'GET') {
          res.setHeader('Allow', 'GET');
          json(res, 405, { ok: false, error: { code: 'validation_error', message: 'Use GET for /api/events.', details: {} } });
          return;
        }
        const end = streamEvents(req, res, api, log);
        closers.add(end);
        res.on('close', () => closers.delete(end));
        return;
      }
      await handleApi(req, res, url.pathname.slice('/api/'.length));
      return;
    }

    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      page(res, 405, 'Method not allowed', 'The window is read with GET.');
      return;
    }
    const outcome = await serveStatic(req, res, staticDir, url.pathname);
    if (outcome === 'bad_path') page(res, 400, 'Bad path', 'That path is not part of the window.');
    else if (outcome === 'not_found') page(res, 404, 'Not found', 'That file is not part of the window. Open / instead.');
    else if (outcome === 'not_built') page(res, 503, 'The window is not built', 'Run `npm run build` in the Nuzo folder, then reload this page.');
  }

  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`ui: request failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (!res.headersSent) json(res, 500, { ok: false, error: toApiError(error) });
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 60_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Loopback only, by address: never 0.0.0.0, never "localhost" (which may resolve to ::1 or more).
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;

  return {
    url: windowUrl(port, token),
    token,
    port,
    async close() {
      for (const end of closers) end();
      closers.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}
