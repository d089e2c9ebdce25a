/**
 * Child processes for the MCP benchmark: the `nuzo serve` service, MCP clients over stdio (the
 * real bridge, the reference server, a trivial SDK server), /proc memory figures, and cleanup
 * that runs even when the bench process dies halfway.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/** dist/ (this file is dist/test/bench/mcp-procs.js once built). */
export const DIST = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const NUZO_CLI = join(DIST, 'main', 'cli', 'nuzo.js');
export const NUZO_BRIDGE = join(DIST, 'bridge', 'nuzo-bridge.js');

export const log = (line: string): void => void process.stderr.write(`mcp-bench: ${line}\n`);
export const nowMs = (): number => Number(process.hrtime.bigint()) / 1e6;
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Every child still alive is killed when the bench process exits, however it exits. */
const live = new Set<ChildProcess | number>();
const killAll = (): void => {
  for (const child of live) {
    try {
      if (typeof child === 'number') process.kill(child, 'SIGKILL');
      else child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  live.clear();
};
process.once('exit', killAll);

/** Environment a child needs to find the same socket as the service (and nothing else of ours). */
export function nuzoEnv(home: string): Record<string, string> {
  const env: Record<string, string> = { NUZO_HOME: home };
  const runtime = process.env['XDG_RUNTIME_DIR'];
  if (runtime) env['XDG_RUNTIME_DIR'] = runtime;
  return env;
}

/** Keeps the last `max` characters written to a stream, for error messages. */
function tail(stream: { on(event: 'data', fn: (chunk: Buffer | string) => void): unknown } | null | undefined, max = 4000): () => string {
  let text = '';
  stream?.on('data', (chunk: Buffer | string) => {
    text = (text + chunk.toString()).slice(-max);
  });
  return () => text.trim();
}

export interface Service {
  pid: number;
  stderr(): string;
  stop(): Promise<void>;
}

/** `node dist/main/cli/nuzo.js serve` on `home`, resolved once it logs "service running". */
export async function startService(home: string, timeoutMs = 60_000): Promise<Service> {
  const child = spawn(process.execPath, [NUZO_CLI, 'serve'], {
    env: { ...process.env, ...nuzoEnv(home) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  live.add(child);
  const stderr = tail(child.stderr, 8000);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    await new Promise<void>((ready, fail) => {
      const timer = setTimeout(() => fail(new Error(`nuzo serve not ready after ${timeoutMs} ms: ${stderr()}`)), timeoutMs);
      let seen = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        seen = (seen + chunk.toString()).slice(-4000);
        if (seen.includes('service running')) {
          clearTimeout(timer);
          ready();
        }
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        fail(new Error(`nuzo serve exited (${signal ?? code}) before it was ready: ${stderr()}`));
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        fail(error);
      });
    });
  } catch (error) {
    child.kill('SIGKILL');
    live.delete(child);
    throw error;
  }
  return {
    pid: child.pid!,
    stderr,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const done = await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)]);
        if (!done) {
          child.kill('SIGKILL');
          await exited;
        }
      }
      live.delete(child);
    },
  };
}

/** Runs a command to completion; resolves with its exit code and output. */
export function run(args: string[], env: Record<string, string>, timeoutMs = 30_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    live.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (e) => {
      clearTimeout(timer);
      live.delete(child);
      fail(e);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      live.delete(child);
      done({ code, stdout, stderr });
    });
  });
}

export interface McpProc {
  client: Client;
  pid: number | null;
  stderr(): string;
  close(): Promise<void>;
}

/** An SDK client over stdio to a server process (spawned by the SDK's transport). */
export async function connectStdio(opts: {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  clientName: string;
  /** The SDK client refuses a message longer than this (its default: 10 MiB). */
  maxBufferSize?: number;
}): Promise<McpProc> {
  const transport = new StdioClientTransport({
    command: opts.command,
    args: opts.args,
    env: opts.env,
    cwd: opts.cwd,
    stderr: 'pipe',
    ...(opts.maxBufferSize ? { maxBufferSize: opts.maxBufferSize } : {}),
  });
  const stderr = tail(transport.stderr);
  const client = new Client({ name: opts.clientName, version: '0.1.0' });
  let pid: number | null = null;
  try {
    await client.connect(transport);
    pid = transport.pid;
    if (pid !== null) live.add(pid);
  } catch (error) {
    await client.close().catch(() => {});
    throw new Error(`${(error as Error).message}${stderr() ? ` (stderr: ${stderr()})` : ''}`);
  }
  return {
    client,
    pid,
    stderr,
    async close() {
      await client.close().catch(() => {});
      if (pid !== null) live.delete(pid);
    },
  };
}

export interface ProcMem {
  rssMiB: number;
  hwmMiB: number;
}

/** VmRSS and VmHWM of a live process, from /proc (Linux); null elsewhere or once it is gone. */
export function procMem(pid: number | null): ProcMem | null {
  if (pid === null) return null;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string): number => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssMiB: kb('VmRSS') / 1024, hwmMiB: kb('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

/** The tool result's structured content, or the error code it carries. */
export function structured(result: unknown): Record<string, unknown> {
  const r = result as { structuredContent?: Record<string, unknown>; isError?: boolean; content?: Array<{ text?: string }> };
  if (r.structuredContent) return r.structuredContent;
  const text = r.content?.[0]?.text;
  try {
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    return { error: { code: 'unparsable', message: text } };
  }
}

export function errorCode(result: unknown): string {
  const body = structured(result);
  const error = body['error'] as { code?: string; message?: string } | undefined;
  return error ? `${error.code ?? '?'}: ${error.message ?? ''}` : `unexpected result ${JSON.stringify(body).slice(0, 300)}`;
}
