/**
 * DESIGN §8a: only main/electron/ may load `electron` (outside the Electron shell a bare
 * require('electron') starts a download). Every module elsewhere — sources in main/, bridge/,
 * renderer/src and the compiled dist/main and dist/bridge — is checked together with everything
 * it reaches through local imports, static or dynamic.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../helpers/paths.js';

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)(['"`])([^'"`\n]+)\1/g;

const isElectron = (specifier: string): boolean => /^electron(?:\/|$)/.test(specifier) || specifier.startsWith('@electron/');

type Resolver = (from: string, specifier: string) => string | null;

const firstExisting = (candidates: string[]): string | null => candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? null;

/** Compiled ESM: specifiers carry their .js extension. */
const resolveCompiled: Resolver = (from, specifier) => {
  const base = resolve(dirname(from), specifier);
  return firstExisting([base, `${base}.js`, join(base, 'index.js')]);
};

/** Sources: `./x.js` means x.ts; the renderer (Vite) writes extensionless specifiers. */
const resolveSource: Resolver = (from, specifier) => {
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(c|m)?js$/, '');
  return firstExisting([`${stem}.ts`, `${stem}.tsx`, base, join(base, 'index.ts'), join(base, 'index.tsx')]);
};

export interface Finding {
  /** Import chain from the checked module to the one that names electron. */
  chain: string[];
  specifier: string;
}

/** Every way a module in `roots` reaches an electron import through local imports. */
export function electronReach(roots: string[], resolver: Resolver): Finding[] {
  const findings: Finding[] = [];
  const direct = new Map<string, { locals: string[]; electron: string | null }>();
  const scan = (file: string): { locals: string[]; electron: string | null } => {
    let entry = direct.get(file);
    if (entry) return entry;
    const locals: string[] = [];
    let electron: string | null = null;
    for (const match of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      const specifier = match[2]!;
      if (isElectron(specifier)) electron ??= specifier;
      else if (specifier.startsWith('.')) {
        const target = resolver(file, specifier);
        if (target) locals.push(target);
      }
    }
    entry = { locals, electron };
    direct.set(file, entry);
    return entry;
  };
  for (const root of roots) {
    const parent = new Map<string, string | null>([[root, null]]);
    const queue = [root];
    while (queue.length > 0) {
      const file = queue.shift()!;
      const { locals, electron } = scan(file);
      if (electron !== null) {
        const chain = [file];
        for (let p = parent.get(file); p != null; p = parent.get(p)) chain.unshift(p);
        findings.push({ chain, specifier: electron });
        break;
      }
      for (const next of locals) {
        if (parent.has(next)) continue;
        parent.set(next, file);
        queue.push(next);
      }
    }
  }
  return findings;
}

function walk(dir: string, keep: (file: string) => boolean, skipDir: (dir: string) => boolean = () => false): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return skipDir(full) || name === 'node_modules' ? [] : walk(full, keep, skipDir);
    return keep(full) ? [full] : [];
  });
}

const inside = (dir: string) => (path: string) => path === dir || path.startsWith(dir + sep);
const shellDir = join(repoRoot, 'main', 'electron');
const compiledShellDir = join(repoRoot, 'dist', 'main', 'electron');
const describe = (findings: Finding[]): string => findings.map((f) => `${f.chain.map((p) => relative(repoRoot, p)).join(' → ')} imports "${f.specifier}"`).join('\n');

test('no source outside main/electron reaches electron (main/, bridge/, renderer/src)', () => {
  const isSource = (f: string): boolean => /\.(ts|tsx)$/.test(f) && !f.endsWith('.d.ts');
  const roots = [
    ...walk(join(repoRoot, 'main'), isSource, inside(shellDir)),
    ...walk(join(repoRoot, 'bridge'), isSource),
    ...walk(join(repoRoot, 'renderer', 'src'), isSource),
  ];
  assert.ok(roots.length > 20, `found only ${roots.length} source files`);
  const findings = electronReach(roots, resolveSource);
  assert.deepEqual(findings, [], describe(findings));
});

test('no compiled module outside dist/main/electron reaches electron (dist/main, dist/bridge)', (t) => {
  const roots = [...walk(join(repoRoot, 'dist', 'main'), (f) => f.endsWith('.js'), inside(compiledShellDir)), ...walk(join(repoRoot, 'dist', 'bridge'), (f) => f.endsWith('.js'))];
  if (roots.length === 0) {
    t.skip('nothing compiled yet: run `npx tsc -p tsconfig.json` first');
    return;
  }
  const findings = electronReach(roots, resolveCompiled);
  assert.deepEqual(findings, [], describe(findings));
});

test('the checker sees dynamic and transitive imports (and does flag the Electron shell)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'nuzo-reach-'));
  try {
    writeFileSync(join(dir, 'a.js'), "import { b } from './b.js';\nexport const a = b;\n");
    writeFileSync(join(dir, 'b.js'), "export const b = 1;\nexport async function later() { return import('./c.js'); }\n");
    writeFileSync(join(dir, 'c.js'), "const { app } = await import(\n  'electron'\n);\n");
    writeFileSync(join(dir, 'd.js'), "const e = require(\"electron/main\");\n");
    writeFileSync(join(dir, 'e.js'), "export * from './a.js';\n");
    writeFileSync(join(dir, 'leaf.js'), "export const leaf = 'electron';\n");
    writeFileSync(join(dir, 'clean.js'), "import fs from 'node:fs';\nimport './leaf.js';\nimport x from 'electron-store-lookalike';\nexport const electronish = 'not-electron';\n");
    const found = electronReach(['e.js', 'd.js', 'clean.js'].map((f) => join(dir, f)), resolveCompiled);
    assert.deepEqual(
      found.map((f) => [f.chain.map((p) => relative(dir, p)), f.specifier]),
      [
        [['e.js', 'a.js', 'b.js', 'c.js'], 'electron'],
        [['d.js'], 'electron/main'],
      ],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const shell = join(shellDir, 'main.ts');
  assert.equal(electronReach([shell], resolveSource).length, 1, 'main/electron/main.ts imports electron: the checker must see it');
  const headless = join(repoRoot, 'dist', 'main', 'headless.js');
  if (existsSync(headless)) {
    // headless.js loads connect/provider.js with a dynamic import(): that edge must be followed.
    const provider = join(repoRoot, 'dist', 'main', 'connect', 'provider.js');
    const reached = new Set<string>();
    const probe: Resolver = (from, spec) => {
      const target = resolveCompiled(from, spec);
      if (target) reached.add(target);
      return target;
    };
    electronReach([headless], probe);
    assert.ok(reached.has(provider), 'dynamic import of ./connect/provider.js followed');
  }
});
