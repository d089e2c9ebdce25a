import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, from a compiled test file in dist/test/…. */
export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const nuzoCli = join(repoRoot, 'dist', 'main', 'cli', 'nuzo.js');
export const bridgeCli = join(repoRoot, 'dist', 'bridge', 'nuzo-bridge.js');
