#!/usr/bin/env node
import { reportFailure, say, UsageError } from './output.js';

const USAGE = `nuzo — local-first memory for AI agents

usage:
  nuzo serve [--ui] [--port N] [--open]   run the service (and the window on loopback with --ui)
  nuzo import FILE [--json]               import JSON Lines through the write pipeline (origin: import)
  nuzo export [FILE]                      export every memory with its revisions as JSON Lines
  nuzo recall QUERY [--scope S] [--limit N] [--json]
  nuzo scan [--fail]                      scan stdin for secrets: {"findings":[{rule,start,end}]}
  nuzo window                             open the running service's window (prints its URL)
  nuzo grant add|list|revoke              standing consent (network and unknown origins never)
  nuzo connect HOST [--print]             claude-code, claude-desktop, cursor or vscode

The data folder is $NUZO_HOME, else the platform's application data folder.`;

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  switch (command) {
    case 'serve':
      return (await import('./commands/serve.js')).serveCommand(args);
    case 'import':
      return (await import('./commands/import.js')).importCommand(args);
    case 'export':
      return (await import('./commands/export.js')).exportCommand(args);
    case 'recall':
      return (await import('./commands/recall.js')).recallCommand(args);
    case 'window':
      return (await import('./commands/window.js')).windowCommand();
    case 'grant':
      return (await import('./commands/grant.js')).grantCommand(args);
    case 'connect':
      return (await import('./commands/connect.js')).connectCommand(args);
    case 'scan':
      return (await import('./commands/scan.js')).scanCommand(args);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      say(USAGE);
      return command === undefined ? 2 : 0;
    case '--version':
      say('nuzo 0.1.0');
      return 0;
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.exitCode = reportFailure(error);
  },
);
