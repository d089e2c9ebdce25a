import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isNuzoError } from '../../main/core/errors.js';
import { encodeFrame, FrameDecoder, MAX_FRAME_BYTES, type FrameProblem } from '../../main/ipc/framing.js';

function decoder(max?: number): { push(bytes: string | Buffer): void; frames: unknown[]; errors: FrameProblem[]; buffered(): number } {
  const frames: unknown[] = [];
  const errors: FrameProblem[] = [];
  const d = new FrameDecoder({ onFrame: (f) => frames.push(f), onError: (p) => errors.push(p) }, max);
  return { push: (bytes) => d.push(Buffer.from(bytes)), frames, errors, buffered: () => d.bufferedBytes };
}

test('the limit is 8 MiB', () => {
  assert.equal(MAX_FRAME_BYTES, 8 * 1024 * 1024);
});

test('frames split anywhere, even inside a multi-byte character, come out whole', () => {
  const d = decoder();
  const wire = Buffer.from('{"a":"é日本"}\n{"b":2}\n');
  for (const byte of wire) d.push(Buffer.from([byte]));
  assert.deepEqual(d.frames, [{ a: 'é日本' }, { b: 2 }]);
  assert.equal(d.buffered(), 0);
});

test('many frames in one chunk, with blank lines and CRLF, all arrive in order', () => {
  const d = decoder();
  const lines = Array.from({ length: 1_000 }, (_, n) => JSON.stringify({ n }));
  d.push(`${lines.join('\n')}\n\n\r\n{"last":true}\r\n`);
  assert.equal(d.frames.length, 1_001);
  assert.deepEqual(d.frames[999], { n: 999 });
  assert.deepEqual(d.frames[1_000], { last: true });
  assert.deepEqual(d.errors, []);
});

test('a line of exactly the limit passes; one byte more is refused without holding it', () => {
  const exact = '{"s":"' + 'x'.repeat(10) + '"}'; // 18 bytes
  const ok = decoder(exact.length);
  ok.push(exact.slice(0, 7));
  ok.push(exact.slice(7) + '\n');
  assert.deepEqual(ok.frames, [{ s: 'x'.repeat(10) }]);

  const tooLong = decoder(exact.length - 1);
  tooLong.push(exact.slice(0, 9));
  tooLong.push(exact.slice(9));
  assert.deepEqual(tooLong.errors, ['frame_too_large']);
  assert.equal(tooLong.buffered(), 0);
  tooLong.push('\n{"after":1}\n');
  assert.deepEqual(tooLong.frames, [], 'nothing is decoded after a refusal');
});

test('an endless line never grows the buffer past the limit', () => {
  const d = decoder(1_000);
  let peak = 0;
  for (let i = 0; i < 100 && d.errors.length === 0; i++) {
    d.push('y'.repeat(64));
    peak = Math.max(peak, d.buffered());
  }
  assert.deepEqual(d.errors, ['frame_too_large']);
  assert.ok(peak <= 1_000, `held ${peak} bytes`);
});

test('invalid JSON and non-objects are refused once, and nothing after them is decoded', () => {
  const bad = decoder();
  bad.push('{"ok":1}\nnot json\n{"later":1}\n');
  assert.deepEqual(bad.frames, [{ ok: 1 }]);
  assert.deepEqual(bad.errors, ['invalid_json']);

  for (const value of ['[1,2]', '42', 'null', '"text"']) {
    const d = decoder();
    d.push(`${value}\n`);
    assert.deepEqual(d.errors, ['not_an_object'], value);
  }
});

test('encodeFrame writes one line and refuses what the peer would refuse', () => {
  const bytes = encodeFrame({ text: 'line one\nline two' });
  assert.equal(bytes.indexOf(0x0a), bytes.length - 1, 'newlines inside strings are escaped');
  assert.throws(
    () => encodeFrame({ s: 'z'.repeat(100) }, 50),
    (error: unknown) => isNuzoError(error) && error.code === 'internal_error' && /over the 50 bytes limit/.test(error.message),
  );
});
