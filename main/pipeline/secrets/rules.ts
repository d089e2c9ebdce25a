/**
 * The secret rule table of the write pipeline (DESIGN §4 stage 3, §10 `nuzo scan`).
 *
 * Every rule is compiled once at module load and exposes one synchronous `find`. Rules are written
 * so that the regex engine never backtracks more than a bounded distance per start position:
 * quantifiers are bounded, adjacent repeated classes are disjoint, and most patterns start with a
 * literal or a lookbehind boundary. Validation (entropy floors, checksums, placeholder rejection)
 * runs only on candidate matches, so its cost does not depend on the size of ordinary prose.
 *
 * A rule's span is the part of the text that must not be stored or shown. `prefixLength` is how
 * much of the start of that span is a documented, non-secret marker (`ghp_`, a PEM header, a URL's
 * scheme and user) that a redacted preview may show.
 */

export interface RuleMatch {
  start: number;
  end: number;
  prefixLength: number;
}

export interface SecretRule {
  readonly id: string;
  readonly description: string;
  /**
   * Lower-case literals; the scanner runs the rule only when one of them occurs in the text
   * (case-insensitively). Empty means the format has no literal anchor and the rule always runs.
   */
  readonly keywords: readonly string[];
  /** Decides which rule names a merged finding when spans overlap: higher is more specific. */
  readonly specificity: number;
  find(text: string): RuleMatch[];
}

/** Specificity levels. A format with a fixed, documented shape beats a guess from context. */
const GENERIC = 10;
const URL_CREDENTIALS = 20;
const CONTEXTUAL = 25;
const CONNECTION = 30;
const FORMAT = 40;
/** A format nested inside another (a service-account key is also a PEM block; a DSN is a URL). */
const REFINED = 50;

// ---------------------------------------------------------------------------------------------
// Validators

const asciiCounts = new Uint32Array(128);

/** Shannon entropy in bits per character (allocation-free for ASCII, which tokens are). */
export function shannonEntropy(value: string): number {
  const length = value.length;
  if (length === 0) return 0;
  let other: Map<number, number> | null = null;
  for (let i = 0; i < length; i++) {
    const code = value.charCodeAt(i);
    if (code < 128) asciiCounts[code] = (asciiCounts[code] ?? 0) + 1;
    else (other ??= new Map()).set(code, (other.get(code) ?? 0) + 1);
  }
  let bits = 0;
  const add = (count: number): void => {
    const p = count / length;
    bits -= p * Math.log2(p);
  };
  for (let i = 0; i < length; i++) {
    const code = value.charCodeAt(i);
    const count = code < 128 ? (asciiCounts[code] ?? 0) : 0;
    if (count > 0) {
      add(count);
      asciiCounts[code] = 0;
    }
  }
  if (other !== null) for (const count of other.values()) add(count);
  return bits;
}

function characterClasses(value: string): number {
  let classes = 0;
  if (/[a-z]/.test(value)) classes++;
  if (/[A-Z]/.test(value)) classes++;
  if (/[0-9]/.test(value)) classes++;
  if (/[^A-Za-z0-9]/.test(value)) classes++;
  return classes;
}

/**
 * Markers of documentation examples and templates. Checked on the part of a match after its known
 * prefix, so a real token's random body almost never trips it (a 4-letter word in 36 random
 * base62 characters: about one in a million).
 */
const PLACEHOLDER =
  /example|xxxx|your|placeholder|dummy|sample|redacted|changeme|change_me|insert|replace|fake|<|>|\$\{|\{\{|\.\.\.|…|\*\*\*|0123456|123456789|abcdefgh/i;

/** Six identical characters in a row (`aaaaaa`, `000000`): filler, not randomness. */
function hasLongRun(value: string): boolean {
  let run = 1;
  for (let i = 1; i < value.length; i++) {
    run = value.charCodeAt(i) === value.charCodeAt(i - 1) ? run + 1 : 1;
    if (run >= 6) return true;
  }
  return false;
}

export function looksLikePlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value) || hasLongRun(value);
}

/** Body entropy floor shared by prefixed token formats: rejects `ghp_aaaa…`-style filler. */
function randomLooking(body: string, floor = 3.0): boolean {
  return shannonEntropy(body) >= floor && !looksLikePlaceholder(body);
}

const CRC32_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(ascii: string): number {
  let crc = 0xffffffff;
  for (let i = 0; i < ascii.length; i++) {
    crc = (crc >>> 8) ^ (CRC32_TABLE[(crc ^ ascii.charCodeAt(i)) & 0xff] ?? 0);
  }
  return (crc ^ 0xffffffff) >>> 0;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * The checksum GitHub (2021 token format) and npm append to their tokens: CRC32 of the 30 random
 * characters, base62 (digits, upper, lower), big-endian, left-padded with `0` to 6 characters.
 */
export function githubChecksum(body30: string): string {
  let n = crc32(body30);
  let out = '';
  while (n > 0) {
    out = BASE62.charAt(n % 62) + out;
    n = Math.floor(n / 62);
  }
  return out.padStart(6, '0');
}

function hasGithubChecksum(body36: string): boolean {
  return body36.length === 36 && githubChecksum(body36.slice(0, 30)) === body36.slice(30);
}

const BECH32_ALPHABET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const BECH32_GENERATOR = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];

/** BIP-173 bech32 checksum; age secret keys are bech32 with the prefix `age-secret-key-`. */
function bech32Valid(value: string): boolean {
  const lower = value.toLowerCase();
  const separator = lower.lastIndexOf('1');
  if (separator < 1) return false;
  const hrp = lower.slice(0, separator);
  const values: number[] = [];
  for (let i = 0; i < hrp.length; i++) values.push(hrp.charCodeAt(i) >> 5);
  values.push(0);
  for (let i = 0; i < hrp.length; i++) values.push(hrp.charCodeAt(i) & 31);
  for (const ch of lower.slice(separator + 1)) {
    const v = BECH32_ALPHABET.indexOf(ch);
    if (v < 0) return false;
    values.push(v);
  }
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= BECH32_GENERATOR[i] ?? 0;
  }
  return chk === 1;
}

function decodeBase64Url(value: string): string | null {
  if (!/^[A-Za-z0-9_\-+/]*={0,2}$/.test(value)) return null;
  try {
    return Buffer.from(value, 'base64url').toString('utf8');
  } catch {
    return null;
  }
}

function parseJsonObject(value: string | null): Record<string, unknown> | null {
  if (value === null) return null;
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** jwt.io's sample token (John Doe, sub 1234567890) is in countless tutorials. */
function isJwtIoSample(payload: Record<string, unknown> | null): boolean {
  return payload !== null && payload['sub'] === '1234567890' && payload['name'] === 'John Doe';
}

/** Passwords that documentation puts in URLs and config to show the shape, not a credential. */
const DOC_PASSWORDS = new Set([
  'password', 'passwd', 'pass', 'pwd', 'pw', 'secret', 'changeme', 'change_me', 'mypassword',
  'my_password', 'yourpassword', 'your_password', 'yourpass', 'mypass', 'userpassword',
  'dbpassword', 'db_password', 'pa55word', 'p@ssword', 'p@ssw0rd', 'passw0rd', 'password1',
  'password123', 'secret123', 'token', 'apikey', 'api_key', 'foobared', 'hunter2', 'test',
  'testing', 'example', 'sample', 'dummy', 'placeholder', 'redacted', 'letmein', 'qwerty',
  'x-oauth-basic', 'null', 'none', 'undefined',
]);

/** Templating and environment expansion: `${X}`, `{{x}}`, `$X`, `%(x)s`, `<x>`, `[x]`, `:x`. */
const TEMPLATE_START = /^(?:\$|\{|%|<|\[|:)/;
const MASK = /^[*xX.•#_-]+$/;

function isDocPassword(password: string, user: string): boolean {
  let decoded = password;
  try {
    decoded = decodeURIComponent(password);
  } catch {
    // a stray `%` is not an encoding; judge the raw text
  }
  const lower = decoded.toLowerCase();
  if (decoded.length < 3) return true;
  if (lower === user.toLowerCase()) return true;
  if (DOC_PASSWORDS.has(lower)) return true;
  if (MASK.test(decoded) || TEMPLATE_START.test(decoded)) return true;
  return looksLikePlaceholder(decoded);
}

/**
 * Extra words that mark a value assigned to a secret-named key as a sample rather than a
 * credential. Only for the context-guessing rules: provider formats never see this list.
 */
const SAMPLE_WORDS = /password|passwd|secret|token|apikey|api_key|test|demo|hunter2|letmein|qwerty|foobar|lorem|todo|fixme|none|null|undefined/i;
const CODE_REFERENCE =
  /^(?:process\.env|import\.meta|os\.environ|os\.getenv|env\.|ENV\[|System\.getenv|config\.|settings\.|secrets\.|vars\.|self\.|this\.)|\(|\)|\$\{|\{\{|^[$%@&*{<[]/;
const DOTTED_IDENTIFIER = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;
const BARE_IDENTIFIER = /^[A-Za-z_$][A-Za-z_$]*$/;
const SCREAMING_SNAKE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;
const PATH_LIKE = /^(?:[A-Za-z]:\\|\\\\|(?:~|\.{1,2})?(?:\/[\w.@+-]+){2,}\/?$)/;
const URL_LIKE = /^[A-Za-z][A-Za-z0-9+.-]{1,30}:\/\//;
const LITERALS = /^(?:true|false|yes|no|on|off|null|nil|none|undefined|required|optional|string|str|bytes|secret)$/i;

/**
 * Whether a value assigned to a secret-named key is plausibly a real credential: long enough, not
 * a template, code reference, path or URL, and with the character mix and entropy of something
 * generated or chosen as a password. Short weak passwords (`hunter2`, `changeme`) are left alone
 * on purpose: they are indistinguishable from documentation.
 */
function plausibleAssignedSecret(value: string, quoted: boolean): boolean {
  if (value.length < 8 || value.length > 1024) return false;
  if (/\s/.test(value)) return false;
  if (CODE_REFERENCE.test(value) || MASK.test(value) || LITERALS.test(value)) return false;
  if (looksLikePlaceholder(value) || SAMPLE_WORDS.test(value)) return false;
  if (PATH_LIKE.test(value) || URL_LIKE.test(value)) return false;
  if (!quoted && (DOTTED_IDENTIFIER.test(value) || BARE_IDENTIFIER.test(value) || SCREAMING_SNAKE.test(value))) {
    return false;
  }
  if (/^\d+(?:\.\d+)?$/.test(value)) return false;
  // Filler that repeats its own opening (`abcabcabc…`) has entropy but was never generated.
  if (value.length >= 12 && value.indexOf(value.slice(0, 6), 1) >= 0) return false;
  if (characterClasses(value) < 2) return false;
  const floor = Math.min(3.0, Math.log2(value.length) - 0.45);
  return shannonEntropy(value) >= floor;
}

// ---------------------------------------------------------------------------------------------
// Rule builders

/** Named groups that mark the secret span inside a larger match, first defined wins. */
const SPAN_GROUPS = ['secret', 'secret2', 'secret3', 'secret4'] as const;

interface RegexRuleSpec {
  id: string;
  description: string;
  keywords: readonly string[];
  specificity?: number;
  pattern: RegExp;
  /** Non-secret marker at the start of the span: a fixed length, a regex anchored at the span start, or a function. */
  prefix?: number | RegExp | ((span: string) => number);
  validate?: (span: string, match: RegExpExecArray, text: string) => boolean;
  /** Shortens a span whose end the regex cannot know (a query-string value ends at `&`). */
  spanLength?: (span: string, match: RegExpExecArray, text: string) => number;
  /**
   * For a format whose literal sits after a fixed-length random part (`<32 hex>-us12`): find the
   * literal with indexOf and try the pattern only at `lead` characters before it. A regex that
   * starts with a character class would otherwise be tried at every position of the text.
   */
  anchor?: Anchor;
  /** More shapes reported under the same id (each with its own pattern and optional anchor). */
  also?: ReadonlyArray<{ pattern: RegExp; anchor?: Anchor }>;
}

interface Anchor {
  literal: string;
  lead: number;
}

function prefixLengthOf(prefix: RegexRuleSpec['prefix'], span: string): number {
  if (prefix === undefined) return 0;
  if (typeof prefix === 'number') return Math.min(prefix, span.length);
  if (typeof prefix === 'function') return Math.max(0, Math.min(prefix(span), span.length));
  const m = prefix.exec(span);
  return m !== null && m.index === 0 ? m[0].length : 0;
}

interface CompiledShape {
  re: RegExp;
  anchor: Anchor | undefined;
  spanned: boolean;
}

function compileShape(pattern: RegExp, anchor: Anchor | undefined): CompiledShape {
  const flags = new Set(pattern.flags.split(''));
  flags.add(anchor === undefined ? 'g' : 'y');
  const spanned = pattern.source.includes('(?<secret');
  if (spanned) flags.add('d');
  return { re: new RegExp(pattern.source, [...flags].join('')), anchor, spanned };
}

function regexRule(spec: RegexRuleSpec): SecretRule {
  const shapes = [compileShape(spec.pattern, spec.anchor), ...(spec.also ?? []).map((s) => compileShape(s.pattern, s.anchor))];

  const accept = (shape: CompiledShape, m: RegExpExecArray, text: string, out: RuleMatch[]): boolean => {
    let start = m.index;
    let end = m.index + m[0].length;
    if (shape.spanned) {
      const groups = m.indices?.groups;
      for (const name of SPAN_GROUPS) {
        const range = groups?.[name];
        if (range !== undefined) {
          [start, end] = range;
          break;
        }
      }
    }
    if (spec.spanLength !== undefined) {
      end = start + Math.max(0, Math.min(end - start, spec.spanLength(text.slice(start, end), m, text)));
    }
    const span = text.slice(start, end);
    if (span.length === 0 || (spec.validate !== undefined && !spec.validate(span, m, text))) return false;
    out.push({ start, end, prefixLength: prefixLengthOf(spec.prefix, span) });
    return true;
  };

  return {
    id: spec.id,
    description: spec.description,
    keywords: spec.keywords,
    specificity: spec.specificity ?? FORMAT,
    find(text: string): RuleMatch[] {
      const out: RuleMatch[] = [];
      for (const shape of shapes) {
        const { re, anchor } = shape;
        if (anchor !== undefined) {
          for (let at = text.indexOf(anchor.literal); at >= 0; at = text.indexOf(anchor.literal, at + 1)) {
            if (at < anchor.lead) continue;
            re.lastIndex = at - anchor.lead;
            const m = re.exec(text);
            if (m !== null) accept(shape, m, text, out);
          }
          continue;
        }
        re.lastIndex = 0;
        for (let m = re.exec(text); m !== null; m = re.exec(text)) {
          // A rejected candidate may hide a real one that starts inside it.
          if (!accept(shape, m, text, out)) re.lastIndex = m.index + 1;
        }
      }
      return out;
    },
  };
}

/** Prefixed token: `<prefix><body>` where the body must look random and not like a placeholder. */
function tokenRule(spec: {
  id: string;
  description: string;
  keywords: readonly string[];
  pattern: RegExp;
  prefix: RegExp | number;
  entropy?: number;
  check?: (span: string) => boolean;
  anchor?: Anchor;
  also?: RegexRuleSpec['also'];
}): SecretRule {
  return regexRule({
    id: spec.id,
    description: spec.description,
    keywords: spec.keywords,
    pattern: spec.pattern,
    prefix: spec.prefix,
    ...(spec.anchor === undefined ? {} : { anchor: spec.anchor }),
    ...(spec.also === undefined ? {} : { also: spec.also }),
    validate: (span) => {
      const body = span.slice(prefixLengthOf(spec.prefix, span));
      if (!randomLooking(body, spec.entropy ?? 3.0)) return false;
      return spec.check === undefined || spec.check(span);
    },
  });
}

// Left and right boundaries for token-shaped matches (a token never starts or ends mid-word).
const L = String.raw`(?<![A-Za-z0-9_\-])`;
const R = String.raw`(?![A-Za-z0-9_\-])`;
const re = (source: string, flags = ''): RegExp => new RegExp(source, flags);

// --- Private keys (PEM), found by header and bounded by the matching footer --------------------

const PEM_HEADER = /-----BEGIN ((?:[A-Z0-9]{2,12} ){0,3})PRIVATE KEY( BLOCK)?-----/g;
/** Continuation lines of a PEM body when the footer is missing (a key pasted truncated). */
const PEM_BODY_LINES =
  /(?:(?:[ \t]*(?:\r?\n|\\r\\n|\\n))+[ \t]*(?:[A-Za-z0-9+/=]{1,4096}|(?:Proc-Type|DEK-Info|Comment|Version|Hash|Charset): [^\r\n\\]{0,200})(?=[ \t]*(?:\r?\n|\\[rn]|["',]|$)))*/y;
const MAX_PEM_BODY = 65_536;

interface PemBlock {
  start: number;
  end: number;
  headerLength: number;
}

function privateKeyBlocks(text: string): PemBlock[] {
  const blocks: PemBlock[] = [];
  // The first footer at or after a position, per label; a miss stays a miss for later headers.
  const footers = new Map<string, number>();
  PEM_HEADER.lastIndex = 0;
  for (let m = PEM_HEADER.exec(text); m !== null; m = PEM_HEADER.exec(text)) {
    const headerEnd = m.index + m[0].length;
    const footer = `-----END ${m[1] ?? ''}PRIVATE KEY${m[2] ?? ''}-----`;
    let footerAt = footers.get(footer);
    if (footerAt === undefined || (footerAt >= 0 && footerAt < headerEnd)) {
      footerAt = text.indexOf(footer, headerEnd);
      footers.set(footer, footerAt);
    }
    let bodyEnd: number;
    let end: number;
    if (footerAt >= 0 && footerAt - headerEnd <= MAX_PEM_BODY) {
      bodyEnd = footerAt;
      end = footerAt + footer.length;
    } else {
      PEM_BODY_LINES.lastIndex = headerEnd;
      const lines = PEM_BODY_LINES.exec(text);
      bodyEnd = headerEnd + (lines === null ? 0 : lines[0].length);
      end = bodyEnd;
    }
    const body = text.slice(headerEnd, bodyEnd);
    const base64Chars = body.replace(/\\[rnt]|[^A-Za-z0-9+/=]/g, '').length;
    if (base64Chars >= 40 && !/\.\.\.|…|<|>|xxxx|XXXX|YOUR|your |EXAMPLE/.test(body)) {
      blocks.push({ start: m.index, end, headerLength: m[0].length });
      PEM_HEADER.lastIndex = Math.max(end, PEM_HEADER.lastIndex);
    }
  }
  return blocks;
}

const privateKeyPem: SecretRule = {
  id: 'private-key-pem',
  description: 'Private key in PEM armour (RSA, EC, DSA, OPENSSH, ENCRYPTED, PGP, PKCS#8), raw or JSON-escaped',
  keywords: ['-----begin'],
  specificity: FORMAT,
  find: (text) => privateKeyBlocks(text).map((b) => ({ start: b.start, end: b.end, prefixLength: b.headerLength })),
};

const SERVICE_ACCOUNT_FIELD = /"private_key"\s{0,4}:\s{0,4}"$/;

const gcpServiceAccountKey: SecretRule = {
  id: 'gcp-service-account-key',
  description: 'Google Cloud service-account JSON `private_key`',
  keywords: ['private_key'],
  specificity: REFINED,
  find: (text) =>
    privateKeyBlocks(text)
      .filter((b) => SERVICE_ACCOUNT_FIELD.test(text.slice(Math.max(0, b.start - 32), b.start)))
      .map((b) => ({ start: b.start, end: b.end, prefixLength: b.headerLength })),
};

// --- Credentials in URLs -------------------------------------------------------------------------

const CONNECTION_SCHEMES = new Set([
  'postgres', 'postgresql', 'mysql', 'mariadb', 'mongodb', 'mongodb+srv', 'redis', 'rediss', 'amqp',
  'amqps', 'mssql', 'sqlserver', 'oracle', 'cockroachdb', 'clickhouse', 'couchdb', 'neo4j', 'neo4j+s',
  'bolt', 'nats', 'kafka', 'memcached', 'cassandra', 'influxdb', 'elasticsearch', 'ldap', 'ldaps',
  'smtp', 'smtps', 'imap', 'imaps', 'pop3', 'mqtt', 'mqtts', 'snowflake', 'db2', 'rabbitmq',
]);
const SCHEME_CHAR = /[A-Za-z0-9+.-]/;
/**
 * user:password@ ends at the last `@` before the host (as URL parsers split it), so a password
 * with an unencoded `@` is covered whole. Both parts stop at `/`, `?`, `#`, quotes and whitespace.
 */
const URL_USERINFO = /([^\s:/?#'"<>`]{0,128}):([^\s/?#'"<>`]{1,256})@/y;

interface UrlCredential {
  start: number;
  end: number;
  prefixLength: number;
  scheme: string;
}

/** `scheme://user:password@` candidates, found from each `://` (cheaper than a regex that starts anywhere). */
function urlCredentials(text: string): UrlCredential[] {
  const out: UrlCredential[] = [];
  for (let at = text.indexOf('://'); at >= 0; at = text.indexOf('://', at + 3)) {
    let start = at;
    while (start > 0 && at - start < 32 && SCHEME_CHAR.test(text.charAt(start - 1))) start--;
    while (start < at && !/[A-Za-z]/.test(text.charAt(start))) start++;
    if (start === at) continue;
    URL_USERINFO.lastIndex = at + 3;
    const m = URL_USERINFO.exec(text);
    if (m === null) continue;
    const user = m[1] ?? '';
    const password = m[2] ?? '';
    if (isDocPassword(password, user) || user.toLowerCase() === 'anonymous') continue;
    const passwordStart = at + 3 + user.length + 1;
    out.push({
      start,
      end: passwordStart + password.length,
      prefixLength: passwordStart - start,
      scheme: text.slice(start, at).toLowerCase(),
    });
  }
  return out;
}

const connectionStringPassword: SecretRule = {
  id: 'connection-string-password',
  description: 'Password in a database or broker connection string (postgres://, mongodb+srv://, redis://, amqp://, …)',
  keywords: ['://'],
  specificity: CONNECTION,
  find: (text) =>
    urlCredentials(text)
      .filter((c) => CONNECTION_SCHEMES.has(c.scheme) || c.scheme.startsWith('jdbc:'))
      .map(({ start, end, prefixLength }) => ({ start, end, prefixLength })),
};

const urlWithPassword: SecretRule = {
  id: 'url-with-password',
  description: 'Password in the user-info part of any other URL (https://user:pass@host)',
  keywords: ['://'],
  specificity: URL_CREDENTIALS,
  find: (text) =>
    urlCredentials(text)
      .filter((c) => !CONNECTION_SCHEMES.has(c.scheme) && !c.scheme.startsWith('jdbc:'))
      .map(({ start, end, prefixLength }) => ({ start, end, prefixLength })),
};

// --- Generic assignments -------------------------------------------------------------------------

/**
 * A secret-named key (the secret word must be the key's last component: `DB_PASSWORD`,
 * `apiKey`, `client_secret`, but not `token_count` or `password_hash`), an assignment operator,
 * and a value. The value's span is the finding; the key stays readable in redacted logs.
 */
const GENERIC_ASSIGNMENT = re(
  String.raw`(?:passphrase|password|passwd|pass|pwd|secret|token|credentials?|(?:api|access|secret|private|auth|signing|encryption|master|session|app|account)[_.\-]?key|apikey)` +
    String.raw`["']?[ \t]{0,3}(?::=|=>|=|:)[ \t]{0,3}` +
    String.raw`(?:"(?<secret>[^"\r\n]{1,1024})"|'(?<secret2>[^'\r\n]{1,1024})'|\x60(?<secret3>[^\x60\r\n]{1,1024})\x60|(?<secret4>[^\s"'\x60,;]{1,1024}))`,
  'i',
);
const NON_SECRET_TOKEN_KEYS = /(?:page|next|prev|previous|continuation|pagination|sync|cursor|resume|csrf|xsrf)[_.\-]?token$/i;

const isAlnum = (code: number): boolean => (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
const isLowerOrDigit = (code: number): boolean => (code >= 48 && code <= 57) || (code >= 97 && code <= 122);
const isUpper = (code: number): boolean => code >= 65 && code <= 90;
/** Characters of a key identifier: letters, digits, `_`, `.`, `-`. */
const isKeyChar = (code: number): boolean => isAlnum(code) || code === 95 || code === 46 || code === 45;

function keyBoundaryOk(text: string, keyStart: number): boolean {
  if (keyStart === 0) return true;
  const before = text.charCodeAt(keyStart - 1);
  if (!isAlnum(before)) return true;
  // camelCase (`dbPassword`, `githubToken`) starts a new word; `compass`, `bypass` do not.
  return isLowerOrDigit(before) && isUpper(text.charCodeAt(keyStart));
}

function keyIdentifierStart(text: string, keyStart: number): number {
  let start = keyStart;
  while (start > 0 && keyStart - start < 64 && isKeyChar(text.charCodeAt(start - 1))) start--;
  return start;
}

/** `?access_token=…&fields=…`: in a query string an unquoted value ends at the next parameter. */
function inQueryString(text: string, keyStart: number): boolean {
  const before = text.charAt(keyIdentifierStart(text, keyStart) - 1);
  return before === '?' || before === '&';
}

const genericAssignment = regexRule({
  id: 'generic-high-entropy-assignment',
  description: 'High-entropy value assigned to a secret-named key (password=, secret:, api_key = "…", TOKEN= in .env)',
  keywords: ['pass', 'pwd', 'secret', 'token', 'credential', 'key'],
  specificity: GENERIC,
  pattern: GENERIC_ASSIGNMENT,
  spanLength: (span, m, text) => {
    if (m.groups?.['secret4'] === undefined || !inQueryString(text, m.index)) return span.length;
    const cut = span.search(/[&#]/);
    return cut < 0 ? span.length : cut;
  },
  validate: (span, m, text) => {
    if (!keyBoundaryOk(text, m.index)) return false;
    // `https://x-access-token:…@host` is URL user-info, judged by the URL rules.
    if (text.slice(Math.max(0, keyIdentifierStart(text, m.index) - 3), keyIdentifierStart(text, m.index)) === '://') return false;
    const keyEnd = m.index + (/^[A-Za-z_.\-]+/.exec(m[0])?.[0].length ?? 0);
    if (NON_SECRET_TOKEN_KEYS.test(text.slice(keyIdentifierStart(text, m.index), keyEnd))) return false;
    // `api_key=apikey123`, `AccountKey=AccountKey…`: a value that repeats its key is a sample.
    const keyWord = m[0].slice(0, keyEnd - m.index).toLowerCase().replace(/[_.\-]/g, '');
    if (span.toLowerCase().replace(/[_.\-]/g, '').includes(keyWord)) return false;
    const quoted = m.groups?.['secret4'] === undefined;
    return plausibleAssignedSecret(span, quoted);
  },
});

// --- The table -----------------------------------------------------------------------------------

export const SECRET_RULES: readonly SecretRule[] = [
  // Cloud providers
  tokenRule({
    id: 'aws-access-key-id',
    description: 'AWS access key id (AKIA…, ASIA…)',
    keywords: ['akia', 'asia', 'abia', 'acca', 'a3t'],
    pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z2-7]{16}(?![A-Za-z0-9])/,
    prefix: 4,
    entropy: 2.5,
  }),
  regexRule({
    id: 'aws-secret-access-key',
    description: 'AWS secret access key assigned to an aws_secret_access_key-style name',
    keywords: ['secret'],
    pattern: re(
      String.raw`(?:aws[_.\-]?secret(?:[_.\-]?access)?[_.\-]?key|secret[_.\-]?access[_.\-]?key)["']?[ \t]{0,3}(?::=|=>|=|:)[ \t]{0,3}["']?(?<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])`,
      'i',
    ),
    validate: (span) => randomLooking(span, 3.5),
  }),
  gcpServiceAccountKey,
  tokenRule({
    id: 'gcp-api-key',
    description: 'Google API key (AIza…)',
    keywords: ['aiza'],
    pattern: re(`${L}AIza[A-Za-z0-9_\\-]{35}${R}`),
    prefix: 4,
  }),
  tokenRule({
    id: 'google-oauth-client-secret',
    description: 'Google OAuth client secret (GOCSPX-…)',
    keywords: ['gocspx-'],
    pattern: re(`${L}GOCSPX-[A-Za-z0-9_\\-]{28}${R}`),
    prefix: 7,
  }),
  tokenRule({
    id: 'google-oauth-access-token',
    description: 'Google OAuth access token (ya29.…)',
    keywords: ['ya29.'],
    pattern: re(`${L}ya29\\.[A-Za-z0-9_\\-]{30,2048}${R}`),
    prefix: 5,
  }),
  regexRule({
    id: 'azure-connection-string-key',
    description: 'Azure storage AccountKey / Service Bus SharedAccessKey in a connection string',
    keywords: ['accountkey', 'sharedaccesskey'],
    pattern: /(?:AccountKey|SharedAccessKey)[ \t]{0,3}=[ \t]{0,3}(?<secret>[A-Za-z0-9+/]{40,100}={0,2})(?![A-Za-z0-9+/=])/i,
    validate: (span) => randomLooking(span, 4.0),
  }),
  regexRule({
    id: 'azure-sas-signature',
    description: 'Azure shared access signature (sig= in a SAS URL or token)',
    keywords: ['sig='],
    pattern: /[?&]sig=(?<secret>[A-Za-z0-9%+/]{40,200}(?:%3D|=){0,2})(?![A-Za-z0-9%+/=])/,
    validate: (span, m, text) =>
      randomLooking(span, 3.5) && /[?&]sv=\d{4}-\d{2}-\d{2}/.test(text.slice(Math.max(0, m.index - 400), m.index + 400)),
  }),
  tokenRule({
    id: 'azure-ad-client-secret',
    description: 'Microsoft Entra ID (Azure AD) client secret (xxx8Q~…)',
    keywords: ['q~'],
    pattern: /(?<![A-Za-z0-9_~.\-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.\-]{31,34}(?![A-Za-z0-9_~.\-])/,
    prefix: 0,
    entropy: 3.5,
  }),
  tokenRule({
    id: 'digitalocean-token',
    description: 'DigitalOcean token (dop_v1_, doo_v1_, dor_v1_)',
    keywords: ['dop_v1_', 'doo_v1_', 'dor_v1_'],
    pattern: re(`${L}do[por]_v1_[a-f0-9]{64}${R}`),
    prefix: 7,
  }),
  tokenRule({
    id: 'heroku-api-key',
    description: 'Heroku API key (HRKU-…)',
    keywords: ['hrku-'],
    pattern: re(`${L}HRKU-[A-Za-z0-9_\\-]{60}${R}`),
    prefix: 5,
  }),
  tokenRule({
    id: 'netlify-token',
    description: 'Netlify personal access token (nfp_…)',
    keywords: ['nfp_'],
    pattern: re(`${L}nfp_[A-Za-z0-9]{36,40}${R}`),
    prefix: 4,
  }),
  tokenRule({
    id: 'supabase-token',
    description: 'Supabase access token or secret key (sbp_…, sb_secret_…)',
    keywords: ['sbp_', 'sb_secret_'],
    pattern: re(`${L}(?:sbp_[a-f0-9]{40}|sb_secret_[A-Za-z0-9_\\-]{20,64})${R}`),
    prefix: /^(?:sbp_|sb_secret_)/,
  }),
  tokenRule({
    id: 'databricks-token',
    description: 'Databricks personal access token (dapi…)',
    keywords: ['dapi'],
    pattern: re(`${L}dapi[a-f0-9]{32}(?:-\\d)?${R}`),
    prefix: 4,
  }),
  tokenRule({
    id: 'hashicorp-vault-token',
    description: 'HashiCorp Vault service or batch token (hvs., hvb.)',
    keywords: ['hvs.', 'hvb.'],
    pattern: re(`${L}hv[sb]\\.[A-Za-z0-9_\\-]{90,300}${R}`),
    prefix: 4,
  }),
  tokenRule({
    id: 'terraform-cloud-token',
    description: 'Terraform Cloud / Enterprise API token (….atlasv1.…)',
    keywords: ['.atlasv1.'],
    pattern: re(`${L}[A-Za-z0-9]{14}\\.atlasv1\\.[A-Za-z0-9_=\\-]{60,70}${R}`),
    anchor: { literal: '.atlasv1.', lead: 14 },
    prefix: 0,
  }),
  tokenRule({
    id: 'tailscale-key',
    description: 'Tailscale auth or API key (tskey-…)',
    keywords: ['tskey-'],
    pattern: re(`${L}tskey-(?:api|auth|client|scim|webhook)-[A-Za-z0-9]{6,24}-[A-Za-z0-9]{20,64}${R}`),
    prefix: /^tskey-[a-z]+-/,
  }),
  tokenRule({
    id: 'doppler-token',
    description: 'Doppler token (dp.pt., dp.st., …)',
    keywords: ['dp.pt.', 'dp.st.', 'dp.ct.', 'dp.sa.', 'dp.scim.', 'dp.audit.'],
    pattern: re(`${L}dp\\.(?:pt|st|ct|sa|scim|audit)\\.[A-Za-z0-9]{40,44}${R}`),
    prefix: /^dp\.[a-z]+\./,
  }),
  tokenRule({
    id: 'pulumi-token',
    description: 'Pulumi access token (pul-…)',
    keywords: ['pul-'],
    pattern: re(`${L}pul-[a-f0-9]{40}${R}`),
    prefix: 4,
  }),
  tokenRule({
    id: 'planetscale-token',
    description: 'PlanetScale token or password (pscale_tkn_, pscale_oauth_, pscale_pw_)',
    keywords: ['pscale_'],
    pattern: re(`${L}pscale_(?:tkn|oauth|pw)_[A-Za-z0-9_=.\\-]{32,64}${R}`),
    prefix: /^pscale_[a-z]+_/,
  }),

  // Source hosting and package registries
  tokenRule({
    id: 'github-token',
    description: 'GitHub token (ghp_, gho_, ghu_, ghs_, ghr_) with its CRC32 checksum',
    keywords: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'],
    pattern: /(?<![A-Za-z0-9_])(?:gh[pou]_[A-Za-z0-9]{36}|gh[sr]_[A-Za-z0-9]{36,255})(?![A-Za-z0-9_])/,
    prefix: 4,
    // Personal, OAuth and user tokens always carry the checksum; installation and refresh tokens
    // have changed shape over time, so for them a failed checksum falls back to entropy alone.
    check: (span) => hasGithubChecksum(span.slice(4)) || /^gh[sr]_/.test(span),
  }),
  tokenRule({
    id: 'github-fine-grained-pat',
    description: 'GitHub fine-grained personal access token (github_pat_…)',
    keywords: ['github_pat_'],
    pattern: /(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}(?![A-Za-z0-9_])/,
    prefix: 11,
  }),
  tokenRule({
    id: 'gitlab-token',
    description: 'GitLab token (glpat-, gldt-, glrt-, glptt-, glft-, glimt-, glcbt-, glsoat-, …)',
    keywords: ['glpat-', 'gldt-', 'glrt-', 'glptt-', 'glft-', 'glimt-', 'glcbt-', 'glsoat-', 'gloas-', 'glagent-', 'glffct-'],
    pattern: re(`${L}(?:glpat|gldt|glrt|glptt|glft|glimt|glcbt|glsoat|gloas|glagent|glffct)-[A-Za-z0-9_\\-]{20,300}(?:\\.[a-z0-9]{9})?${R}`),
    prefix: /^[a-z]+-/,
  }),
  tokenRule({
    id: 'bitbucket-app-password',
    description: 'Bitbucket app password (ATBB…)',
    keywords: ['atbb'],
    pattern: /(?<![A-Za-z0-9])ATBB[A-Za-z0-9]{28,40}(?![A-Za-z0-9])/,
    prefix: 4,
  }),
  tokenRule({
    id: 'atlassian-api-token',
    description: 'Atlassian (Jira, Confluence) API token (ATATT3…)',
    keywords: ['atatt3', 'atctt3'],
    pattern: re(`${L}AT(?:ATT|CTT)3[A-Za-z0-9_=\\-]{150,260}${R}`),
    prefix: 6,
  }),
  tokenRule({
    id: 'npm-token',
    description: 'npm access token (npm_…) with its CRC32 checksum',
    keywords: ['npm_'],
    pattern: /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9_])/,
    prefix: 4,
    check: (span) => hasGithubChecksum(span.slice(4)),
  }),
  regexRule({
    id: 'npmrc-auth-token',
    description: 'Registry credential in .npmrc (:_authToken=, :_auth=, :_password=)',
    keywords: [':_auth', ':_password'],
    specificity: CONTEXTUAL,
    pattern: /:_(?:authToken|auth|password)[ \t]{0,3}=[ \t]{0,3}["']?(?<secret>[^\s"'$]{8,512})/,
    validate: (span) => !looksLikePlaceholder(span) && !TEMPLATE_START.test(span) && shannonEntropy(span) >= 3.0,
  }),
  tokenRule({
    id: 'pypi-token',
    description: 'PyPI upload token (pypi-AgEIcHlwaS5vcmc…)',
    keywords: ['pypi-age'],
    pattern: re(`${L}pypi-AgE(?:IcHlwaS5vcmc|NdGVzdC5weXBpLm9yZw)[A-Za-z0-9_\\-]{50,1000}${R}`),
    prefix: 5,
  }),
  tokenRule({
    id: 'rubygems-token',
    description: 'RubyGems API key (rubygems_…)',
    keywords: ['rubygems_'],
    pattern: re(`${L}rubygems_[a-f0-9]{48}${R}`),
    prefix: 9,
  }),
  tokenRule({
    id: 'dockerhub-pat',
    description: 'Docker Hub personal or organisation access token (dckr_pat_, dckr_oat_)',
    keywords: ['dckr_pat_', 'dckr_oat_'],
    pattern: re(`${L}dckr_(?:pat|oat)_[A-Za-z0-9_\\-]{27,64}${R}`),
    prefix: 9,
  }),

  // Chat, mail and messaging
  tokenRule({
    id: 'slack-bot-token',
    description: 'Slack bot token (xoxb-…)',
    keywords: ['xoxb-'],
    pattern: re(`${L}xoxb-\\d{8,14}-[A-Za-z0-9\\-]{18,120}${R}`),
    prefix: 5,
  }),
  tokenRule({
    id: 'slack-user-token',
    description: 'Slack user token (xoxp-…)',
    keywords: ['xoxp-', 'xoxe-'],
    pattern: re(`${L}xox[pe]-(?:\\d{8,14}-){2,3}[A-Za-z0-9]{20,64}${R}`),
    prefix: 5,
  }),
  tokenRule({
    id: 'slack-token',
    description: 'Other Slack tokens (xoxa-, xoxr-, xoxs-, xoxo-)',
    keywords: ['xoxa-', 'xoxr-', 'xoxs-', 'xoxo-'],
    pattern: re(`${L}xox[aors]-(?:\\d-)?[A-Za-z0-9\\-]{20,200}${R}`),
    prefix: 5,
  }),
  tokenRule({
    id: 'slack-app-token',
    description: 'Slack app-level token (xapp-…)',
    keywords: ['xapp-'],
    pattern: re(`${L}xapp-\\d-[A-Za-z0-9]{6,20}-\\d{6,20}-[A-Za-z0-9]{30,128}${R}`),
    prefix: 5,
  }),
  tokenRule({
    id: 'slack-webhook-url',
    description: 'Slack incoming webhook URL',
    keywords: ['hooks.slack.com'],
    pattern: /https?:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/+\-]{20,120}(?![A-Za-z0-9_/+\-])/,
    prefix: /^https?:\/\/hooks\.slack\.com\/[a-z]+\//,
  }),
  tokenRule({
    id: 'discord-bot-token',
    description: 'Discord bot token (base64 user id . timestamp . HMAC)',
    keywords: [],
    pattern: re(`${L}[MNO][A-Za-z0-9_\\-]{23,27}\\.[A-Za-z0-9_\\-]{6}\\.[A-Za-z0-9_\\-]{27,40}${R}`),
    prefix: 0,
    // The first part is the bot's numeric user id in base64: a structural check prose never passes.
    check: (span) => /^\d{17,20}$/.test(decodeBase64Url(span.slice(0, span.indexOf('.'))) ?? ''),
  }),
  tokenRule({
    id: 'discord-webhook-url',
    description: 'Discord webhook URL',
    keywords: ['discord'],
    pattern: /https?:\/\/(?:(?:ptb|canary)\.)?discord(?:app)?\.com\/api\/webhooks\/\d{15,22}\/[A-Za-z0-9_\-]{50,80}(?![A-Za-z0-9_\-])/,
    prefix: /^https?:\/\/[a-z.]+\/api\/webhooks\//,
  }),
  tokenRule({
    id: 'telegram-bot-token',
    description: 'Telegram bot token (<bot id>:AA…)',
    keywords: [':aa'],
    pattern: /(?<![A-Za-z0-9_:\-])\d{6,12}:AA[A-Za-z0-9_\-]{33}(?![A-Za-z0-9_\-])/,
    prefix: 0,
  }),
  tokenRule({
    id: 'twilio-api-key',
    description: 'Twilio API key SID secret pair (SK…)',
    keywords: ['sk'],
    pattern: /(?<![A-Za-z0-9])SK[0-9a-f]{32}(?![A-Za-z0-9])/,
    prefix: 2,
  }),
  tokenRule({
    id: 'sendgrid-api-key',
    description: 'SendGrid API key (SG.….…)',
    keywords: ['sg.'],
    pattern: re(`${L}SG\\.[A-Za-z0-9_\\-]{22}\\.[A-Za-z0-9_\\-]{43}${R}`),
    prefix: 3,
  }),
  tokenRule({
    id: 'mailgun-api-key',
    description: 'Mailgun API key (key-…)',
    keywords: ['key-'],
    pattern: re(`${L}key-[0-9a-f]{32}${R}`),
    prefix: 4,
  }),
  tokenRule({
    id: 'mailchimp-api-key',
    description: 'Mailchimp API key (…-us12)',
    keywords: ['-us'],
    pattern: /(?<![A-Za-z0-9])[0-9a-f]{32}-us\d{1,2}(?![A-Za-z0-9])/,
    anchor: { literal: '-us', lead: 32 },
    prefix: 0,
  }),

  // Payments and commerce
  tokenRule({
    id: 'stripe-secret-key',
    description: 'Stripe secret key (sk_live_, sk_test_)',
    keywords: ['sk_live_', 'sk_test_', 'sk_prod_'],
    pattern: /(?<![A-Za-z0-9_])sk_(?:live|test|prod)_[A-Za-z0-9]{20,247}(?![A-Za-z0-9_])/,
    prefix: 8,
  }),
  tokenRule({
    id: 'stripe-restricted-key',
    description: 'Stripe restricted key (rk_live_, rk_test_)',
    keywords: ['rk_live_', 'rk_test_', 'rk_prod_'],
    pattern: /(?<![A-Za-z0-9_])rk_(?:live|test|prod)_[A-Za-z0-9]{20,247}(?![A-Za-z0-9_])/,
    prefix: 8,
  }),
  tokenRule({
    id: 'stripe-webhook-secret',
    description: 'Stripe webhook signing secret (whsec_…)',
    keywords: ['whsec_'],
    pattern: /(?<![A-Za-z0-9_])whsec_[A-Za-z0-9+/=]{32,128}(?![A-Za-z0-9_+/=])/,
    prefix: 6,
  }),
  tokenRule({
    id: 'square-access-token',
    description: 'Square access token (sq0atp-, EAAA…)',
    keywords: ['sq0atp-', 'eaaa'],
    pattern: re(`${L}(?:sq0atp-[A-Za-z0-9_\\-]{22,60}|EAAA[A-Za-z0-9_\\-]{60})${R}`),
    prefix: /^(?:sq0atp-|EAAA)/,
  }),
  tokenRule({
    id: 'square-oauth-secret',
    description: 'Square OAuth application secret (sq0csp-…)',
    keywords: ['sq0csp-'],
    pattern: re(`${L}sq0csp-[A-Za-z0-9_\\-]{43}${R}`),
    prefix: 7,
  }),
  tokenRule({
    id: 'braintree-access-token',
    description: 'PayPal Braintree access token (access_token$production$…)',
    keywords: ['access_token$'],
    pattern: /access_token\$(?:production|sandbox)\$[0-9a-z]{16}\$[0-9a-f]{32}(?![A-Za-z0-9])/,
    prefix: /^access_token\$[a-z]+\$/,
  }),
  tokenRule({
    id: 'shopify-token',
    description: 'Shopify access token or shared secret (shpat_, shpca_, shppa_, shpss_)',
    keywords: ['shpat_', 'shpca_', 'shppa_', 'shpss_'],
    pattern: re(`${L}shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}${R}`),
    prefix: 6,
  }),
  tokenRule({
    id: 'facebook-access-token',
    description: 'Facebook / Meta Graph API access token (EAA…)',
    keywords: ['eaa'],
    pattern: /(?<![A-Za-z0-9])EAA[A-Za-z0-9]{100,400}(?![A-Za-z0-9])/,
    prefix: 3,
  }),

  // AI providers
  tokenRule({
    id: 'anthropic-api-key',
    description: 'Anthropic API or admin key (sk-ant-…)',
    keywords: ['sk-ant-'],
    pattern: re(`${L}sk-ant-[a-z]{2,8}\\d{2}-[A-Za-z0-9_\\-]{32,200}${R}`),
    prefix: 7,
  }),
  tokenRule({
    id: 'openai-api-key',
    description: 'OpenAI API key (sk-proj-, sk-svcacct-, sk-admin-, legacy sk-…T3BlbkFJ…)',
    keywords: ['sk-'],
    pattern: re(`${L}sk-(?:(?:proj|svcacct|admin|None)-[A-Za-z0-9_\\-]{40,250}|[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}|[A-Za-z0-9]{48})${R}`),
    prefix: /^sk-(?:(?:proj|svcacct|admin|None)-)?/,
  }),
  tokenRule({
    id: 'huggingface-token',
    description: 'Hugging Face access token (hf_…, api_org_…)',
    keywords: ['hf_', 'api_org_'],
    pattern: /(?<![A-Za-z0-9_])(?:hf|api_org)_[A-Za-z0-9]{34}(?![A-Za-z0-9_])/,
    prefix: /^(?:hf_|api_org_)/,
  }),
  tokenRule({
    id: 'groq-api-key',
    description: 'Groq API key (gsk_…)',
    keywords: ['gsk_'],
    pattern: /(?<![A-Za-z0-9_])gsk_[A-Za-z0-9]{48,56}(?![A-Za-z0-9_])/,
    prefix: 4,
  }),
  tokenRule({
    id: 'replicate-api-token',
    description: 'Replicate API token (r8_…)',
    keywords: ['r8_'],
    pattern: /(?<![A-Za-z0-9_])r8_[A-Za-z0-9]{37}(?![A-Za-z0-9_])/,
    prefix: 3,
  }),
  tokenRule({
    id: 'perplexity-api-key',
    description: 'Perplexity API key (pplx-…)',
    keywords: ['pplx-'],
    pattern: re(`${L}pplx-[A-Za-z0-9]{48}${R}`),
    prefix: 5,
  }),
  tokenRule({
    id: 'xai-api-key',
    description: 'xAI API key (xai-…)',
    keywords: ['xai-'],
    pattern: re(`${L}xai-[A-Za-z0-9]{80}${R}`),
    prefix: 4,
  }),

  // Observability and productivity
  regexRule({
    id: 'datadog-api-key',
    description: 'Datadog API or application key assigned to DD_API_KEY / DD_APP_KEY',
    keywords: ['dd_', 'dd-', 'datadog'],
    pattern: /(?<![A-Za-z0-9])(?:dd|datadog)[_\-]?(?:api|app|application)[_\-]?key["']?[ \t]{0,3}(?::=|=>|=|:)[ \t]{0,3}["']?(?<secret>[a-f0-9]{40}|[a-f0-9]{32})(?![A-Za-z0-9])/i,
    validate: (span) => randomLooking(span, 3.0),
  }),
  tokenRule({
    id: 'newrelic-key',
    description: 'New Relic user API key, insert key or license key (NRAK-, NRII-, …NRAL)',
    keywords: ['nrak-', 'nrii-', 'nral'],
    pattern: re(`${L}(?:NRAK-[A-Z0-9]{27}|NRII-[A-Za-z0-9_\\-]{32})${R}`),
    prefix: /^(?:NRAK-|NRII-)/,
    also: [{ pattern: re(`${L}[a-f0-9]{36}NRAL${R}`), anchor: { literal: 'NRAL', lead: 36 } }],
  }),
  regexRule({
    id: 'sentry-dsn-secret',
    description: 'Legacy Sentry DSN that carries its secret key (https://public:secret@…)',
    keywords: ['://'],
    specificity: REFINED,
    pattern: /(?<![A-Za-z0-9+.\-])https?:\/\/[0-9a-f]{32}:[0-9a-f]{32}(?=@)/,
    prefix: (span) => span.lastIndexOf(':') + 1,
    validate: (span) => randomLooking(span.slice(span.lastIndexOf(':') + 1), 3.0),
  }),
  tokenRule({
    id: 'sentry-auth-token',
    description: 'Sentry auth token (sntrys_, sntryu_)',
    keywords: ['sntrys_', 'sntryu_'],
    pattern: /(?<![A-Za-z0-9_])sntry[su]_[A-Za-z0-9+/=_]{64,400}(?![A-Za-z0-9+/=_])/,
    prefix: 7,
  }),
  tokenRule({
    id: 'grafana-token',
    description: 'Grafana Cloud or service-account token (glc_, glsa_)',
    keywords: ['glc_', 'glsa_'],
    pattern: /(?<![A-Za-z0-9_])(?:glc_[A-Za-z0-9+/]{32,400}={0,3}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})(?![A-Za-z0-9_+/=])/,
    prefix: /^(?:glc_|glsa_)/,
  }),
  tokenRule({
    id: 'dynatrace-token',
    description: 'Dynatrace API token (dt0c01.…)',
    keywords: ['dt0c01.'],
    pattern: re(`${L}dt0c01\\.[A-Za-z0-9]{24}\\.[A-Za-z0-9]{64}${R}`),
    prefix: 7,
  }),
  tokenRule({
    id: 'linear-api-key',
    description: 'Linear API key or OAuth token (lin_api_, lin_oauth_)',
    keywords: ['lin_api_', 'lin_oauth_'],
    pattern: /(?<![A-Za-z0-9_])lin_(?:api|oauth)_[A-Za-z0-9]{40,64}(?![A-Za-z0-9_])/,
    prefix: /^lin_[a-z]+_/,
  }),
  tokenRule({
    id: 'notion-token',
    description: 'Notion integration token (ntn_…, secret_…)',
    keywords: ['ntn_', 'secret_'],
    pattern: /(?<![A-Za-z0-9_])(?:ntn_\d{11}[A-Za-z0-9]{35}|secret_[A-Za-z0-9]{43})(?![A-Za-z0-9_])/,
    prefix: /^(?:ntn_|secret_)/,
  }),
  tokenRule({
    id: 'postman-api-key',
    description: 'Postman API key (PMAK-…)',
    keywords: ['pmak-'],
    pattern: re(`${L}PMAK-[a-f0-9]{24}-[a-f0-9]{34}${R}`),
    prefix: 5,
  }),
  tokenRule({
    id: 'sourcegraph-token',
    description: 'Sourcegraph access token (sgp_…)',
    keywords: ['sgp_'],
    pattern: re(`${L}sgp_(?:[a-f0-9]{16}_)?[a-f0-9]{40}${R}`),
    prefix: 4,
  }),
  tokenRule({
    id: 'onepassword-service-account-token',
    description: '1Password service-account token (ops_eyJ…)',
    keywords: ['ops_eyj'],
    pattern: /(?<![A-Za-z0-9_])ops_eyJ[A-Za-z0-9+/]{250,4000}={0,3}(?![A-Za-z0-9+/=])/,
    prefix: 4,
  }),
  tokenRule({
    id: 'age-secret-key',
    description: 'age encryption secret key (AGE-SECRET-KEY-1…) with its bech32 checksum',
    keywords: ['age-secret-key-1'],
    pattern: /(?<![A-Za-z0-9])AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}(?![A-Za-z0-9])/,
    prefix: 15,
    check: bech32Valid,
  }),

  // Structural formats
  privateKeyPem,
  regexRule({
    id: 'jwt',
    description: 'JSON Web Token (three base64url parts, header decodes to JSON with `alg`)',
    keywords: ['eyj'],
    pattern: re(`${L}eyJ[A-Za-z0-9_\\-]{10,2048}\\.[A-Za-z0-9_\\-]{2,16384}\\.[A-Za-z0-9_\\-]{16,2048}${R}`),
    prefix: 3,
    validate: (span) => {
      const [header = '', payload = ''] = span.split('.');
      const parsed = parseJsonObject(decodeBase64Url(header));
      if (parsed === null || typeof parsed['alg'] !== 'string') return false;
      return !isJwtIoSample(parseJsonObject(decodeBase64Url(payload)));
    },
  }),
  regexRule({
    id: 'bearer-token',
    description: 'Opaque token in an Authorization: Bearer header',
    keywords: ['bearer'],
    specificity: CONTEXTUAL,
    pattern: /(?:Proxy-)?Authorization["']?[ \t]{0,3}[:=][ \t]{0,3}["']?Bearer[ \t]{1,3}(?<secret>[A-Za-z0-9._~+/\-]{16,4096}={0,2})(?![A-Za-z0-9._~+/=\-])/i,
    validate: (span) => randomLooking(span, 3.0) && characterClasses(span) >= 2,
  }),
  regexRule({
    id: 'basic-auth-header',
    description: 'user:password in an Authorization: Basic header',
    keywords: ['basic'],
    specificity: CONTEXTUAL,
    pattern: /(?:Proxy-)?Authorization["']?[ \t]{0,3}[:=][ \t]{0,3}["']?Basic[ \t]{1,3}(?<secret>[A-Za-z0-9+/]{8,2048}={0,2})(?![A-Za-z0-9+/=])/i,
    validate: (span) => {
      const decoded = Buffer.from(span, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon < 0 || !/^[\x20-\x7e]+$/.test(decoded)) return false;
      return !isDocPassword(decoded.slice(colon + 1), decoded.slice(0, colon));
    },
  }),
  connectionStringPassword,
  urlWithPassword,
  genericAssignment,
];

export const RULE_IDS: readonly string[] = SECRET_RULES.map((rule) => rule.id);
