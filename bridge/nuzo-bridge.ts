#!/usr/bin/env node
/**
 * `nuzo-bridge`: what MCP hosts launch. Every host launch pays for this file's imports, so it
 * and everything it reaches load node builtins and dependency-free project files only (a test
 * walks the import graph); the MCP server itself lives in the app.
 */
import { BRIDGE_VERSION } from './bridge-env.js';
import { describeError, stderrLog } from './bridge-log.js';

const USAGE = `nuzo-bridge ${BRIDGE_VERSION}: connects an MCP host to the running Nuzo app.

usage:
  nuzo-bridge                              relay MCP (stdio) to Nuzo, starting it if needed
  nuzo-bridge hook session-start           a host hook: print the context pack for the session
  nuzo-bridge hook post-tool-use           a host hook: propose the tool's output as a draft
      [--host NAME]                        the host that runs the hook (default claude-code)
  nuzo-bridge --version | --help

environment:
  NUZO_HOME                      the data folder (as for the app)
  NUZO_APP_COMMAND               command line that starts Nuzo when it is not running
  NUZO_BRIDGE_START_TIMEOUT_MS   how long to wait for Nuzo to start (default 10000)
  NUZO_HOOK_TIMEOUT_MS           a hook's whole time budget (default 3000)`;

const HOST_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

async function main(argv: string[]): Promise<void> {
  const [first, ...rest] = argv;
  if (first === undefined) {
    (await import('./relay-main.js')).runRelay();
    return;
  }
  if (first === '--version' || first === '-v') {
    process.stdout.write(`nuzo-bridge ${BRIDGE_VERSION}\n`);
    return;
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (first === 'hook') {
    const { isHookEvent, runHook } = await import('./hook.js');
    const [event, ...options] = rest;
    let host = 'claude-code';
    const problems: string[] = [];
    for (let i = 0; i < options.length; i++) {
      const option = options[i];
      const value = options[i + 1];
      if (option !== '--host') {
        problems.push(`unexpected argument "${option}"`);
      } else if (value === undefined || !HOST_NAME.test(value)) {
        problems.push('--host needs a host name such as claude-code');
      } else {
        host = value;
      }
      if (option === '--host') i++;
    }
    if (!isHookEvent(event)) problems.unshift(`unknown hook event "${event ?? ''}" (expected session-start or post-tool-use)`);
    if (problems.length > 0 || !isHookEvent(event)) {
      // Still exit 0: a misconfigured hook must not fail the host's tool calls.
      stderrLog(`hook skipped: ${problems.join('; ')}`);
      return;
    }
    process.stdout.on('error', () => process.exit(0));
    runHook(event, host);
    return;
  }
  stderrLog(`unknown argument "${first}"; run nuzo-bridge --help`);
  process.exitCode = 2;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  stderrLog(`failed: ${describeError(error)}`);
  process.exitCode = process.argv[2] === 'hook' ? 0 : 1;
});
