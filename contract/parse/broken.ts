/**
 * Definitions that cannot be read are left out instead of sinking the whole WSDL: a WSDL often
 * carries leftovers (a type naming one that no schema declares, a SOAP-encoded array only an
 * rpc/encoded binding uses) beside the operations a user wants. Each is recorded with the reason
 * it failed; whatever refers to it is left out too. If a binding's operation needs one, the plan
 * leaves that operation out (or refuses the file when nothing is left) naming the reason.
 */
import { GeneratorError } from '../errors.js';
import { clark, type Message, type ModelWarning, type SchemaSet, type SourceLocation } from '../model/index.js';

/** A definition left out: `key` is `type:`, `element:`, `message:` or `binding:` and its `{ns}local`. */
export interface BrokenDefinition {
  readonly key: string;
  readonly code: string;
  /** The reason, as the refusal said it (without location). */
  readonly what: string;
  /** Where the reason lies. */
  readonly source: SourceLocation;
  /** Set when it is left out because it uses `via`, which is (the reason is then `via`'s). */
  readonly via?: string;
}

/** Runs `read`; a GeneratorError becomes a broken definition instead of a refusal. */
export function tolerate<T>(key: string, broken: Map<string, BrokenDefinition>, read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof GeneratorError)) throw error;
    broken.set(key, { key, code: error.code, what: error.what, source: { file: error.file, line: error.line } });
    return undefined;
  }
}

/** The definition keys a value refers to by name (named types, derivation bases, part elements). */
function referencesOf(value: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) referencesOf(item, out);
    return out;
  }
  if (value === null || typeof value !== 'object') return out;
  const record = value as Record<string, unknown>;
  const name = record.name as { ns?: unknown; local?: unknown } | undefined;
  const isQName = (q: unknown): q is { ns: string; local: string } =>
    typeof q === 'object' && q !== null && typeof (q as { local?: unknown }).local === 'string';
  if (record.kind === 'named' && isQName(name)) out.add(`type:${clark(name)}`);
  if (typeof record.derivation === 'string' && isQName(name)) out.add(`type:${clark(name)}`);
  if (isQName(record.element) && typeof record.name === 'string') out.add(`element:${clark(record.element)}`);
  for (const [field, child] of Object.entries(record)) if (field !== 'source') referencesOf(child, out);
  return out;
}

/**
 * Leaves out, until nothing changes, every definition that refers to a broken one; returns the
 * schema and messages without them, and one warning per definition left out.
 */
export function dropDependents(
  schema: SchemaSet,
  messages: readonly Message[],
  broken: Map<string, BrokenDefinition>,
): { schema: SchemaSet; messages: Message[]; warnings: ModelWarning[] } {
  const types = { ...schema.types };
  const elements = { ...schema.elements };
  let kept = [...messages];
  for (let changed = broken.size > 0; changed; ) {
    changed = false;
    const check = (key: string, value: unknown): boolean => {
      const bad = [...referencesOf(value, new Set())].find((ref) => broken.has(ref));
      if (bad === undefined) return false;
      // The root cause travels along: a refusal that needs this definition names what is wrong.
      const root = broken.get(bad)!;
      broken.set(key, { ...root, key, via: bad });
      changed = true;
      return true;
    };
    for (const [name, type] of Object.entries(types)) if (check(`type:${name}`, type)) delete types[name];
    for (const [name, element] of Object.entries(elements))
      if (check(`element:${name}`, element)) delete elements[name];
    kept = kept.filter((m) => !check(`message:${clark(m.name)}`, m.parts));
  }
  const warnings = [...broken.values()].map(omissionWarning);
  return { schema: { ...schema, types, elements }, messages: kept, warnings };
}

/** The warning for a definition left out, at the line of its reason. */
export function omissionWarning(b: BrokenDefinition): ModelWarning {
  return {
    code: 'DEFINITION_OMITTED',
    message: `${describe(b.key)} is left out: ${b.via === undefined ? '' : `it uses ${describe(b.via)}, which is left out: `}${b.what}`,
    source: b.source,
  };
}

/** `type:{ns}local` -> `type {ns}local`. */
export function describe(key: string): string {
  const colon = key.indexOf(':');
  return `${key.slice(0, colon)} ${key.slice(colon + 1)}`;
}
