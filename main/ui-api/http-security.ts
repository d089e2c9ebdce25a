/**
 * The loopback window's gatekeeping: per-launch token, Host and Origin checks, security headers.
 * A page on any website can make the browser send requests to 127.0.0.1; these checks are what
 * stop it (DNS rebinding via Host, CSRF via Origin + JSON content type + SameSite cookie).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const COOKIE_NAME = 'nuzo_token';

export const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'none'; object-src 'none'";

export function newToken(): string {
  return randomBytes(32).toString('base64url');
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

function cookieValue(req: IncomingMessage, name: string): string | null {
  const header = req.headers.cookie;
  if (typeof header !== 'string') return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

export function requestAuthorised(req: IncomingMessage, token: string): boolean {
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && auth.startsWith('Bearer ') && tokenMatches(auth.slice('Bearer '.length).trim(), token)) return true;
  return tokenMatches(cookieValue(req, COOKIE_NAME), token);
}

export function sessionCookie(token: string): string {
  // No Max-Age: a session cookie, and the token dies with this launch anyway.
  return `${COOKIE_NAME}=${token}; Path=/; HttpOnly; SameSite=Strict`;
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
