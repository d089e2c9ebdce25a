/**
 * Which links from the window may open in the person's browser. Memory text and provenance are
 * untrusted (a fetched page may have written them), so a link is an allowlist decision: web
 * pages only (no file:, custom schemes or OS handlers), no credentials in the URL, and nothing
 * on this machine or the local network, which a crafted GET could poke.
 */
const MAX_URL = 2048;

function isPrivateIpv4(host: string): boolean {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return false;
  const [a, b] = [Number(m[1]), Number(m[2])];
  return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
}

function isLocalIpv6(host: string): boolean {
  if (!host.startsWith('[')) return false;
  const h = host.slice(1, -1).toLowerCase();
  // ::, ::1, IPv4-mapped, unique-local fc00::/7, link-local fe80::/10
  return h === '::' || h === '::1' || h.startsWith('::ffff:') || /^f[cd]/.test(h) || /^fe[89ab]/.test(h);
}

export function externalLinkAllowed(url: string): boolean {
  if (typeof url !== 'string' || url.length > MAX_URL) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return false;
  if (parsed.username !== '' || parsed.password !== '') return false;
  const host = parsed.hostname.toLowerCase().replace(/\.$/, '');
  if (host === '' || (!host.includes('.') && !host.startsWith('['))) return false; // single-label names are local too
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal')) return false;
  return !isPrivateIpv4(host) && !isLocalIpv6(host);
}
