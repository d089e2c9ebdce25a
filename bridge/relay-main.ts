/**
 * `nuzo-bridge` (relay mode): the host's stdin and stdout on one side, the app on the other.
 * stdout carries MCP messages and nothing else; everything else goes to stderr.
 */
import { dataHome } from '../main/core/paths.js';
import { MAX_FRAME_BYTES } from '../main/ipc/framing.js';
import { connectOrStart } from './app-connection.js';
import { envMs } from './bridge-env.js';
import { stderrLog } from './bridge-log.js';
import type { JsonRpcMessage } from './jsonrpc.js';
import { Relay } from './relay.js';
import { LineSplitter } from './stdio-lines.js';

export const DEFAULT_START_TIMEOUT_MS = 10_000;
/** After the app went away under a live session, give it this long to come back by itself. */
const RECONNECT_GRACE_MS = 1_000;
/** Once stdin closes, answers still owed to the host get this long to arrive. */
const SHUTDOWN_GRACE_MS = 2_000;
/** Room for the `{"t":"mcp","m":…}` wrapper around a host message inside one IPC frame. */
const MAX_HOST_LINE_BYTES = MAX_FRAME_BYTES - 64;

export function runRelay(): void {
  const home = dataHome();
  const startTimeoutMs = envMs('NUZO_BRIDGE_START_TIMEOUT_MS', DEFAULT_START_TIMEOUT_MS);
  let stdoutBroken = false;

  process.stdout.on('error', () => {
    // The host stopped reading our stdout: it has gone, and so should we.
    stdoutBroken = true;
    process.exit(0);
  });

  const relay = new Relay({
    toHost(message: JsonRpcMessage) {
      if (!stdoutBroken) process.stdout.write(`${JSON.stringify(message)}\n`);
    },
    log: stderrLog,
    connect: (kind) =>
      connectOrStart({ home, timeoutMs: startTimeoutMs, graceMs: kind === 'reconnect' ? RECONNECT_GRACE_MS : 0, log: stderrLog }),
  });

  const lines = new LineSplitter(
    {
      onLine: (line) => relay.fromHostLine(line),
      onOversized: (bytes) => relay.fromHostOversized(bytes, MAX_HOST_LINE_BYTES),
    },
    MAX_HOST_LINE_BYTES,
  );

  let ended = false;
  const end = (): void => {
    if (ended) return;
    ended = true;
    lines.end();
    void relay.hostClosed(SHUTDOWN_GRACE_MS).then(() => {
      // Exit only once stdout has taken every answer; a connect or launch still waiting is moot.
      process.stdout.write('', () => process.exit(0));
    });
  };
  process.stdin.on('data', (chunk: Buffer) => lines.push(chunk));
  process.stdin.once('end', end);
  process.stdin.once('error', end);

  relay.start();
}
