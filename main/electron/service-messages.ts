/**
 * Messages between the Electron main process and the service's utility process (process.
 * parentPort). The main process only relays checked window calls and receives results and
 * events; the database lives entirely in the utility process.
 */
import type { ApiError, ApiEvent, ApiMethod } from '../ui-api/contract.js';
import type { BridgeCommand } from '../connect/types.js';
import type { CallResult } from './call-gate.js';

export type InitMessage = { t: 'init'; bridge: BridgeCommand | null };

export type ToService = InitMessage | { t: 'call'; id: number; method: ApiMethod; params: unknown } | { t: 'stop' };

export type FromService =
  | { t: 'ready'; home: string; socketPath: string }
  | { t: 'result'; id: number; result: CallResult }
  | { t: 'event'; event: ApiEvent }
  | { t: 'fatal'; error: ApiError };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

export function isToService(v: unknown): v is ToService {
  if (!isRecord(v)) return false;
  switch (v['t']) {
    case 'init':
      return v['bridge'] === null || (isRecord(v['bridge']) && typeof v['bridge']['command'] === 'string' && Array.isArray(v['bridge']['args']));
    case 'call':
      return Number.isSafeInteger(v['id']) && typeof v['method'] === 'string';
    case 'stop':
      return true;
    default:
      return false;
  }
}

export function isFromService(v: unknown): v is FromService {
  if (!isRecord(v)) return false;
  switch (v['t']) {
    case 'ready':
      return typeof v['home'] === 'string' && typeof v['socketPath'] === 'string';
    case 'result':
      return Number.isSafeInteger(v['id']) && isRecord(v['result']) && typeof v['result']['ok'] === 'boolean';
    case 'event':
      return isRecord(v['event']) && typeof v['event']['type'] === 'string';
    case 'fatal':
      return isRecord(v['error']) && typeof v['error']['code'] === 'string' && typeof v['error']['message'] === 'string';
    default:
      return false;
  }
}
