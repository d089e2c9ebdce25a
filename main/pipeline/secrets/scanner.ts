/**
 * The secret scanner of the write pipeline (DESIGN §4 stage 3) and of `nuzo scan` (§10).
 *
 * Synchronous and allocation-light: one case-insensitive keyword pass decides which rules can
 * possibly match, and only those run. Findings carry UTF-16 offsets (as JS strings index them)
 * and a preview that shows at most a documented non-secret prefix, never secret characters, so a
 * finding can be put in an error, a draft, an audit reason or a log as it is.
 */
import { SECRET_RULES, type RuleMatch, type SecretRule } from './rules.js';

export interface SecretFinding {
  rule: string;
  start: number;
  end: number;
  preview: string;
}

export interface ScannedFields {
  content: string;
  tags?: readonly string[];
  provenance?: unknown;
}

/** Shorter than any rule's minimum match; such text cannot hold a finding. */
const MIN_SCANNABLE = 8;
/** A preview shows at most this much of a non-secret prefix (a long URL user name is cut). */
const MAX_PREVIEW_PREFIX = 64;

// ---------------------------------------------------------------------------------------------
// Prefilter: keyword -> rules, built once.

const ALWAYS_ON: number[] = [];
const RULES_BY_KEYWORD = new Map<string, number[]>();

SECRET_RULES.forEach((rule, index) => {
  if (rule.keywords.length === 0) ALWAYS_ON.push(index);
  for (const keyword of rule.keywords) {
    const list = RULES_BY_KEYWORD.get(keyword) ?? [];
    list.push(index);
    RULES_BY_KEYWORD.set(keyword, list);
  }
});

const ALL_KEYWORDS = [...RULES_BY_KEYWORD.keys()].sort((a, b) => b.length - a.length);

// The keyword regex reports one keyword per start position (the longest); a keyword that is a
// substring of it (`sk-` in `sk-ant-`) must activate its rules too.
for (const keyword of ALL_KEYWORDS) {
  const closure = new Set(RULES_BY_KEYWORD.get(keyword) ?? []);
  for (const other of ALL_KEYWORDS) {
    if (other !== keyword && keyword.includes(other)) for (const i of RULES_BY_KEYWORD.get(other) ?? []) closure.add(i);
  }
  RULES_BY_KEYWORD.set(keyword, [...closure]);
}

const escape = (literal: string): string => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The keywords as a trie-shaped alternation (`a(?:kia|sia|iza…)|s(?:k(?:_live_|-)?…)`): the regex
 * engine walks one branch per position instead of trying every keyword, which roughly halves the
 * prefilter's cost on prose. Longest alternatives come first, so a match is the longest keyword.
 */
function trieSource(words: readonly string[]): string {
  const branches = new Map<string, string[]>();
  let endsHere = false;
  for (const word of words) {
    if (word.length === 0) {
      endsHere = true;
      continue;
    }
    const rest = branches.get(word.charAt(0)) ?? [];
    rest.push(word.slice(1));
    branches.set(word.charAt(0), rest);
  }
  const alternatives = [...branches].map(([head, rest]) => escape(head) + trieSource(rest));
  if (alternatives.length === 0) return '';
  const body = alternatives.length === 1 ? (alternatives[0] ?? '') : `(?:${alternatives.join('|')})`;
  return endsHere ? `(?:${body})?` : body;
}

// Run on lower-cased text: cheaper than a case-insensitive regex, and lower-casing can only add
// keyword matches (never hide one), so the prefilter stays a superset of what the rules can find.
const KEYWORD_PATTERN = new RegExp(trieSource(ALL_KEYWORDS), 'g');

/** Indexes into SECRET_RULES of the rules whose keywords occur in `text`. */
function activeRules(text: string): number[] {
  const active = new Uint8Array(SECRET_RULES.length);
  for (const i of ALWAYS_ON) active[i] = 1;
  const lower = text.toLowerCase();
  KEYWORD_PATTERN.lastIndex = 0;
  for (let m = KEYWORD_PATTERN.exec(lower); m !== null; m = KEYWORD_PATTERN.exec(lower)) {
    const rules = RULES_BY_KEYWORD.get(m[0]);
    if (rules === undefined) {
      // Cannot happen for a regex built from these keywords; fail closed if it ever does.
      active.fill(1);
      break;
    }
    for (const i of rules) active[i] = 1;
    KEYWORD_PATTERN.lastIndex = m.index + 1;
  }
  const indexes: number[] = [];
  for (let i = 0; i < active.length; i++) if (active[i] === 1) indexes.push(i);
  return indexes;
}

// ---------------------------------------------------------------------------------------------
// Merging overlapping matches

interface Candidate extends RuleMatch {
  rule: SecretRule;
  order: number;
}

function moreSpecific(a: Candidate, b: Candidate): boolean {
  if (a.rule.specificity !== b.rule.specificity) return a.rule.specificity > b.rule.specificity;
  const lengthA = a.end - a.start;
  const lengthB = b.end - b.start;
  if (lengthA !== lengthB) return lengthA > lengthB;
  return a.order < b.order;
}

/**
 * One finding for a cluster of overlapping matches: the union of their spans (so nothing any rule
 * considers secret escapes redaction), named by the most specific rule. The preview may show the
 * prefix of the most specific match that starts where the union starts, cut back wherever a match
 * at least as specific says its secret part begins; a context-only guess (the generic assignment
 * rule knows no prefixes) does not hide a format's documented marker.
 */
function toFinding(group: readonly Candidate[], text: string): SecretFinding {
  const first = group[0];
  if (first === undefined) throw new Error('empty finding group');
  const start = first.start;
  let end = first.end;
  let winner = first;
  let leader = first;
  for (const c of group) {
    end = Math.max(end, c.end);
    if (moreSpecific(c, winner)) winner = c;
    if (c.start === start && moreSpecific(c, leader)) leader = c;
  }
  let visibleEnd = start + leader.prefixLength;
  for (const c of group) {
    if (c.rule.specificity >= leader.rule.specificity) visibleEnd = Math.min(visibleEnd, c.start + c.prefixLength);
  }
  visibleEnd = Math.max(start, Math.min(visibleEnd, start + MAX_PREVIEW_PREFIX, end));
  return {
    rule: winner.rule.id,
    start,
    end,
    preview: `${text.slice(start, visibleEnd)}…[redacted ${end - visibleEnd} chars]`,
  };
}

function merge(candidates: Candidate[], text: string): SecretFinding[] {
  candidates.sort((a, b) => a.start - b.start || b.end - a.end || a.order - b.order);
  const findings: SecretFinding[] = [];
  let group: Candidate[] = [];
  let groupEnd = -1;
  for (const c of candidates) {
    if (group.length > 0 && c.start >= groupEnd) {
      findings.push(toFinding(group, text));
      group = [];
    }
    group.push(c);
    groupEnd = group.length === 1 ? c.end : Math.max(groupEnd, c.end);
  }
  if (group.length > 0) findings.push(toFinding(group, text));
  return findings;
}

// ---------------------------------------------------------------------------------------------
// Public API

/** Every secret in `text`, sorted by start, overlapping matches merged. */
export function scanSecrets(text: string): SecretFinding[] {
  if (text.length < MIN_SCANNABLE) return [];
  const candidates: Candidate[] = [];
  for (const order of activeRules(text)) {
    const rule = SECRET_RULES[order];
    if (rule === undefined) continue;
    for (const match of rule.find(text)) candidates.push({ ...match, rule, order });
  }
  return candidates.length === 0 ? [] : merge(candidates, text);
}

const IDENTIFIER_KEY = /^[A-Za-z_$][\w$-]{0,63}$/;

/**
 * Scans every text field of a memory write. `field` names where the finding is: `content`,
 * `tags[2]`, `provenance.source_url`, `provenance.files[0]`. An object key that itself holds a
 * secret is scanned too and named by its position (`provenance[key 3]`), so the field path never
 * repeats the secret.
 */
export function scanFields(fields: ScannedFields): Array<SecretFinding & { field: string }> {
  const out: Array<SecretFinding & { field: string }> = [];
  const add = (field: string, value: string): void => {
    for (const finding of scanSecrets(value)) out.push({ ...finding, field });
  };

  add('content', fields.content);
  fields.tags?.forEach((tag, i) => add(`tags[${i}]`, tag));

  // Iterative walk in document order: provenance is caller-supplied JSON and may nest deeper than
  // the call stack allows.
  type Item = { value: unknown; path: string } | { keyFindings: SecretFinding[]; path: string };
  const seen = new WeakSet<object>();
  const stack: Item[] = [{ value: fields.provenance, path: 'provenance' }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if ('keyFindings' in item) {
      for (const finding of item.keyFindings) out.push({ ...finding, field: item.path });
      continue;
    }
    const { value, path } = item;
    if (typeof value === 'string') {
      add(path, value);
    } else if (typeof value === 'object' && value !== null) {
      if (seen.has(value)) continue;
      seen.add(value);
      if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: `${path}[${i}]` });
        continue;
      }
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i] ?? ['', undefined];
        const keyFindings = scanSecrets(key);
        const childPath =
          keyFindings.length > 0
            ? `${path}[key ${i}]`
            : IDENTIFIER_KEY.test(key)
              ? `${path}.${key}`
              : `${path}[${JSON.stringify(key)}]`;
        stack.push({ value: child, path: childPath });
        if (keyFindings.length > 0) stack.push({ keyFindings, path: childPath });
      }
    }
  }
  return out;
}

/** `text` with every finding replaced by `[redacted:<rule>]`, for logs. */
export function redactText(text: string): string {
  const findings = scanSecrets(text);
  if (findings.length === 0) return text;
  let out = '';
  let at = 0;
  for (const finding of findings) {
    out += `${text.slice(at, finding.start)}[redacted:${finding.rule}]`;
    at = finding.end;
  }
  return out + text.slice(at);
}
