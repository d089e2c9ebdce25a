/**
 * Settings the bridge reads from its environment, and its identity. Packaging and tests tune the
 * waits through the environment; hosts normally set nothing but NUZO_HOME.
 */
import { randomBytes } from 'node:crypto';
import { APP_VERSION } from '../main/core/version.js';

export const BRIDGE_VERSION = APP_VERSION;

/**
 * One id for this process, sent on every (re)connect: the app binds this host session's offers
 * to it, so `memory_capture_status` still works after the app restarted under the session.
 */
export const BRIDGE_INSTANCE = randomBytes(16).toString('hex');

/** A positive whole number of milliseconds from the environment, else the fallback. */
export function envMs(name: string, fallback: number, env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  return Number.isFinite(value) && value > 0 ? Math.round(value) : fallback;
}
