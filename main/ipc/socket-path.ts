/**
 * Where the app listens. Node builtins only (plus the dependency-free NuzoError): the bridge
 * computes the same location to connect.
 */
import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, realpathSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { NuzoError } from '../core/errors.js';

/** macOS sun_path holds 104 bytes including the terminator (Linux 108); stay clear of both. */
export const MAX_SOCKET_PATH_BYTES = 100;
export const SOCKET_FILE = 'nuzo.sock';

export interface SocketLocation {
  /** The private folder holding the socket (on Windows the data folder: pipes live in no folder). */
  dir: string;
  /** The Unix socket file or the Windows named pipe. */
  path: string;
}

/**
 * Symlinked and literal spellings of one data folder must meet at one socket; a folder that does
 * not exist yet has no app listening, so its literal spelling is as good as any.
 */
function canonicalHome(home: string): string {
  let canonical = resolve(home);
  try {
    canonical = realpathSync.native(canonical);
  } catch {
    // keep the resolved spelling
  }
  return canonical;
}

function homeHash(home: string): string {
  return createHash('sha256').update(canonicalHome(home)).digest('hex').slice(0, 12);
}

function fits(path: string): boolean {
  return Buffer.byteLength(path) < MAX_SOCKET_PATH_BYTES;
}

function windowsUser(env: NodeJS.ProcessEnv): string {
  let name = env['USERNAME'] ?? 'user';
  try {
    name = userInfo().username;
  } catch {
    // no passwd entry: the environment's name will do, the hash still separates data folders
  }
  return name.replace(/[^A-Za-z0-9._-]/g, '_') || 'user';
}

/**
 * Every Unix location that fits the path limit, preferred first: `<home>/run`, then
 * `$XDG_RUNTIME_DIR/nuzo-<hash>` (only needed when the data folder's path is too long for a
 * socket). The data folder comes first because it is the one thing app and bridge always agree
 * on: hosts often start their MCP servers without `XDG_RUNTIME_DIR`, and a bridge that looked
 * elsewhere would think the app is down. A client still tries each candidate.
 */
export function socketCandidates(
  home: string,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): SocketLocation[] {
  const hash = homeHash(home);
  if (platform === 'win32') {
    return [{ dir: home, path: `\\\\.\\pipe\\nuzo-${windowsUser(env)}-${hash}` }];
  }
  const inHome = join(canonicalHome(home), 'run');
  const candidates: SocketLocation[] = [{ dir: inHome, path: join(inHome, SOCKET_FILE) }];
  const runtime = env['XDG_RUNTIME_DIR'];
  if (runtime && runtime.startsWith('/')) {
    const dir = join(runtime, `nuzo-${hash}`);
    candidates.push({ dir, path: join(dir, SOCKET_FILE) });
  }
  return candidates.filter((c) => fits(c.path));
}

/** Where the server listens (and the client looks first). */
export function socketLocation(
  home: string,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): SocketLocation {
  const first = socketCandidates(home, env, platform)[0];
  if (first) return first;
  const tooLong = join(resolve(home), 'run', SOCKET_FILE);
  throw new NuzoError(
    'internal_error',
    `The data folder path is too long for a local socket: ${tooLong} is ${Buffer.byteLength(tooLong)} bytes, ` +
      `the limit is ${MAX_SOCKET_PATH_BYTES - 1}. Use a shorter NUZO_HOME, or set XDG_RUNTIME_DIR.`,
    { path: tooLong },
  );
}

function refuse(dir: string, problem: string): never {
  throw new NuzoError(
    'internal_error',
    `The socket folder ${dir} ${problem}. Nuzo will not listen there; remove it (or fix it) and start again.`,
    { dir },
  );
}

/**
 * Creates the socket folder 0700, or checks an existing one is ours and private: anyone who could
 * enter it could replace the socket and sit between the bridge and the app.
 */
export function ensurePrivateDir(dir: string, platform: NodeJS.Platform = process.platform): void {
  // Windows keeps pipes out of the file system and has no mode bits; the data folder's ACL applies.
  if (platform === 'win32' || typeof process.getuid !== 'function') {
    mkdirSync(dir, { recursive: true });
    return;
  }
  const created = mkdirSync(dir, { recursive: true, mode: 0o700 }) !== undefined;
  // A strict umask could leave a folder we cannot even use.
  if (created) chmodSync(dir, 0o700);
  const stat = lstatSync(dir);
  if (stat.isSymbolicLink()) refuse(dir, 'is a symbolic link, not a real folder');
  if (!stat.isDirectory()) refuse(dir, 'is not a folder');
  const uid = process.getuid();
  if (stat.uid !== uid) refuse(dir, `belongs to user id ${stat.uid}, not to this user (${uid})`);
  const mode = stat.mode & 0o777;
  if ((mode & 0o077) !== 0) {
    refuse(dir, `is open to other users (mode ${mode.toString(8).padStart(4, '0')}; it must be 0700)`);
  }
}
