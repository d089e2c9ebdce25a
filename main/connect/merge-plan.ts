/**
 * The new text of one config file, or null when it already says what Nuzo would write. Pure:
 * text in, text out. Anything Nuzo cannot read with certainty is refused, never rewritten.
 */
import { isDeepStrictEqual } from 'node:util';
import { NuzoError } from '../core/errors.js';
import { hookGroup, HOOK_EVENTS, mcpEntry, mergeHookGroups, SERVER_NAME, serversKey } from './entries.js';
import { JsoncError, parseJsonc, toValue } from './jsonc.js';
import { setProperty } from './json-edit.js';
import type { BridgeCommand, HostId } from './types.js';

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export function refusal(path: string, reason: string, details: Record<string, unknown> = {}): NuzoError {
  return new NuzoError(
    'validation_error',
    `Nuzo cannot safely edit ${path}: ${reason}. The file was left untouched; fix it, or add Nuzo's entry to it by hand (the exact text is shown for this host).`,
    { path, ...details },
  );
}

/** The document's top-level object; an empty file counts as `{}`. */
export function readRoot(text: string, path: string): Json {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = toValue(parseJsonc(text));
  } catch (error) {
    if (error instanceof JsoncError) throw refusal(path, `it is not valid JSON (${error.message})`, { line: error.line, column: error.column });
    throw error;
  }
  if (!isRecord(value)) throw refusal(path, 'its top level is not a JSON object');
  return value;
}

function withValue(root: Json, path: readonly string[], value: unknown): Json {
  const copy = structuredClone(root);
  let node: Json = copy;
  path.forEach((key, i) => {
    const next = i === path.length - 1 ? value : isRecord(node[key]) ? node[key] : {};
    Object.defineProperty(node, key, { value: next, enumerable: true, writable: true, configurable: true });
    node = next as Json;
  });
  return copy;
}

/** Splices the change, then re-reads the result: it must equal the old document plus exactly that change. */
function applyChecked(text: string, root: Json, path: readonly string[], value: unknown, file: string): { text: string; root: Json } {
  const next = setProperty(text, path, value);
  const expected = withValue(root, path, value);
  let actual: unknown;
  try {
    actual = toValue(parseJsonc(next));
  } catch {
    actual = undefined;
  }
  if (!isDeepStrictEqual(actual, expected)) throw refusal(file, 'its layout is unusual enough that an edit could not be verified');
  return { text: next, root: expected };
}

export function planServerEntry(text: string, file: string, host: HostId, bridge: BridgeCommand): string | null {
  const root = readRoot(text, file);
  const key = serversKey(host);
  const servers = root[key];
  if (servers !== undefined && !isRecord(servers)) throw refusal(file, `"${key}" is not a JSON object`);
  const desired = mcpEntry(host, bridge);
  if (servers !== undefined && isDeepStrictEqual(servers[SERVER_NAME], desired)) return null;
  return applyChecked(text, root, [key, SERVER_NAME], desired, file).text;
}

export function planHooks(text: string, file: string, bridge: BridgeCommand, platform: NodeJS.Platform): string | null {
  let root = readRoot(text, file);
  const hooks = root['hooks'];
  if (hooks !== undefined && !isRecord(hooks)) throw refusal(file, '"hooks" is not a JSON object');
  let current = text;
  let changed = false;
  for (const event of HOOK_EVENTS) {
    const list = hooks?.[event];
    if (list !== undefined && !Array.isArray(list)) throw refusal(file, `"hooks.${event}" is not a list`);
    const merged = mergeHookGroups(list ?? [], hookGroup(bridge, event, platform), event);
    if (isDeepStrictEqual(list, merged)) continue;
    ({ text: current, root } = applyChecked(current, root, ['hooks', event], merged, file));
    changed = true;
  }
  return changed ? current : null;
}
