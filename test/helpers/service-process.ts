import { spawn, type ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { bridgeCli, nuzoCli } from './paths.js';

export interface RunningService {
  proc: ChildProcess;
  /** The window URL with its token, when started with ui. */
  url: string | null;
  token: string | null;
  stderr: () => string;
  stop(): Promise<void>;
}

/** Starts `nuzo serve` as a real child process and waits until it listens. */
export function startServe(home: string, options: { ui?: boolean; env?: Record<string, string> } = {}): Promise<RunningService> {
  const args = [nuzoCli, 'serve', ...(options.ui ? ['--ui', '--port', '0'] : [])];
  const proc = spawn(process.execPath, args, { env: { ...process.env, NUZO_HOME: home, ...options.env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`nuzo serve did not start:\n${log}`)), 15_000);
    proc.stderr!.setEncoding('utf8');
    proc.stderr!.on('data', (chunk: string) => {
      log += chunk;
      const ready = log.includes('service running') && (!options.ui || /window at (http:\S+)/.test(log));
      if (!ready) return;
      clearTimeout(timer);
      const url = /window at (http:\S+)/.exec(log)?.[1] ?? null;
      resolve({
        proc,
        url,
        // the token travels in the fragment (`#token=…`); older builds put it in the query
        token: url ? (new URLSearchParams(new URL(url).hash.slice(1)).get('token') ?? new URL(url).searchParams.get('token')) : null,
        stderr: () => log,
        stop: () =>
          new Promise((done) => {
            if (proc.exitCode !== null || proc.signalCode !== null) return done();
            proc.once('exit', () => done());
            proc.kill('SIGTERM');
          }),
      });
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`nuzo serve exited (${code}):\n${log}`));
    });
  });
}

export type ElicitAnswer = (message: string) => ElicitResult | Promise<ElicitResult>;

export interface ClientOptions {
  name?: string;
  elicit?: ElicitAnswer;
  cwd?: string;
  env?: Record<string, string>;
}

/** A real MCP host: the SDK Client spawning the built bridge over stdio. */
export async function connectClient(home: string, options: ClientOptions = {}): Promise<Client> {
  const client = new Client({ name: options.name ?? 'nuzo-test-host', version: '1.0.0' }, { capabilities: options.elicit ? { elicitation: { form: {} } } : {} });
  if (options.elicit) {
    const answer = options.elicit;
    client.setRequestHandler(ElicitRequestSchema, async (request) => answer(request.params.message));
  }
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bridgeCli],
    env: { ...(process.env as Record<string, string>), NUZO_HOME: home, ...options.env },
    ...(options.cwd ? { cwd: options.cwd } : {}),
    stderr: 'pipe',
  });
  await client.connect(transport);
  return client;
}

export interface ToolOutcome {
  isError: boolean;
  data: Record<string, unknown>;
  code: string | null;
}

export async function callTool(client: Client, name: string, args: Record<string, unknown>, timeout = 60_000): Promise<ToolOutcome> {
  const result = await client.callTool({ name, arguments: args }, undefined, { timeout });
  const data = (result.structuredContent ?? {}) as Record<string, unknown>;
  const error = data['error'] as { code?: string } | undefined;
  return { isError: result.isError === true, data, code: error?.code ?? null };
}

/** Calls the window's API of a `serve --ui` service the way the browser does. */
export async function windowApi<T>(service: RunningService, method: string, params: unknown = {}): Promise<{ ok: boolean; result?: T; error?: { code: string; message: string } }> {
  const base = new URL(service.url!);
  const response = await fetch(new URL(`/api/${method}`, base.origin), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${service.token}`, origin: base.origin },
    body: JSON.stringify(params),
  });
  return (await response.json()) as { ok: boolean; result?: T; error?: { code: string; message: string } };
}
