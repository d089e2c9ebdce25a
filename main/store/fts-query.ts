/**
 * Turns anything a person or agent types into a safe FTS5 MATCH expression. FTS5 syntax
 * (quotes, AND/OR/NOT/NEAR, `*`, `:`, `^`, parentheses) is never passed through: the text is cut
 * into word tokens the same way the index's unicode61 tokenizer cuts it, and each token is quoted.
 */
const TOKEN = /[\p{L}\p{N}\p{M}]+/gu;
// The index folds the diacritics of Latin letters (remove_diacritics 2); tokens fold the same
// letters so they name the index's terms. Marks in other scripts are part of the word and stay.
const LATIN_WITH_MARKS = /[\u00C0-\u024F\u1E00-\u1EFF]/g;
const fold = (text: string): string => text.normalize('NFC').replace(LATIN_WITH_MARKS, (c) => c.normalize('NFD').replace(/\p{M}+/gu, ''));
const MAX_TOKENS = 16;

export function queryTokens(text: string, maxTokens: number = MAX_TOKENS): string[] {
  const tokens = fold(text).toLowerCase().match(TOKEN) ?? [];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const token of tokens) {
    if (seen.has(token)) continue;
    seen.add(token);
    out.push(token);
    if (out.length === maxTokens) break;
  }
  return out;
}

const quote = (token: string): string => `"${token.replaceAll('"', '""')}"`;

export interface FtsQuery {
  /** Every token must match; the last one also as a prefix, for search as you type. */
  all: string;
  /** Any token may match: the fallback when `all` finds nothing. */
  any: string;
}

/** Returns null when the text has no searchable token (empty, only punctuation). */
export function buildFtsQuery(text: string, options: { prefixLast?: boolean } = {}): FtsQuery | null {
  const tokens = queryTokens(text);
  if (tokens.length === 0) return null;
  const prefixLast = options.prefixLast ?? true;
  const terms = tokens.map((token, i) => (prefixLast && i === tokens.length - 1 ? `${quote(token)}*` : quote(token)));
  return { all: terms.join(' '), any: terms.join(' OR ') };
}
