/**
 * The two bundles scripts/bundle-bridge.mjs makes: the sandboxed preload (CommonJS, requires
 * only electron) and the shipped bridge (one CommonJS file, node builtins only, runs as is).
 * They exist after `npm run build`; a bare `tsc` does not make them, and then these tests say so.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../helpers/paths.js';

const preload = join(repoRoot, 'dist', 'electron', 'preload.cjs');
const bridge = join(repoRoot, 'dist', 'bridge-bundle', 'nuzo-bridge.cjs');
const NOT_BUILT = 'not bundled yet: run `npm run build` (scripts/bundle-bridge.mjs)';
const requires = (code: string): string[] => [...code.matchAll(/\brequire\(\s*["'`]([^"'`]+)["'`]\s*\)/g)].map((m) => m[1]!);

test('the preload is one CommonJS file that requires only electron and exposes one object', (t) => {
  if (!existsSync(preload)) return t.skip(NOT_BUILT);
  const code = readFileSync(preload, 'utf8');
  assert.deepEqual([...new Set(requires(code))], ['electron']);
  assert.doesNotMatch(code, /^\s*(import|export)\s/m, 'no ES module syntax: sandboxed preloads are CommonJS');
  assert.equal(code.match(/exposeInMainWorld\(/g)?.length, 1);
  assert.match(code, /exposeInMainWorld\("nuzo", /);
  assert.doesNotMatch(code, /\bzod\b|better-sqlite3|node:/, 'nothing of the service in the renderer process');
});

test('the bridge bundle needs only node builtins and runs under plain node', (t) => {
  if (!existsSync(bridge)) return t.skip(NOT_BUILT);
  const code = readFileSync(bridge, 'utf8');
  assert.ok(code.startsWith('#!/usr/bin/env node\n'));
  const foreign = requires(code).filter((name) => !name.startsWith('node:') && !builtinModules.includes(name));
  assert.deepEqual(foreign, []);
  assert.doesNotMatch(code, /\.node["'`]\)/, 'no native addon');
  const run = spawnSync(process.execPath, [bridge, '--version'], { encoding: 'utf8', timeout: 10_000 });
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /^nuzo-bridge \d+\.\d+\.\d+/);
});
