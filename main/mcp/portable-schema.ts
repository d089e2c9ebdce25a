/**
 * JSON Schema as the widest range of hosts accept it: some reject type arrays such as
 * `["string","null"]` and empty-object schemas, so those are rewritten to `anyOf` and `true`.
 * The meaning is unchanged.
 */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function portableSchema(node: Json): Json {
  if (Array.isArray(node)) return node.map(portableSchema);
  if (node === null || typeof node !== 'object') return node;
  const out: { [key: string]: Json } = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema') continue;
    if ((key === 'additionalProperties' || key === 'items') && value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0) {
      out[key] = true;
      continue;
    }
    out[key] = portableSchema(value);
  }
  const type = out['type'];
  if (Array.isArray(type)) {
    delete out['type'];
    const variants = type.map((t) => ({ type: t }));
    return { anyOf: variants, ...out };
  }
  return out;
}
