import { parseArgs } from 'node:util';
import { dataHome } from '../../core/paths.js';
import { openDatabase } from '../../store/database.js';
import { recall } from '../../store/recall.js';
import { SCOPE_PATTERN } from '../../pipeline/validate.js';
import { print, UsageError } from '../output.js';

/** `nuzo recall QUERY [--scope S] [--limit N] [--json]`: read-only, safe while the app runs. */
export function recallCommand(args: string[]): number {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { scope: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean' } },
  });
  const query = positionals.join(' ');
  if (values.scope !== undefined && !SCOPE_PATTERN.test(values.scope)) throw new UsageError('--scope is "user" or "project:<id>"');
  const limit = values.limit === undefined ? 10 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw new UsageError('--limit is a whole number from 1 to 200');
  const db = openDatabase(dataHome(), { readonly: true });
  try {
    const page = recall(db, { query, limit, ...(values.scope ? { scopes: [values.scope] } : {}) });
    if (values.json) {
      print(JSON.stringify(page));
      return 0;
    }
    if (page.items.length === 0) {
      print(query ? `No memory matches "${query}".` : 'No memories yet.');
      return 0;
    }
    for (const hit of page.items) {
      const oneLine = hit.content.replace(/\s+/g, ' ');
      print(`${hit.id}  ${hit.scope}  ${hit.kind}  [${hit.origin}]\n    ${oneLine.length > 160 ? oneLine.slice(0, 157) + '…' : oneLine}`);
    }
    return 0;
  } finally {
    db.close();
  }
}
