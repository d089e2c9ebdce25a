/**
 * The loopback window's gatekeeping: per-launch token, Host and Origin checks, security headers.
 * A page on any website can make the browser send requests to 127.0.0.1; these checks are what
 * stop it (DNS rebinding via Host, CSRF via Origin + JSON content type + a bearer header that no
 * other page can attach).
 *
 * The token is never a cookie. Cookies are scoped by host, not by port, so a cookie set by
 * 127.0.0.1:<port> is sent to every other server on 127.0.0.1 (another user's, a dev server, a
 * proxy that forwards it upstream). Instead the printed URL carries the token in its fragment
 * (`/#token=…`, which browsers never send to any server); the page keeps it in this tab's
 * sessionStorage (scoped by origin, port included) and sends `Authorization: Bearer` on /api.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The cookie earlier versions set; only ever expired now, never set or read. */
export const LEGACY_COOKIE = 'nuzo_token';

export const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'none'; object-src 'none'";

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The address to open: the token rides in the fragment, which never leaves the browser. */
export function windowUrl(port: number, token: string): string {
  return `http://127.0.0.1:${port}/#token=${token}`;
}

/** Constant-time comparison; length is not secret (it is fixed per launch). */
export function tokenMatches(candidate: string | undefined | null, token: string): boolean {
  if (typeof candidate !== 'string') return false;
  const a = Buffer.from(candidate);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

export function allowedOrigins(port: number): string[] {
  return allowedHosts(port).map((host) => `http://${host}`);
}

export function hostAllowed(req: IncomingMessage, port: number): boolean {
  const host = req.headers.host;
  return typeof host === 'string' && allowedHosts(port).includes(host);
}

/** Absent Origin (same-origin GET-like navigations, non-browser clients) or exactly ours. */
export function originAllowed(req: IncomingMessage, port: number): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) {
    // Fetch metadata, when the browser sends it, is a second opinion on the same question.
    const site = req.headers['sec-fetch-site'];
    return site === undefined || site === 'same-origin' || site === 'none';
  }
  return allowedOrigins(port).includes(origin);
}

export function isJsonContentType(req: IncomingMessage): boolean {
  const type = req.headers['content-type'];
  if (typeof type !== 'string') return false;
  return type.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

/** `Authorization: Bearer <token>` (the scheme is case-insensitive), or null. */
export function bearerToken(req: IncomingMessage): string | null {
  const auth = req.headers.authorization;
  if (typeof auth !== 'string') return null;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(auth);
  return match ? match[1]! : null;
}

/** Only the bearer header authorises: no cookie, no query string. */
export function requestAuthorised(req: IncomingMessage, token: string): boolean {
  return tokenMatches(bearerToken(req), token);
}

function hasCookie(req: IncomingMessage, name: string): boolean {
  const header = req.headers.cookie;
  if (typeof header !== 'string') return false;
  return header.split(';').some((part) => {
    const eq = part.indexOf('=');
    return eq > 0 && part.slice(0, eq).trim() === name;
  });
}

/**
 * A browser that used an earlier version still holds its host-wide token cookie until it quits
 * (and sends it to every server on 127.0.0.1); the first request that shows it expires it.
 */
export function expireLegacyCookie(req: IncomingMessage, res: ServerResponse): void {
  if (hasCookie(req, LEGACY_COOKIE)) res.setHeader('Set-Cookie', `${LEGACY_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict`);
}

/** Sent on every response, errors included. */
export function setSecurityHeaders(res: ServerResponse): void {
  res.setHeader('Content-Security-Policy', CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
}
