/** The JSONC reader and the text-splicing editor behind connect: exact bytes, clear refusals. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JsoncError, parseJsonc, toValue } from '../../main/connect/jsonc.js';
import { detectIndent, setProperty } from '../../main/connect/json-edit.js';

const value = (text: string): unknown => toValue(parseJsonc(text));

test('reads comments, trailing commas and comment-like text inside strings', () => {
  assert.deepEqual(value('// head\n{ "a": 1, /* mid */ "b": [1, 2,], "c": "x // y /* z */", }\n// tail'), { a: 1, b: [1, 2], c: 'x // y /* z */' });
  assert.deepEqual(value('{"n": -1.5e3, "t": true, "f": false, "z": null, "u": "\\u00e9\\n"}'), { n: -1500, t: true, f: false, z: null, u: 'é\n' });
});

test('agrees with JSON.parse on plain JSON, duplicate keys included (the last one wins)', () => {
  for (const text of ['{"a": {"b": [1, {"c": "d"}]}, "e": ""}', '{"a": 1, "a": 2}', '[]', '"s"', '0']) {
    assert.deepEqual(value(text), JSON.parse(text));
  }
});

test('"__proto__" stays an ordinary key', () => {
  const parsed = value('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(parsed), Object.prototype);
  assert.deepEqual(Object.keys(parsed), ['__proto__']);
  assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
});

test('refuses broken input with the line and column', () => {
  const cases: Array<[string, RegExp]> = [
    ['{\n  "a": 1\n  "b": 2\n}', /expected "," or "}" at line 3, column 3/],
    ['{"a": 1', /expected "," or "}" at line 1, column 8/],
    ['{"a": /* never closed', /unterminated \/\* comment/],
    ["{'a': 1}", /expected a property name/],
    ['{"a": 01}', /expected "," or "}"/],
    ['{"a": "line\nbreak"}', /invalid or unterminated string/],
    ['{"a": 1} {"b": 2}', /unexpected text after the end/],
    ['', /the file is empty/],
    ['{"a": nul}', /unexpected character "n"/],
  ];
  for (const [text, message] of cases) {
    assert.throws(() => parseJsonc(text), (e: unknown) => e instanceof JsoncError && message.test(e.message), text);
  }
});

test('refuses absurd nesting instead of overflowing the stack', () => {
  assert.throws(() => parseJsonc('['.repeat(10_000)), /nested too deeply/);
});

test('setProperty replaces one value and leaves every other byte alone', () => {
  const text = '{\n    "keep": [1,2,3], // note\n    "servers": {"nuzo": {"old": true}, "other": 1}\n}\n';
  const next = setProperty(text, ['servers', 'nuzo'], { command: 'x' });
  assert.equal(next, '{\n    "keep": [1,2,3], // note\n    "servers": {"nuzo": {\n        "command": "x"\n    }, "other": 1}\n}\n');
  assert.deepEqual(value(next), { keep: [1, 2, 3], servers: { nuzo: { command: 'x' }, other: 1 } });
});

test('setProperty inserts into empty, compact and multi-line objects, creating missing parents', () => {
  assert.equal(setProperty('{}', ['servers', 'nuzo'], { a: 1 }), '{\n  "servers": {\n    "nuzo": {\n      "a": 1\n    }\n  }\n}');
  assert.equal(setProperty('{"x": 1}', ['y'], [1]), '{"x": 1, "y": [1]}');
  assert.equal(setProperty('{\n\t"x": 1\n}', ['y'], { z: 2 }), '{\n\t"x": 1,\n\t"y": {\n\t\t"z": 2\n\t}\n}');
  assert.equal(setProperty('{ // only a comment\n}', ['y'], 1), '{\n  "y": 1 // only a comment\n}');
  assert.equal(setProperty('', ['a', 'b'], 1), '{\n  "a": {\n    "b": 1\n  }\n}\n');
  assert.equal(setProperty('{"a": {}}', ['a', 'b'], 'c'), '{"a": {\n  "b": "c"\n}}');
});

test('setProperty edits the last of duplicate keys, the one JSON.parse reads', () => {
  const next = setProperty('{"a": {"n": 1}, "a": {"n": 2}}', ['a', 'n'], 3);
  assert.equal(next, '{"a": {"n": 1}, "a": {"n": 3}}');
  assert.deepEqual(JSON.parse(next), { a: { n: 3 } });
});

test('setProperty never replaces a non-object in the way', () => {
  assert.throws(() => setProperty('{"servers": []}', ['servers', 'nuzo'], 1), /is not an object/);
});

test('detectIndent follows the file', () => {
  assert.equal(detectIndent('{\n\t"a": 1\n}'), '\t');
  assert.equal(detectIndent('{\n    "a": 1\n}'), '    ');
  assert.equal(detectIndent('{"a": 1}'), '  ');
});
