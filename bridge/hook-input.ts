/**
 * Reading a host hook's JSON from stdin, bounded in size and time: a hook must never wait on a
 * stdin that stays open, nor hold a huge tool output in memory for nothing.
 */
import { MAX_FRAME_BYTES } from '../main/ipc/framing.js';

/** The payload travels inside one IPC frame. */
export const MAX_HOOK_INPUT_BYTES = MAX_FRAME_BYTES - 1024;

export type HookInput = { ok: true; payload: Record<string, unknown> } | { ok: false; problem: string };

function readStdin(deadline: number): Promise<{ text: string } | { problem: string }> {
  return new Promise((resolve) => {
    const stdin = process.stdin;
    if (stdin.isTTY) {
      resolve({ text: '' });
      return;
    }
    const chunks: Buffer[] = [];
    let bytes = 0;
    const finish = (result: { text: string } | { problem: string }): void => {
      clearTimeout(timer);
      stdin.removeAllListeners('data');
      stdin.pause();
      // Leave nothing that keeps the process alive.
      stdin.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => finish({ problem: 'stdin did not close in time' }), Math.max(0, deadline - Date.now()));
    stdin.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > MAX_HOOK_INPUT_BYTES) finish({ problem: `the hook input is larger than ${MAX_HOOK_INPUT_BYTES} bytes` });
      else chunks.push(chunk);
    });
    stdin.once('end', () => finish({ text: Buffer.concat(chunks).toString('utf8') }));
    stdin.once('error', (error: Error) => finish({ problem: `cannot read stdin (${error.message})` }));
  });
}

export async function readHookInput(deadline: number): Promise<HookInput> {
  const read = await readStdin(deadline);
  if ('problem' in read) return { ok: false, problem: read.problem };
  if (read.text.trim() === '') return { ok: false, problem: 'no hook input on stdin (expected the host\'s hook JSON)' };
  let value: unknown;
  try {
    value = JSON.parse(read.text);
  } catch {
    return { ok: false, problem: 'the hook input on stdin is not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, problem: 'the hook input on stdin is not a JSON object' };
  }
  return { ok: true, payload: value as Record<string, unknown> };
}
