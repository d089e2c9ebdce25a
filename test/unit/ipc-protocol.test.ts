import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { clientProof, HANDSHAKE_TIMEOUT_MS, IPC_PROTOCOL, newNonce, proofMatches, serverProof, versionMismatchMessage } from '../../main/ipc/protocol.js';

test('protocol 1, five second handshake', () => {
  assert.equal(IPC_PROTOCOL, 1);
  assert.equal(HANDSHAKE_TIMEOUT_MS, 5_000);
});

test('proofs depend on the key and both nonces, and differ by direction', () => {
  const key = randomBytes(32);
  const a = newNonce();
  const b = newNonce();
  assert.match(a, /^[0-9a-f]{64}$/);
  const proof = clientProof(key, a, b);
  assert.ok(proofMatches(proof, clientProof(key, a, b)));
  assert.ok(!proofMatches(proof, clientProof(randomBytes(32), a, b)), 'another key');
  assert.ok(!proofMatches(proof, clientProof(key, a, newNonce())), 'another nonce');
  // A squatter cannot reflect the client's own proof back as the server's.
  assert.ok(!proofMatches(serverProof(key, b, a), proof));
  assert.ok(!proofMatches(serverProof(key, a, b), proof));
});

test('malformed proofs never match', () => {
  const proof = clientProof(randomBytes(32), newNonce(), newNonce());
  for (const given of ['', 'zz', proof.slice(2), proof.toUpperCase(), `${proof}00`]) {
    assert.equal(proofMatches(proof, given), false, given);
  }
});

test('version mismatch messages say which side is older and what to do', () => {
  assert.equal(
    versionMismatchMessage(2, 1, '0.1.0'),
    'bridge protocol 2 but app speaks 1: the running app (Nuzo 0.1.0) is older than this bridge: update Nuzo / restart the app so the new version runs',
  );
  assert.match(versionMismatchMessage(1, 2), /^bridge protocol 1 but app speaks 2: this bridge is older than the running app: restart your MCP host/);
});
