import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { HOST_IDS, isHostId } from '../../connect/hosts.js';
import { hostConfigView } from '../../connect/provider.js';
import { bridgeFor, writeHostConfig } from '../../connect/write-host.js';
import type { ConnectOptions } from '../../connect/types.js';
import { isNuzoError } from '../../core/errors.js';
import { reportFailure } from '../output.js';

export interface ConnectIo {
  /** Results (the snippet with --print). */
  out?: (text: string) => void;
  /** Messages for the person. */
  err?: (line: string) => void;
}

const hostList = `${HOST_IDS.slice(0, -1).join(', ')} or ${HOST_IDS[HOST_IDS.length - 1]}`;

/**
 * `nuzo connect HOST [--print]`: writes Nuzo into the host's user config (backing up the old
 * file), or with --print only shows the exact text. Exit 0 done, 1 refused or failed, 2 usage.
 */
export function connectCommand(args: string[], options: ConnectOptions & ConnectIo = {}): number {
  const out = options.out ?? ((text: string) => void process.stdout.write(text));
  const err = options.err ?? ((line: string) => void process.stderr.write(line + '\n'));
  let parsed: { values: { print?: boolean | undefined }; positionals: string[] };
  try {
    parsed = parseArgs({ args, options: { print: { type: 'boolean' } }, allowPositionals: true, strict: true });
  } catch (error) {
    err(`nuzo connect: ${error instanceof Error ? error.message : String(error)}\nusage: nuzo connect HOST [--print]   (HOST: ${hostList})`);
    return 2;
  }
  const [host, ...extra] = parsed.positionals;
  if (host === undefined || extra.length > 0 || !isHostId(host)) {
    const what = host === undefined ? 'which host?' : extra.length > 0 ? `one host at a time (got ${parsed.positionals.join(' ')})` : `unknown host "${host}"`;
    err(`nuzo connect: ${what} — choose ${hostList}\nusage: nuzo connect HOST [--print]`);
    return 2;
  }

  if (parsed.values.print) {
    out(hostConfigView(host, options).snippet);
    return 0;
  }

  const bridge = bridgeFor(options);
  const script = bridge.args[0];
  if (script !== undefined && !existsSync(script)) err(`nuzo: note: the bridge ${script} does not exist yet; run \`npm run build\` before starting ${host}.`);
  try {
    const result = writeHostConfig(host, options);
    for (const file of result.files) {
      err(file.changed ? `nuzo: wrote ${file.path}` : `nuzo: ${file.path} already has Nuzo; nothing changed`);
      if (file.backup) err(`nuzo: the previous version is saved as ${file.backup}`);
    }
    if (result.files.some((f) => f.changed)) err(`nuzo: restart ${host} (or reload its MCP servers) to connect.`);
    return 0;
  } catch (error) {
    if (!isNuzoError(error)) return reportFailure(error);
    err(`nuzo: ${error.code}: ${error.message}`);
    return 1;
  }
}
