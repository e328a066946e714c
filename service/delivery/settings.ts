/**
 * Reading one YAML (or JSON) settings file with positions: every value is read through a
 * `Settings` view that knows its path in the file, so every refusal names file:line:column and
 * the key (`routes.yaml:7:11: routes.smsc.port must be an integer from 1 to 65535`).
 * Unknown keys are refused, never ignored: a misspelt option must not silently fall back.
 */
import { isMap, LineCounter, parseDocument, type Document } from 'yaml';

export class SettingsError extends Error {
  override readonly name = 'SettingsError';
}

const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export interface SettingsFile {
  readonly file: string;
  readonly document: Document;
  readonly lines: LineCounter;
}

export class Settings {
  constructor(
    private readonly source: SettingsFile,
    readonly path: readonly (string | number)[],
    private readonly value: Readonly<Record<string, unknown>>,
  ) {}

  /** Parses the text; a syntax error names its line. */
  static parse(file: string, text: string): Settings {
    const lines = new LineCounter();
    const document = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
    const [problem] = document.errors;
    if (problem !== undefined) {
      const at = lines.linePos(problem.pos[0]);
      throw new SettingsError(`${file}:${at.line}:${at.col}: ${problem.message.split('\n')[0]}`);
    }
    const value: unknown = document.toJS({ maxAliasCount: 0 });
    const source = { file, document, lines };
    if (value === null || value === undefined) return new Settings(source, [], {});
    if (!isMap(document.contents)) throw new SettingsError(`${file}:1:1: expected a mapping of settings`);
    return new Settings(source, [], value as Record<string, unknown>);
  }

  /** `file:line:col: path` for this view or one of its keys. */
  where(key?: string): string {
    const path = key === undefined ? this.path : [...this.path, key];
    const node = this.source.document.getIn(path, true) as { range?: [number, number, number] } | undefined;
    const pair = key === undefined ? undefined : this.keyNode(key);
    const offset = pair ?? node?.range?.[0] ?? 0;
    const at = this.source.lines.linePos(offset);
    return `${this.source.file}:${at.line}:${at.col}: ${path.join('.') || '(top level)'}`;
  }

  private keyNode(key: string): number | undefined {
    const parent = this.source.document.getIn(this.path, true);
    const map = this.path.length === 0 ? this.source.document.contents : parent;
    if (!isMap(map)) return undefined;
    const pair = map.items.find((item) => (item.key as { value?: unknown } | null)?.value === key);
    return (pair?.key as { range?: [number, number, number] } | undefined)?.range?.[0];
  }

  /** The error for `problem` at `key`, to throw where the compiler must see the throw. */
  error(key: string | undefined, problem: string): SettingsError {
    return new SettingsError(`${this.where(key)} ${problem}`);
  }

  fail(key: string | undefined, problem: string): never {
    throw this.error(key, problem);
  }

  has(key: string): boolean {
    return this.value[key] !== undefined && this.value[key] !== null;
  }

  keys(): string[] {
    return Object.keys(this.value);
  }

  /** Refuses keys outside `allowed`, naming the first one. */
  only(allowed: readonly string[]): void {
    const unknown = this.keys().find((key) => !allowed.includes(key));
    if (unknown !== undefined) this.fail(unknown, `is not a known setting here (known: ${allowed.join(', ')})`);
  }

  section(key: string): Settings {
    const value = this.value[key];
    if (value === undefined || value === null) return new Settings(this.source, [...this.path, key], {});
    if (typeof value !== 'object' || Array.isArray(value)) this.fail(key, 'must be a mapping');
    return new Settings(this.source, [...this.path, key], value as Record<string, unknown>);
  }

  string(key: string, fallback?: string): string {
    const value = this.value[key];
    if (value === undefined || value === null) {
      if (fallback === undefined) this.fail(key, 'is required');
      return fallback;
    }
    if (typeof value !== 'string' && typeof value !== 'number') this.fail(key, 'must be text');
    return String(value);
  }

  integer(key: string, min: number, max: number, fallback?: number): number {
    const value = this.value[key];
    if (value === undefined || value === null) {
      if (fallback === undefined) this.fail(key, 'is required');
      return fallback;
    }
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
      this.fail(key, `must be an integer from ${min} to ${max}`);
    return value;
  }

  number(key: string, min: number, max: number, fallback: number): number {
    const value = this.value[key];
    if (value === undefined || value === null) return fallback;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max)
      this.fail(key, `must be a number from ${min} to ${max}`);
    return value;
  }

  boolean(key: string, fallback: boolean): boolean {
    const value = this.value[key];
    if (value === undefined || value === null) return fallback;
    if (typeof value !== 'boolean') this.fail(key, 'must be true or false');
    return value;
  }

  oneOf<T extends string>(key: string, choices: readonly T[], fallback: T): T {
    const value = this.value[key];
    if (value === undefined || value === null) return fallback;
    if (typeof value !== 'string' || !choices.includes(value as T))
      this.fail(key, `must be one of ${choices.join(', ')}`);
    return value as T;
  }

  /** A list of names (`[primary, backup]`): text items, at least `min`, each once. */
  names(key: string, min: number): string[] {
    const value = this.value[key];
    if (!Array.isArray(value) || value.length < min || value.some((item) => typeof item !== 'string' || item === ''))
      this.fail(key, `must be a list of at least ${min} route names, e.g. [primary, backup]`);
    const names = value as string[];
    const twice = names.find((item, index) => names.indexOf(item) !== index);
    if (twice !== undefined) this.fail(key, `names ${twice} twice`);
    return names;
  }

  /** A duration: a number of milliseconds, or text such as `500ms`, `30s`, `10m`, `48h`, `2d`. */
  duration(key: string, minMs: number, maxMs: number, fallback: number): number {
    const value = this.value[key];
    if (value === undefined || value === null) return fallback;
    let ms: number | undefined;
    if (typeof value === 'number' && Number.isFinite(value)) ms = value;
    else if (typeof value === 'string') {
      const match = DURATION.exec(value.trim());
      if (match !== null) ms = Number(match[1]) * (UNIT_MS[match[2] ?? 'ms'] ?? 1);
    }
    if (ms === undefined) this.fail(key, 'must be a duration such as 500ms, 30s, 10m, 48h or a number of ms');
    if (ms < minMs || ms > maxMs) this.fail(key, `must be from ${minMs} ms to ${maxMs} ms`);
    return Math.round(ms);
  }

  /**
   * A secret named by an environment variable (`passwordEnv: SMPP_PASSWORD`): the file never
   * holds it, and the error names the variable, never a value.
   */
  secretFromEnv(key: string, env: NodeJS.ProcessEnv): string {
    const name = this.string(key);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) this.fail(key, 'must name an environment variable');
    const secret = env[name];
    if (secret === undefined || secret === '') this.fail(key, `names ${name}, which is not set in the environment`);
    return secret;
  }
}
