/**
 * Reads the descriptors back out of committed generated code (`<service>/descriptor.ts`), so
 * `smskit generate --check` can say what the WSDL change means on the wire: the committed
 * descriptor is exactly what the deployed code runs with.
 *
 * The file is read as data, never run: generated descriptor files hold only `const` declarations
 * whose values are literals (emit/literal.ts prints them: objects, arrays, single-quoted strings,
 * numbers, booleans, null) and references to earlier constants (operation lists shared by two
 * bindings). Anything else is refused, so a hand-edited file cannot execute code or be misread;
 * the reader is tested against the printer on every fixture and corpus WSDL.
 */
import type { ServiceDescriptor } from '../../runtime/descriptor.js';
import { DiffError } from './errors.js';

type Value = string | number | boolean | null | undefined | Value[] | { [key: string]: Value };

interface Token {
  readonly kind: 'ident' | 'string' | 'number' | 'punct';
  readonly text: string;
  readonly value?: string | number;
  readonly line: number;
}

/** Every descriptor in a generated tree (path -> text), in path order. */
export function readCommittedDescriptors(files: ReadonlyMap<string, string>): ServiceDescriptor[] {
  const out: ServiceDescriptor[] = [];
  for (const [path, text] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (!path.endsWith('/descriptor.ts')) continue;
    const consts = new Reader(path, tokenize(path, text)).consts();
    const descriptor = [...consts.values()].find(
      (v) => typeof v === 'object' && v !== null && !Array.isArray(v) && 'bindings' in v && 'types' in v,
    );
    if (descriptor === undefined)
      throw new DiffError('DIFF_DESCRIPTOR_UNREADABLE', 'no service descriptor constant in this file', {
        file: path,
        line: 1,
      });
    out.push(descriptor as unknown as ServiceDescriptor);
  }
  return out;
}

const PUNCT = new Set(['{', '}', '[', ']', ':', ',', ';', '=', '<', '>', '(', ')', '.', '|', '*', '-']);
const ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  r: '\r',
  t: '\t',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '0': '\0',
};

function tokenize(file: string, text: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  let i = 0;
  const fail = (what: string): never => {
    throw new DiffError('DIFF_DESCRIPTOR_UNREADABLE', what, { file, line });
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\n') line++;
    if (/\s/.test(c)) i++;
    else if (text.startsWith('//', i)) i = text.indexOf('\n', i) < 0 ? text.length : text.indexOf('\n', i);
    else if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) fail('an unterminated comment');
      line += text.slice(i, end).split('\n').length - 1;
      i = end + 2;
    } else if (c === "'" || c === '"') {
      let value = '';
      let j = i + 1;
      for (; j < text.length && text[j] !== c; j++) {
        if (text[j] === '\n') fail('a line break inside a string');
        if (text[j] !== '\\') value += text[j];
        else if (text[j + 1] === 'u') {
          value += String.fromCharCode(parseInt(text.slice(j + 2, j + 6), 16));
          j += 5;
        } else value += ESCAPES[text[++j]!] ?? fail(`an unknown string escape \\${text[j]}`);
      }
      if (j >= text.length) fail('an unterminated string');
      tokens.push({ kind: 'string', text: text.slice(i, j + 1), value, line });
      i = j + 1;
    } else {
      const number = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 40));
      const ident = /^[A-Za-z_$][\w$]*/.exec(text.slice(i, i + 200));
      if (number !== null && (c !== '-' || /\d/.test(text[i + 1] ?? ''))) {
        tokens.push({ kind: 'number', text: number[0], value: Number(number[0]), line });
        i += number[0].length;
      } else if (ident !== null) {
        tokens.push({ kind: 'ident', text: ident[0], line });
        i += ident[0].length;
      } else if (PUNCT.has(c)) {
        tokens.push({ kind: 'punct', text: c, line });
        i++;
      } else fail(`unexpected character "${c}"`);
    }
  }
  return tokens;
}

class Reader {
  private i = 0;
  private readonly values = new Map<string, Value>();

  constructor(
    private readonly file: string,
    private readonly tokens: readonly Token[],
  ) {}

  /** `import ...;` is skipped; `[export] const NAME[: TYPE] = VALUE;` is read; nothing else is allowed. */
  consts(): Map<string, Value> {
    while (this.i < this.tokens.length) {
      const t = this.next();
      if (t.kind === 'ident' && t.text === 'import') this.skipTo(';');
      else if (t.kind === 'ident' && t.text === 'export') continue;
      else if (t.kind === 'ident' && t.text === 'const') this.declaration();
      else this.fail(t, `unexpected "${t.text}": a generated descriptor file holds only constants`);
    }
    return this.values;
  }

  private declaration(): void {
    const name = this.next();
    if (name.kind !== 'ident') this.fail(name, 'a constant name');
    // The type annotation is not needed to read the value.
    this.skipTo('=');
    const value = this.value();
    this.expect(';');
    this.values.set(name.text, value);
  }

  private value(): Value {
    const t = this.next();
    if (t.kind === 'string' || t.kind === 'number') return t.value!;
    if (t.kind === 'punct' && t.text === '{') return this.object();
    if (t.kind === 'punct' && t.text === '[') return this.array();
    if (t.kind === 'ident') {
      if (t.text === 'true' || t.text === 'false') return t.text === 'true';
      if (t.text === 'null') return null;
      if (t.text === 'undefined') return undefined;
      if (this.values.has(t.text)) return this.values.get(t.text);
    }
    return this.fail(t, `"${t.text}" is not a literal or an earlier constant`);
  }

  private object(): Value {
    const out: { [key: string]: Value } = {};
    while (!this.take('}')) {
      const key = this.next();
      if (key.kind !== 'ident' && key.kind !== 'string') this.fail(key, 'a property name');
      this.expect(':');
      const value = this.value();
      if (value !== undefined) out[key.kind === 'string' ? String(key.value) : key.text] = value;
      if (!this.take(',')) {
        this.expect('}');
        break;
      }
    }
    return out;
  }

  private array(): Value {
    const out: Value[] = [];
    while (!this.take(']')) {
      out.push(this.value());
      if (!this.take(',')) {
        this.expect(']');
        break;
      }
    }
    return out;
  }

  private next(): Token {
    const t = this.tokens[this.i++];
    if (t === undefined)
      throw new DiffError('DIFF_DESCRIPTOR_UNREADABLE', 'the file ends inside a declaration', {
        file: this.file,
        line: this.tokens.at(-1)?.line ?? 1,
      });
    return t;
  }

  private take(punct: string): boolean {
    const t = this.tokens[this.i];
    if (t?.kind === 'punct' && t.text === punct) {
      this.i++;
      return true;
    }
    return false;
  }

  private expect(punct: string): void {
    const t = this.next();
    if (t.kind !== 'punct' || t.text !== punct) this.fail(t, `expected "${punct}", found "${t.text}"`);
  }

  private skipTo(punct: string): void {
    while (!this.take(punct)) this.next();
  }

  private fail(t: Token, what: string): never {
    throw new DiffError('DIFF_DESCRIPTOR_UNREADABLE', what, { file: this.file, line: t.line });
  }
}
