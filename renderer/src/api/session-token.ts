/**
 * The per-launch token of the loopback window. `nuzo serve --ui` prints
 * `http://127.0.0.1:<port>/#token=…`: the fragment never reaches any server. On load it is taken
 * out of the address bar and kept in this tab's sessionStorage, which is scoped by origin (port
 * included) and survives reloads, unlike a cookie, which every server on 127.0.0.1 would receive.
 */

const STORAGE_KEY = 'nuzo.token';
// `#token=<base64url>`, optionally followed by `&<route>` (e.g. `&/memories/<id>`).
const FRAGMENT = /^#token=([A-Za-z0-9_-]{16,256})(?:&(.*))?$/;

let current: string | null = null;

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    // Storage disabled: the token lives for this page only.
    return null;
  }
}

/** Moves a token from the fragment into session storage; call once, before routing reads the hash. */
export function captureToken(): void {
  const match = FRAGMENT.exec(window.location.hash);
  if (match !== null) {
    current = match[1]!;
    try {
      storage()?.setItem(STORAGE_KEY, current);
    } catch {
      // Quota or privacy mode: keep it in memory.
    }
    const rest = match[2] ? `#${match[2]}` : '';
    window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}${rest}`);
    return;
  }
  if (current === null) {
    try {
      current = storage()?.getItem(STORAGE_KEY) ?? null;
    } catch {
      current = null;
    }
  }
}

/** The `Authorization` header for /api, or nothing when this tab never got a token (then 401). */
export function authHeaders(): Record<string, string> {
  return current === null ? {} : { authorization: `Bearer ${current}` };
}
