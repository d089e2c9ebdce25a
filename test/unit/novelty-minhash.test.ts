import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BANDS, BAND_ROWS, MINHASH_FUNCTIONS, candidateProbability, halfSipHash64, hasherFromSeed, sketch, wordIds, wordSet } from '../../main/pipeline/minhash.js';
import { similarity } from '../../main/pipeline/novelty.js';
import { prng } from '../helpers/prng.js';


const seedFrom = (r: () => number): Buffer => Buffer.from(Array.from({ length: 16 }, () => Math.floor(r() * 256)));
const word = (r: () => number): string => Math.floor(r() * 36 ** 7).toString(36).padStart(4, 'q');

/** Two word sets of `size` words sharing `shared` of them. */
function pair(r: () => number, size: number, shared: number): [Set<string>, Set<string>] {
  const common = Array.from({ length: shared }, () => word(r));
  return [
    new Set([...common, ...Array.from({ length: size - shared }, () => word(r))]),
    new Set([...common, ...Array.from({ length: size - shared }, () => word(r))]),
  ];
}

test('the word hash is HalfSipHash-2-4 (64-bit output): the reference test vectors', () => {
  // vectors_hsip64 from the SipHash reference: key 00..07, message 00 01 … (len − 1); the text
  // is read as UTF-16 code units, two bytes each, little-endian
  const expected: Record<number, string> = { 0: '218d1f59b9b83cc8', 2: '064f39ef7c50eb57', 4: 'd5e78a175be52ea1', 6: 'ce3e91358aa2bc25', 10: '95b0469f06a6f2ee' };
  const out = new Uint32Array(2);
  for (const [len, hex] of Object.entries(expected)) {
    let text = '';
    for (let i = 0; i < Number(len); i += 2) text += String.fromCharCode(i | ((i + 1) << 8));
    halfSipHash64(0x03020100, 0x07060504, text, out);
    const got = Buffer.alloc(8);
    got.writeUInt32LE(out[0]!, 0);
    got.writeUInt32LE(out[1]!, 4);
    assert.equal(got.toString('hex'), hex, `message of ${len} bytes`);
  }
});

const sharesBand = (a: number[], b: number[]): boolean => a.some((k) => b.includes(k));

test('band parameters: 32 hash functions as 16 bands of 2 rows, recall ≥ 0.999 at the threshold', () => {
  assert.equal(MINHASH_FUNCTIONS, 32);
  assert.equal(BANDS * BAND_ROWS, MINHASH_FUNCTIONS);
  assert.ok(Math.abs(candidateProbability(0.5) - 0.98998) < 1e-5);
  assert.ok(Math.abs(candidateProbability(0.6) - 0.99921) < 1e-5);
  assert.ok(Math.abs(candidateProbability(0.7) - 0.99998) < 1e-5);
  assert.ok(candidateProbability(0.6) >= 0.999);
});

test('the keyed hashes behave like MinHash: a band agrees J² of the time, misses match theory', () => {
  const r = prng(1);
  let agree = 0;
  let misses = 0;
  const pairs = 3000;
  for (let i = 0; i < pairs; i++) {
    const hasher = hasherFromSeed(seedFrom(r));
    const [a, b] = pair(r, 20, 15); // J = 15 / 25 = 0.6
    const sa = sketch(hasher, 'user', a);
    const sb = sketch(hasher, 'user', b);
    if (!sharesBand(sa.keys, sb.keys)) misses++;
    // each band agrees when both its minima do: J² of the time
    agree += sa.keys.filter((k) => sb.keys.includes(k)).length;
  }
  const perBand = agree / pairs / BANDS;
  assert.ok(Math.abs(perBand - 0.36) < 0.02, `a band agrees ${perBand.toFixed(3)} of the time, expected J² = 0.36`);
  // expected 3000 × 7.9e-4 ≈ 2.4 misses; more than 12 would mean the hash family is off
  assert.ok(misses <= 12, `${misses} of ${pairs} pairs at J = 0.6 shared no band`);
});

test('recall: hundreds of pairs at Jaccard ≈ 0.65 always share a band (fixed hasher seed)', () => {
  const r = prng(65);
  const hasher = hasherFromSeed(seedFrom(r));
  for (let i = 0; i < 400; i++) {
    const size = 15 + Math.floor(r() * 30);
    const shared = Math.ceil((2 * size * 0.65) / 1.65); // J = shared / (2·size − shared) ≈ 0.65
    const [a, b] = pair(r, size, shared);
    assert.ok(similarity(a, b) >= 0.6);
    assert.ok(sharesBand(sketch(hasher, 'user', a).keys, sketch(hasher, 'user', b).keys), `pair ${i} (J = ${similarity(a, b).toFixed(3)}) shares no band`);
  }
});

test('keys depend on the seed and on the scope; the same text in another scope shares no key', () => {
  const words = wordSet('Release builds run on the self-hosted runner named orion every night at two');
  const one = hasherFromSeed(Buffer.alloc(16, 1));
  const two = hasherFromSeed(Buffer.alloc(16, 2));
  const user = sketch(one, 'user', words).keys;
  assert.deepEqual(sketch(one, 'user', words).keys, user, 'deterministic for one seed');
  assert.equal(user.length, BANDS);
  assert.ok(!sharesBand(user, sketch(two, 'user', words).keys), 'another installation hashes differently');
  assert.ok(!sharesBand(user, sketch(one, 'project:alpha', words).keys), 'scopes never share keys');
  assert.deepEqual(sketch(one, 'user', new Set()).keys, [], 'no words, no bands');
  assert.throws(() => hasherFromSeed(Buffer.alloc(8)));
});

test('word ids never understate shared words, so filtering on them cannot drop a match', () => {
  const r = prng(7);
  const hasher = hasherFromSeed(seedFrom(r));
  for (let i = 0; i < 200; i++) {
    const [a, b] = pair(r, 10 + Math.floor(r() * 20), Math.floor(r() * 10));
    const ia = wordIds(hasher, a);
    const ib = wordIds(hasher, b);
    let shared = 0;
    for (let x = 0, y = 0; x < ia.length && y < ib.length; ) {
      if (ia[x] === ib[y]) (shared++, x++, y++);
      else if (ia[x]! < ib[y]!) x++;
      else y++;
    }
    assert.equal(ia.length, a.size);
    assert.ok(shared >= [...a].filter((w) => b.has(w)).length);
  }
});

test('the word set is the one the score counts: case, width and punctuation fold away', () => {
  assert.deepEqual([...wordSet('Ｈｅｌｌｏ, WORLD! hello-world  café')], ['hello', 'world', 'café']);
  assert.equal(similarity(wordSet('The cache key is per tenant'), wordSet('the CACHE key, is per tenant.')), 1);
});
