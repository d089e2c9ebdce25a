#!/usr/bin/env node
// Runs the compiled tests with node's own test runner. Arguments filter test files by substring
// (`npm test -- pipeline ipc`). Tests print their own skip reasons.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const testRoot = join(root, 'dist', 'test');

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return name === 'bench' ? [] : walk(full);
    return name.endsWith('.test.js') ? [full] : [];
  });
}

const filters = process.argv.slice(2);
const files = walk(testRoot)
  .filter((f) => filters.length === 0 || filters.some((s) => relative(testRoot, f).includes(s)))
  .sort();
if (files.length === 0) {
  process.stderr.write('run-tests: no test files matched\n');
  process.exit(1);
}
const concurrency = Math.max(2, availableParallelism());
const result = spawnSync(process.execPath, ['--test', `--test-concurrency=${concurrency}`, ...files], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'test' },
});
process.exit(result.status ?? 1);
