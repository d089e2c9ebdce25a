/**
 * Sets one property of a JSON(C) document by splicing text, so that every other byte — other
 * servers, unknown keys, comments, the file's own indentation — stays exactly as it was.
 */
import { findProp, parseJsonc, type JsonNode } from './jsonc.js';

/** The file's indentation unit: the first indented line's leading whitespace, else two spaces. */
export function detectIndent(text: string): string {
  for (const line of text.split('\n')) {
    const lead = /^([ \t]+)["{[\]}]/.exec(line)?.[1];
    if (lead) return lead[0] === '\t' ? '\t' : lead.length <= 8 ? lead : '  ';
  }
  return '  ';
}

/** Leading whitespace of the line holding `offset`. */
function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, offset))![0];
}

/** True when only whitespace precedes `offset` on its line. */
function startsLine(text: string, offset: number): boolean {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return text.slice(lineStart, offset).trim() === '';
}

function render(value: unknown, unit: string, indent: string): string {
  return JSON.stringify(value, null, unit).replaceAll('\n', `\n${indent}`);
}

function nest(path: readonly string[], value: unknown): unknown {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
}

function splice(text: string, start: number, end: number, insert: string): string {
  return text.slice(0, start) + insert + text.slice(end);
}

/** Adds `"key": value` as the last property of an object node. */
function insertProp(text: string, node: JsonNode & { type: 'object' }, key: string, value: unknown, unit: string): string {
  const objectIndent = lineIndent(text, node.start);
  const last = node.props[node.props.length - 1];
  const multiline = text.slice(node.start, node.end).includes('\n');
  if (!last) {
    const childIndent = objectIndent + unit;
    const inner = text.slice(node.start + 1, node.end - 1);
    const entry = `\n${childIndent}${JSON.stringify(key)}: ${render(value, unit, childIndent)}`;
    // `{}` or `{ }` becomes a tidy block; anything else inside (a comment) is kept after the entry.
    return inner.trim() === '' ? splice(text, node.start + 1, node.end - 1, `${entry}\n${objectIndent}`) : splice(text, node.start + 1, node.start + 1, entry);
  }
  if (!multiline) {
    return splice(text, last.value.end, last.value.end, `, ${JSON.stringify(key)}: ${JSON.stringify(value)}`);
  }
  const childIndent = startsLine(text, last.keySpan.start) ? lineIndent(text, last.keySpan.start) : objectIndent + unit;
  return splice(text, last.value.end, last.value.end, `,\n${childIndent}${JSON.stringify(key)}: ${render(value, unit, childIndent)}`);
}

/**
 * Returns `text` with the property at `path` set to `value`. Missing objects along the path are
 * created. The caller has checked that every existing step of the path is an object; a
 * non-object in the way is an error here, never silently replaced.
 */
export function setProperty(text: string, path: readonly string[], value: unknown): string {
  if (path.length === 0) throw new Error('setProperty needs a path');
  const unit = detectIndent(text);
  if (text.trim() === '') return `${render(nest(path, value), unit, '')}\n`;
  let node = parseJsonc(text);
  for (let i = 0; i < path.length; i++) {
    if (node.type !== 'object') throw new Error(`"${path.slice(0, i).join('.')}" is not an object`);
    const prop = findProp(node, path[i]!);
    if (!prop) return insertProp(text, node, path[i]!, nest(path.slice(i + 1), value), unit);
    if (i === path.length - 1) {
      const indent = startsLine(text, prop.keySpan.start) ? lineIndent(text, prop.keySpan.start) : lineIndent(text, prop.value.start);
      return splice(text, prop.value.start, prop.value.end, render(value, unit, indent));
    }
    node = prop.value;
  }
  throw new Error('unreachable');
}
