import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { RULE_IDS, SECRET_RULES, githubChecksum } from '../../main/pipeline/secrets/rules.js';
import { redactText, scanFields, scanSecrets, type SecretFinding } from '../../main/pipeline/secrets/scanner.js';
import { buildSecretCorpus, seededRandom, type PositiveSample } from './secrets-corpus.js';

const corpus = buildSecretCorpus();

/** The part of a positive that must never be shown: everything after its documented prefix. */
function secretBody(sample: PositiveSample): string {
  return sample.text.slice(sample.start + sample.prefixLength, sample.end);
}

/** Every 8-character window of `secret` (or the whole of it when shorter). */
function windows(secret: string): string[] {
  if (secret.length <= 8) return [secret];
  return Array.from({ length: secret.length - 7 }, (_, i) => secret.slice(i, i + 8));
}

/** `allowed` is text that may be shown (a documented prefix); PEM footers repeat its words. */
function assertHidesSecret(shown: string, secret: string, where: string, allowed = ''): void {
  for (const w of windows(secret)) {
    if (allowed.includes(w)) continue;
    assert.ok(!shown.includes(w), `${where} shows secret characters ${JSON.stringify(w)}`);
  }
}

function describeFindings(findings: readonly SecretFinding[]): string {
  return JSON.stringify(findings.map((f) => ({ rule: f.rule, start: f.start, end: f.end })));
}

describe('secret rule table', () => {
  it('has at least 30 rules with unique ids', () => {
    assert.ok(SECRET_RULES.length >= 30, `only ${SECRET_RULES.length} rules`);
    assert.equal(new Set(RULE_IDS).size, RULE_IDS.length);
    for (const id of RULE_IDS) assert.match(id, /^[a-z0-9]+(?:-[a-z0-9]+)*$/);
  });

  it('keywords are lower-case (the prefilter matches lower-cased text)', () => {
    for (const rule of SECRET_RULES) for (const k of rule.keywords) assert.equal(k, k.toLowerCase(), `${rule.id}: ${k}`);
  });

  it('the corpus has a positive for every rule and at least 40 negatives', () => {
    const covered = new Set(corpus.positives.map((p) => p.rule));
    assert.deepEqual(RULE_IDS.filter((id) => !covered.has(id)), []);
    assert.ok(corpus.negatives.length >= 40, `only ${corpus.negatives.length} negatives`);
    assert.equal(new Set(corpus.positives.map((p) => p.id)).size, corpus.positives.length);
    assert.equal(new Set(corpus.negatives.map((n) => n.id)).size, corpus.negatives.length);
  });

  it('the corpus is reproducible from its seed', () => {
    assert.deepEqual(buildSecretCorpus(), corpus);
    assert.notDeepEqual(buildSecretCorpus(7).positives[0]?.text, corpus.positives[0]?.text);
  });

  it('GitHub/npm checksum matches the published vector (CRC32 of the 30-char body, base62)', () => {
    // Vector from therootcompany/base62-token.js; only the body and checksum, never a whole token.
    assert.equal(githubChecksum('zQWBuTSOoRi4A9spHcVY5ncnsDkxkJ'), '0mLq17');
    assert.equal(githubChecksum(''), '000000');
  });
});

describe('positives: every sample is found with the right rule and exact span', () => {
  for (const sample of corpus.positives) {
    it(`${sample.rule} / ${sample.id}`, () => {
      const findings = scanSecrets(sample.text);
      assert.equal(findings.length, 1, `expected one finding, got ${describeFindings(findings)}`);
      const [finding] = findings;
      assert.ok(finding !== undefined);
      assert.equal(finding.rule, sample.rule);
      assert.deepEqual([finding.start, finding.end], [sample.start, sample.end]);
    });
  }
});

describe('negatives: nothing is reported', () => {
  for (const sample of corpus.negatives) {
    it(`${sample.kind} / ${sample.id}`, () => {
      const findings = scanSecrets(sample.text);
      assert.deepEqual(
        findings.map((f) => ({ rule: f.rule, text: sample.text.slice(f.start, f.end) })),
        [],
      );
    });
  }
});

describe('previews', () => {
  it('show at most the known prefix, then the redacted length, and never secret characters', () => {
    for (const sample of corpus.positives) {
      const [finding] = scanSecrets(sample.text);
      assert.ok(finding !== undefined, sample.id);
      const prefix = sample.text.slice(sample.start, sample.start + sample.prefixLength);
      const hidden = sample.end - sample.start - sample.prefixLength;
      assert.equal(finding.preview, `${prefix}…[redacted ${hidden} chars]`, sample.id);
      assertHidesSecret(finding.preview, secretBody(sample), `preview of ${sample.id}`, prefix);
    }
  });

  it('shows the documented prefixes', () => {
    const byId = new Map(corpus.positives.map((p) => [p.id, p]));
    const preview = (id: string): string => {
      const sample = byId.get(id);
      assert.ok(sample !== undefined, id);
      return scanSecrets(sample.text)[0]?.preview ?? '';
    };
    assert.match(preview('github-pat-classic'), /^ghp_…\[redacted 36 chars\]$/);
    assert.match(preview('aws-key-id-credentials-file'), /^AKIA…\[redacted 16 chars\]$/);
    assert.match(preview('anthropic-api-key'), /^sk-ant-…\[redacted \d+ chars\]$/);
    assert.match(preview('pem-rsa'), /^-----BEGIN RSA PRIVATE KEY-----…\[redacted \d+ chars\]$/);
    assert.match(preview('postgres-url'), /^postgres:\/\/app:…\[redacted 20 chars\]$/);
    assert.match(preview('env-db-password'), /^…\[redacted 20 chars\]$/);
  });
});

describe('scanSecrets', () => {
  it('returns nothing for empty and short text', () => {
    assert.deepEqual(scanSecrets(''), []);
    assert.deepEqual(scanSecrets('short'), []);
  });

  it('finds every positive in one long document, sorted and non-overlapping, offsets intact', () => {
    const separator = '\n\n---\n\n';
    let text = '';
    const expected: Array<{ rule: string; start: number; end: number }> = [];
    for (const sample of corpus.positives) {
      const offset = text.length;
      expected.push({ rule: sample.rule, start: offset + sample.start, end: offset + sample.end });
      text += sample.text + separator;
    }
    const findings = scanSecrets(text);
    assert.deepEqual(findings.map((f) => ({ rule: f.rule, start: f.start, end: f.end })), expected);
    for (let i = 1; i < findings.length; i++) {
      const previous = findings[i - 1];
      const current = findings[i];
      assert.ok(previous !== undefined && current !== undefined && previous.end <= current.start);
    }
  });

  it('reports UTF-16 offsets as JS strings index them (emoji, CJK, characters that change length when lower-cased)', () => {
    const sample = corpus.positives.find((p) => p.id === 'stripe-live-secret');
    assert.ok(sample !== undefined);
    const secret = sample.text.slice(sample.start, sample.end);
    const lead = 'Notes 🧠📝 記憶 İİİ — ';
    const [finding] = scanSecrets(lead + sample.text);
    assert.ok(finding !== undefined);
    assert.equal((lead + sample.text).slice(finding.start, finding.end), secret);
    assert.equal(finding.start, lead.length + sample.start);
  });

  it('merges overlapping matches under the most specific rule', () => {
    const gh = corpus.positives.find((p) => p.id === 'github-pat-classic');
    assert.ok(gh !== undefined);
    const token = gh.text.slice(gh.start, gh.end);
    // The generic assignment and the GitHub rule both match the value; the format wins.
    const findings = scanSecrets(`GITHUB_TOKEN=${token}\n`);
    assert.deepEqual(findings.map((f) => [f.rule, f.start, f.end]), [['github-token', 13, 13 + token.length]]);
    // A token used as a URL password: one finding covering both spans, named by the format.
    const url = scanSecrets(`git clone https://oauth2:${token}@github.com/acme/app.git`);
    assert.equal(url.length, 1);
    assert.equal(url[0]?.rule, 'github-token');
    assert.equal(url[0]?.preview, `https://oauth2:…[redacted ${token.length} chars]`);
  });

  it('rejects a GitHub-shaped token whose checksum does not match', () => {
    const gh = corpus.positives.find((p) => p.id === 'github-pat-classic');
    assert.ok(gh !== undefined);
    const token = gh.text.slice(gh.start, gh.end);
    const last = token.charAt(token.length - 1);
    const tampered = token.slice(0, -1) + (last === 'a' ? 'b' : 'a');
    assert.deepEqual(scanSecrets(`token ${tampered} here`), []);
  });

  it('finishes adversarial 16 KB inputs quickly (generous sanity bound, not a benchmark)', () => {
    const random = seededRandom(99);
    const size = 16_384;
    const fill = (unit: string): string => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
    const b64 = Array.from({ length: size }, () => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.charAt(Math.floor(random() * 64))).join('');
    const inputs: Record<string, string> = {
      'one letter': fill('a'),
      'password= chain': fill('password='),
      'open quotes': fill('password="'),
      'api_key= secret: token= chain': fill('api_key=secret:token='),
      'PEM headers without footer': fill('-----BEGIN RSA PRIVATE KEY-----\n'),
      'PEM body without footer': `-----BEGIN PRIVATE KEY-----\n${fill('QUFB\n').slice(28)}`,
      'scheme chain': fill('a://'),
      'connection-string prefixes': fill('postgres://a:'),
      'user-info without host': `https://${fill('a:')}`,
      'JWT-like prefixes': fill('eyJhbGciOi.'),
      'JWT header run': `eyJ${fill('A')}.`,
      'slack prefixes': fill('xoxb-1234567890-'),
      'sk- dashes': `sk-${fill('a-')}`,
      'telegram-ish': fill('1234567:AA'),
      'discord-ish': fill(`M${'A'.repeat(25)}.`),
      'random base64': b64,
      'bearer headers': fill('Authorization: Bearer '),
      'basic headers': fill('Authorization: Basic QUFB'),
      'dots': fill('.'),
      'whitespace': fill(' \n\t'),
      'every prefix': fill('ghp_ sk_live_ AKIA xoxb- glpat- eyJ -----BEGIN :// password= ?sig= Q~ -us NRAL .atlasv1. '),
      'hex': fill('0123456789abcdef'),
      'AccountKey= chain': fill('AccountKey='),
    };
    for (const [name, input] of Object.entries(inputs)) {
      const started = performance.now();
      scanSecrets(input);
      redactText(input);
      const elapsed = performance.now() - started;
      assert.ok(elapsed < 500, `${name}: ${elapsed.toFixed(1)} ms`);
    }
  });
});

describe('redactText', () => {
  it('replaces every finding with [redacted:<rule>] and leaves the rest', () => {
    for (const sample of corpus.positives) {
      const redacted = redactText(sample.text);
      assert.equal(
        redacted,
        `${sample.text.slice(0, sample.start)}[redacted:${sample.rule}]${sample.text.slice(sample.end)}`,
        sample.id,
      );
      const prefix = sample.text.slice(sample.start, sample.start + sample.prefixLength);
      assertHidesSecret(redacted, secretBody(sample), `redacted ${sample.id}`, `${prefix}${sample.text.slice(0, sample.start)}${sample.text.slice(sample.end)}`);
    }
  });

  it('returns text without findings unchanged', () => {
    for (const sample of corpus.negatives) assert.equal(redactText(sample.text), sample.text, sample.id);
  });
});

describe('scanFields', () => {
  const secretOf = (id: string): string => {
    const sample = corpus.positives.find((p) => p.id === id);
    assert.ok(sample !== undefined, id);
    return sample.text.slice(sample.start, sample.end);
  };

  it('names content, tags and provenance paths', () => {
    const gh = secretOf('github-pat-classic');
    const stripe = secretOf('stripe-live-secret');
    const slack = secretOf('slack-bot-token');
    const anthropic = secretOf('anthropic-api-key');
    const random = seededRandom(7);
    const password = Array.from({ length: 16 }, () => 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789'.charAt(Math.floor(random() * 57))).join('');
    const findings = scanFields({
      content: `Deploy with ${gh} then restart.`,
      tags: ['ops', `billing ${stripe}`, 'notes'],
      provenance: {
        tool: 'Bash',
        source_url: `https://ci:${password}@ci.acme.dev/job/42`,
        files: ['README.md', `.env: SLACK_BOT_TOKEN=${slack}`],
        'odd key': [{ note: `key ${anthropic}` }],
        [`${gh}`]: 'a secret used as an object key',
        count: 3,
        ok: true,
        nothing: null,
      },
    });
    assert.deepEqual(
      findings.map((f) => [f.field, f.rule]),
      [
        ['content', 'github-token'],
        ['tags[1]', 'stripe-secret-key'],
        ['provenance.source_url', 'url-with-password'],
        ['provenance.files[1]', 'slack-bot-token'],
        ['provenance["odd key"][0].note', 'anthropic-api-key'],
        ['provenance[key 4]', 'github-token'],
      ],
    );
    const content = findings[0];
    assert.ok(content !== undefined);
    assert.equal(`Deploy with ${gh} then restart.`.slice(content.start, content.end), gh);
    for (const f of findings) {
      for (const secret of [gh, stripe, slack, anthropic, password]) assertHidesSecret(f.field + f.preview, secret.slice(8), f.field);
    }
  });

  it('accepts a plain-string provenance, no tags, cycles and very deep nesting', () => {
    const npmrc = secretOf('npm-token-npmrc');
    assert.deepEqual(
      scanFields({ content: 'nothing here', provenance: `copied from .npmrc ${npmrc}` }).map((f) => f.field),
      ['provenance'],
    );
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic['self'] = cyclic;
    cyclic['list'] = [cyclic, { token: npmrc }];
    assert.deepEqual(scanFields({ content: 'x', provenance: cyclic }).map((f) => f.field), ['provenance.list[1].token']);
    let deep: unknown = `npm config set //registry.npmjs.org/:_authToken=${npmrc}`;
    for (let i = 0; i < 20_000; i++) deep = [deep];
    const found = scanFields({ content: 'x', provenance: deep });
    assert.equal(found.length, 1);
    assert.ok(found[0]?.field.startsWith('provenance[0][0]'));
    assert.deepEqual(scanFields({ content: 'plain text about tokens and passwords' }), []);
  });
});
