/**
 * Maps app://nuzo/<path> to a file of the renderer build. Only files listed when the app
 * started are served, so nothing outside that folder (or added later) can be reached whatever
 * the URL says; suspicious paths are refused before the lookup rather than normalised.
 */
import { lstatSync, readdirSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import { APP_HOST, APP_SCHEME } from './sender-check.js';

export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

export type Resolution = { ok: true; file: string; relative: string; contentType: string } | { ok: false; status: 400 | 404; reason: string };

/** Regular files (no symlinks) with a served type, as forward-slash paths relative to root. */
export function listRendererFiles(root: string): Set<string> {
  const found = new Set<string>();
  const walk = (dir: string, prefix: string): void => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const full = join(dir, name);
      const stat = lstatSync(full);
      if (stat.isDirectory()) walk(full, `${prefix}${name}/`);
      else if (stat.isFile() && Object.hasOwn(CONTENT_TYPES, extname(name).toLowerCase())) found.add(`${prefix}${name}`);
    }
  };
  walk(root, '');
  return found;
}

const refuse = (status: 400 | 404, reason: string): Resolution => ({ ok: false, status, reason });

export function resolveAppRequest(url: string, root: string, known: ReadonlySet<string>): Resolution {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refuse(400, 'not a URL');
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST || parsed.username !== '' || parsed.password !== '') return refuse(400, 'not this app');
  let path: string;
  try {
    path = decodeURIComponent(parsed.pathname);
  } catch {
    return refuse(400, 'bad escape');
  }
  // Refuse, don't normalise: our own page never asks for any of these.
  if (/[\0\\]/.test(path) || /^\/\/|^\/[A-Za-z]:/.test(path) || path.split('/').some((s) => s === '..' || s === '.')) return refuse(400, 'path not allowed');
  const relative = path === '/' ? 'index.html' : path.slice(1);
  if (!known.has(relative)) return refuse(404, 'not part of the window');
  const base = resolve(root);
  const file = resolve(base, ...relative.split('/'));
  if (!file.startsWith(base + sep)) return refuse(400, 'path not allowed');
  return { ok: true, file, relative, contentType: CONTENT_TYPES[extname(relative).toLowerCase()]! };
}
