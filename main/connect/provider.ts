/**
 * The Connect screen's backend (HostConfigProvider): the exact text for each host and, on
 * request, the merge into the host's own config file. Works under plain Node; the Electron shell
 * passes the packaged app's bridge command in `options.bridge`.
 */
import { existsSync } from 'node:fs';
import type { HostConfigProvider } from '../ui-api/service-api.js';
import type { HostConfigView } from '../ui-api/contract.js';
import { HOST_IDS, HOST_LABELS, hostPaths, resolveEnv } from './hosts.js';
import { snippetFor } from './snippets.js';
import { bridgeFor, writeHostConfig } from './write-host.js';
import type { ConnectOptions, HostId } from './types.js';

export function hostConfigView(host: HostId, options: ConnectOptions = {}): HostConfigView {
  const resolved = resolveEnv(options);
  const paths = hostPaths(host, resolved);
  return {
    host,
    label: HOST_LABELS[host],
    config_path: paths.config,
    snippet: snippetFor(host, bridgeFor(options), paths, resolved.platform),
    installed: existsSync(paths.marker) || existsSync(paths.config),
  };
}

export function defaultHostConfigProvider(options: ConnectOptions = {}): HostConfigProvider {
  return {
    list: () => HOST_IDS.map((host) => hostConfigView(host, options)),
    write(host) {
      const { files } = writeHostConfig(host, options);
      // The contract has room for one file: the MCP config. Claude Code's hooks file is written
      // in the same call; its backup is reported when the main file needed none.
      const [main, ...rest] = files;
      return {
        path: main!.path,
        backup: main!.backup ?? rest.find((f) => f.backup !== null)?.backup ?? null,
        changed: files.some((f) => f.changed),
      };
    },
  };
}
