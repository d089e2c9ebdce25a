import { createHash } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The git top level above `dir`, or `dir` itself when it is not inside a repository. */
export function projectRoot(dir: string): string {
  let current = resolve(dir);
  for (;;) {
    if (existsSync(join(current, '.git'))) return current;
    const parent = dirname(current);
    if (parent === current) return resolve(dir);
    current = parent;
  }
}

/**
 * A project id that reads well (`nuzo-3f9a2c1b`) and stays unique: the folder name plus a short
 * hash of its real path, so two checkouts called `app` are two projects.
 */
export function projectId(root: string): string {
  let real = root;
  try {
    real = realpathSync(root);
  } catch {
    // a folder that vanished still gets a stable id from its given path
  }
  const slug = basename(real).toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[^a-z0-9]+/, '').slice(0, 40) || 'project';
  return `${slug}-${createHash('sha256').update(real).digest('hex').slice(0, 8)}`;
}

export function projectIdForDir(dir: string): string {
  return projectId(projectRoot(dir));
}

/** Project ids for MCP roots (`file://` URIs); other schemes are ignored. */
export function projectIdsForRoots(uris: readonly string[]): string[] {
  const ids = new Set<string>();
  for (const uri of uris) {
    if (!uri.startsWith('file:')) continue;
    try {
      ids.add(projectIdForDir(fileURLToPath(uri)));
    } catch {
      // a malformed root is skipped, not fatal
    }
  }
  return [...ids];
}
