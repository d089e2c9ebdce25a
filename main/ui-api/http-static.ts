/** Serves the Vite build: known content types, nothing outside the build folder, SPA fallback. */
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

export type StaticOutcome = 'served' | 'not_found' | 'bad_path' | 'not_built';

async function fileInside(root: string, candidate: string): Promise<string | null> {
  try {
    // realpath so that a symlink inside the build cannot point outside it.
    const real = await realpath(candidate);
    if (real !== root && !real.startsWith(root + sep)) return null;
    return (await stat(real)).isFile() ? real : null;
  } catch {
    return null;
  }
}

function send(req: IncomingMessage, res: ServerResponse, file: string, size: number): void {
  const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
  res.writeHead(200, {
    'Content-Type': type,
    'Content-Length': size,
    // Hashed asset names change with every build; index.html must always be re-read.
    'Cache-Control': file.endsWith('.html') ? 'no-store' : 'no-cache',
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(file).pipe(res);
}

export async function serveStatic(req: IncomingMessage, res: ServerResponse, staticDir: string, pathname: string): Promise<StaticOutcome> {
  let root: string;
  try {
    root = await realpath(resolve(staticDir));
  } catch {
    return 'not_built';
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return 'bad_path';
  }
  // Refuse rather than normalise: a request that needs `..`, backslashes or NULs is not from our page.
  if (decoded.includes('\0') || decoded.includes('\\') || decoded.split('/').some((segment) => segment === '..')) return 'bad_path';

  const relative = decoded.replace(/^\/+/, '');
  const target = resolve(root, relative);
  if (target !== root && !target.startsWith(root + sep)) return 'bad_path';

  const direct = relative === '' ? null : await fileInside(root, target);
  const index = await fileInside(root, join(root, 'index.html'));
  if (direct !== null) {
    send(req, res, direct, (await stat(direct)).size);
    return 'served';
  }
  // A path with an extension is a missing asset; anything else is a client-side route.
  if (extname(relative) !== '') return 'not_found';
  if (index === null) return 'not_built';
  send(req, res, index, (await stat(index)).size);
  return 'served';
}
