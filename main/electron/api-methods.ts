/**
 * The NuzoApi methods the preload exposes, as data. A plain list (not the zod table) keeps the
 * sandboxed preload bundle tiny; the type below fails the build when the contract gains a method
 * that is missing here, and a unit test checks it against the HTTP adapter's schema table.
 */
import type { ApiMethod } from '../ui-api/contract.js';

export const API_METHODS = [
  'inbox',
  'offer',
  'decideOffer',
  'searchMemories',
  'memory',
  'facets',
  'createMemory',
  'updateMemory',
  'forgetMemory',
  'restoreMemory',
  'restoreRevision',
  'audit',
  'connections',
  'grants',
  'createGrant',
  'revokeGrant',
  'hostConfigs',
  'writeHostConfig',
  'settings',
  'setCapturePaused',
  'exportData',
  'importData',
  'backup',
] as const satisfies readonly ApiMethod[];

type Missing = Exclude<ApiMethod, (typeof API_METHODS)[number]>;
// A compile error here names the methods that are missing from API_METHODS.
export const API_METHODS_COMPLETE: [Missing] extends [never] ? true : Missing = true;

/** The two IPC channels between the window and the main process. */
export const CALL_CHANNEL = 'nuzo:call';
export const EVENT_CHANNEL = 'nuzo:event';
