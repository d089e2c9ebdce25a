/**
 * The bridge cold-starts on every MCP host launch: its IPC client may load node builtins and
 * dependency-free project files only (no zod, no other package).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;

function importGraph(entry: string): { files: string[]; packages: string[] } {
  const files: string[] = [];
  const packages = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (files.includes(file)) continue;
    files.push(file);
    for (const match of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      const specifier = match[1]!;
      if (specifier.startsWith('.')) pending.push(resolve(dirname(file), specifier));
      else packages.add(specifier);
    }
  }
  return { files, packages: [...packages] };
}

test('the bridge IPC client imports only node builtins', () => {
  const entry = fileURLToPath(new URL('../../bridge/ipc-client.js', import.meta.url));
  const { files, packages } = importGraph(entry);
  assert.ok(files.some((f) => f.endsWith('handshake.js') || f.endsWith('client-handshake.js')));
  assert.deepEqual(
    packages.filter((p) => !p.startsWith('node:')),
    [],
    `non-builtin imports reachable from bridge/ipc-client: ${packages.join(', ')}`,
  );
  assert.ok(!files.some((f) => f.replaceAll('\\', '/').endsWith('main/ipc/handshake.js')), 'the zod-checked server handshake stays out of the bridge');
});
