/**
 * A JSON-with-comments reader that keeps source offsets. Host config files are people's files:
 * VS Code's mcp.json allows `//` and `/* *\/` comments and trailing commas, and editing one must
 * keep every comment and byte we do not mean to change. So instead of parse → stringify we parse
 * to a tree with offsets and splice text (json-edit.ts).
 */

export interface Span {
  start: number;
  end: number;
}

export type JsonNode =
  | (Span & { type: 'object'; props: PropNode[] })
  | (Span & { type: 'array'; items: JsonNode[] })
  | (Span & { type: 'string'; value: string })
  | (Span & { type: 'number'; value: number })
  | (Span & { type: 'boolean'; value: boolean })
  | (Span & { type: 'null' });

export interface PropNode {
  key: string;
  keySpan: Span;
  value: JsonNode;
}

export class JsoncError extends Error {
  readonly line: number;
  readonly column: number;

  constructor(message: string, text: string, offset: number) {
    const before = text.slice(0, offset).split('\n');
    const line = before.length;
    const column = before[before.length - 1]!.length + 1;
    super(`${message} at line ${line}, column ${column}`);
    this.name = 'JsoncError';
    this.line = line;
    this.column = column;
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const MAX_DEPTH = 256;

class Parser {
  private pos = 0;

  constructor(private readonly text: string) {}

  fail(message: string, at = this.pos): never {
    throw new JsoncError(message, this.text, at);
  }

  /** Skips whitespace and comments. */
  skip(): void {
    const t = this.text;
    for (;;) {
      const c = t.charCodeAt(this.pos);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0xfeff) {
        this.pos++;
      } else if (c === 0x2f && t[this.pos + 1] === '/') {
        const nl = t.indexOf('\n', this.pos);
        this.pos = nl === -1 ? t.length : nl + 1;
      } else if (c === 0x2f && t[this.pos + 1] === '*') {
        const close = t.indexOf('*/', this.pos + 2);
        if (close === -1) this.fail('unterminated /* comment');
        this.pos = close + 2;
      } else {
        return;
      }
    }
  }

  document(): JsonNode {
    this.skip();
    if (this.pos >= this.text.length) this.fail('the file is empty');
    const node = this.value(0);
    this.skip();
    if (this.pos < this.text.length) this.fail('unexpected text after the end of the JSON value');
    return node;
  }

  value(depth: number): JsonNode {
    if (depth > MAX_DEPTH) this.fail('nested too deeply');
    const t = this.text;
    const start = this.pos;
    const c = t[start];
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (c === '"') return { type: 'string', value: this.string(), start, end: this.pos };
    for (const [word, node] of [
      ['true', { type: 'boolean', value: true }],
      ['false', { type: 'boolean', value: false }],
      ['null', { type: 'null' }],
    ] as const) {
      if (t.startsWith(word, start) && !/[\w$]/.test(t[start + word.length] ?? '')) {
        this.pos += word.length;
        return { ...node, start, end: this.pos };
      }
    }
    NUMBER.lastIndex = start;
    const number = NUMBER.exec(t);
    if (number) {
      this.pos += number[0].length;
      return { type: 'number', value: Number(number[0]), start, end: this.pos };
    }
    return this.fail(start >= t.length ? 'unexpected end of file' : `unexpected character ${JSON.stringify(c)}`);
  }

  string(): string {
    STRING.lastIndex = this.pos;
    const match = STRING.exec(this.text);
    if (!match) this.fail('invalid or unterminated string');
    this.pos += match[0].length;
    return JSON.parse(match[0]) as string;
  }

  object(depth: number): JsonNode {
    const start = this.pos++;
    const props: PropNode[] = [];
    for (;;) {
      this.skip();
      if (this.text[this.pos] === '}') break;
      if (this.text[this.pos] !== '"') this.fail(props.length === 0 ? 'expected a property name or "}"' : 'expected a property name');
      const keyStart = this.pos;
      const key = this.string();
      const keySpan = { start: keyStart, end: this.pos };
      this.skip();
      if (this.text[this.pos] !== ':') this.fail('expected ":"');
      this.pos++;
      this.skip();
      props.push({ key, keySpan, value: this.value(depth + 1) });
      this.skip();
      if (this.text[this.pos] === ',') {
        this.pos++;
        continue; // a trailing comma before "}" is accepted (VS Code writes JSONC)
      }
      if (this.text[this.pos] !== '}') this.fail('expected "," or "}"');
      break;
    }
    this.pos++;
    return { type: 'object', props, start, end: this.pos };
  }

  array(depth: number): JsonNode {
    const start = this.pos++;
    const items: JsonNode[] = [];
    for (;;) {
      this.skip();
      if (this.text[this.pos] === ']') break;
      items.push(this.value(depth + 1));
      this.skip();
      if (this.text[this.pos] === ',') {
        this.pos++;
        continue;
      }
      if (this.text[this.pos] !== ']') this.fail('expected "," or "]"');
      break;
    }
    this.pos++;
    return { type: 'array', items, start, end: this.pos };
  }
}

/** Parses JSON with comments and trailing commas; throws JsoncError naming line and column. */
export function parseJsonc(text: string): JsonNode {
  return new Parser(text).document();
}

/** The plain value of a node. Keys are defined, not assigned, so "__proto__" stays a key. */
export function toValue(node: JsonNode): unknown {
  switch (node.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const prop of node.props) Object.defineProperty(out, prop.key, { value: toValue(prop.value), enumerable: true, writable: true, configurable: true });
      return out;
    }
    case 'array':
      return node.items.map(toValue);
    case 'null':
      return null;
    default:
      return node.value;
  }
}

/** The last property with this key (JSON.parse semantics: the last duplicate wins). */
export function findProp(node: JsonNode, key: string): PropNode | null {
  if (node.type !== 'object') return null;
  for (let i = node.props.length - 1; i >= 0; i--) if (node.props[i]!.key === key) return node.props[i]!;
  return null;
}
