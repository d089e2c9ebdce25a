/**
 * app://nuzo/ — the window's own origin. A custom standard+secure scheme instead of file://
 * (which a Vite build cannot load from, and which would grant the page file-wide reach); every
 * response carries the strict CSP, and only files of the renderer build are served.
 */
import { protocol } from 'electron';
import { readFile } from 'node:fs/promises';
import { CSP } from '../ui-api/http-security.js';
import { listRendererFiles, resolveAppRequest } from './protocol-path.js';
import { APP_SCHEME } from './sender-check.js';

const SECURITY_HEADERS = {
  'Content-Security-Policy': CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
} as const;

/** Must run before the app is ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
  ]);
}

export function serveAppProtocol(rendererDir: string, log: (line: string) => void): void {
  const known = listRendererFiles(rendererDir);
  if (!known.has('index.html')) log(`nuzo: the window is not built (${rendererDir} has no index.html); run \`npm run build\``);
  protocol.handle(APP_SCHEME, async (request) => {
    const resolved = resolveAppRequest(request.url, rendererDir, known);
    if (!resolved.ok) {
      return new Response(resolved.reason, { status: resolved.status, headers: { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' } });
    }
    try {
      const body = await readFile(resolved.file);
      return new Response(body, {
        status: 200,
        headers: { ...SECURITY_HEADERS, 'Content-Type': resolved.contentType, 'Cache-Control': resolved.relative.endsWith('.html') ? 'no-store' : 'no-cache' },
      });
    } catch {
      return new Response('not found', { status: 404, headers: { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' } });
    }
  });
}
