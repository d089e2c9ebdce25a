/** Writes Nuzo into a host's config files: plan every file first, then back up and replace. */
import { hostPaths, resolveEnv } from './hosts.js';
import { nodeBridgeCommand } from './bridge-command.js';
import { backupConfig, readConfig, writeConfigAtomically, type ConfigText } from './config-file.js';
import { planHooks, planServerEntry } from './merge-plan.js';
import type { BridgeCommand, ConnectOptions, FileWriteResult, HostId, HostWriteResult } from './types.js';

interface FileJob {
  path: string;
  plan: (text: string) => string | null;
}

/** How often a file that changed under us (the host saving it) is re-read and re-planned. */
const ATTEMPTS = 3;

function writeOne(job: FileJob, now: () => Date): FileWriteResult {
  for (let attempt = 1; ; attempt++) {
    const config: ConfigText = readConfig(job.path);
    const next = job.plan(config.text);
    if (next === null) return { path: job.path, backup: null, changed: false };
    // The host may have saved the file since we read it: start over rather than lose its change.
    if (readConfig(job.path).text !== config.text && attempt < ATTEMPTS) continue;
    const backup = config.exists ? backupConfig(config, now()) : null;
    writeConfigAtomically(config, next);
    return { path: job.path, backup, changed: true };
  }
}

export function bridgeFor(options: ConnectOptions): BridgeCommand {
  return options.bridge ?? nodeBridgeCommand({ env: resolveEnv(options).env });
}

export function writeHostConfig(host: HostId, options: ConnectOptions = {}): HostWriteResult {
  const resolved = resolveEnv(options);
  const paths = hostPaths(host, resolved);
  const bridge = bridgeFor(options);
  const jobs: FileJob[] = [{ path: paths.config, plan: (text) => planServerEntry(text, paths.config, host, bridge) }];
  if (paths.hooks !== null) {
    const hooksPath = paths.hooks;
    jobs.push({ path: hooksPath, plan: (text) => planHooks(text, hooksPath, bridge, resolved.platform) });
  }
  // Dry run over every file first, so that a refused file leaves the others untouched too.
  for (const job of jobs) job.plan(readConfig(job.path).text);
  const now = options.now ?? (() => new Date());
  return { host, files: jobs.map((job) => writeOne(job, now)) };
}
