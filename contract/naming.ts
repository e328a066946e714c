/**
 * TypeScript identifiers from WSDL/XSD names.
 *
 * Every allocated name keeps its WSDL name beside it (`name` vs `sourceName`). Collisions are
 * resolved by one fixed rule, applied in a fixed order, so that regenerating the same WSDL
 * always yields the same names and an unrelated addition to a WSDL renames as little as
 * possible:
 *
 * 1. The base name: the WSDL local name with every character that cannot appear in a
 *    TypeScript identifier replaced by `_` (`User.GetApiKey` -> `User_GetApiKey`; the ASMX
 *    escape `_x0020_` is already legal and kept). Type names get an upper-case first letter
 *    (`tCountryInfo` -> `TCountryInfo`) and otherwise keep the WSDL spelling (`SMSSend`).
 * 2. If taken (by an earlier claimant or a reserved word), the kind suffix: `Type` for
 *    schema types, `Element` for global elements, `Attribute` for attributes.
 * 3. Then the namespace-derived suffix `_<Tag>` (see `namespaceTag`).
 * 4. Then the kind suffix and the namespace tag together.
 * 5. Then numeric suffixes `_2`, `_3`, ... on the base name.
 *
 * Claimants are processed in priority order: named schema types first (document order), then
 * global elements with anonymous types, then nested anonymous types, then synthesised types;
 * within a kind, document order. The first claimant keeps the plain name.
 */

export interface AllocatedName {
  /** The TypeScript identifier (or property key, unquoted). */
  readonly name: string;
  /** The name as written in the WSDL. */
  readonly sourceName: string;
}

/** Reserved words and strict-mode/contextual names that cannot name a type or a binding. */
export const TS_RESERVED_WORDS: ReadonlySet<string> = new Set([
  'break',
  'case',
  'catch',
  'class',
  'const',
  'continue',
  'debugger',
  'default',
  'delete',
  'do',
  'else',
  'enum',
  'export',
  'extends',
  'false',
  'finally',
  'for',
  'function',
  'if',
  'import',
  'in',
  'instanceof',
  'new',
  'null',
  'return',
  'super',
  'switch',
  'this',
  'throw',
  'true',
  'try',
  'typeof',
  'var',
  'void',
  'while',
  'with',
  'implements',
  'interface',
  'let',
  'package',
  'private',
  'protected',
  'public',
  'static',
  'yield',
  'await',
  'arguments',
  'eval',
  // Type names TypeScript refuses for declarations, or that generated code relies on.
  'any',
  'unknown',
  'never',
  'object',
  'string',
  'number',
  'boolean',
  'bigint',
  'symbol',
  'undefined',
  'type',
  'Array',
  'Promise',
  'Uint8Array',
  'Record',
  'Object',
  'String',
  'Number',
  'Boolean',
  'BigInt',
  'Symbol',
  'Function',
  'Error',
  'ReturnType',
  'Partial',
]);

const IDENTIFIER = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*$/u;
const NOT_IDENTIFIER_PART = /[^\p{ID_Continue}$\u200C\u200D]/gu;

/** A legal identifier as close to `source` as possible (not checked against reserved words). */
export function toIdentifier(source: string): string {
  const replaced = source.replace(NOT_IDENTIFIER_PART, '_');
  if (replaced === '') return '_';
  return /^[\p{ID_Start}$_]/u.test(replaced) ? replaced : `_${replaced}`;
}

/** PascalCase-ish type name: only the first letter changes, the WSDL spelling survives. */
export function toTypeIdentifier(source: string): string {
  const id = toIdentifier(source);
  return id.charAt(0).toUpperCase() + id.slice(1);
}

/** A property key as written in TS: bare when it is an identifier name, else quoted. */
export function propertyKey(prop: string): string {
  // Reserved words are fine as property names (`{ default: string }`), so only syntax matters.
  return IDENTIFIER.test(prop) ? prop : quoteString(prop);
}

export function quoteString(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r')}'`;
}

/**
 * A short PascalCase tag for a namespace URI, used only to disambiguate clashing names:
 * the last path segment (`.../Serialization/` -> `Serialization`), else the first host label
 * that is not `www` (`http://tempuri.org/` -> `Tempuri`), `NoNamespace` for ''.
 */
export function namespaceTag(ns: string): string {
  if (ns === '') return 'NoNamespace';
  const withoutScheme = ns.replace(/^[a-z][a-z0-9+.-]*:(\/\/)?/i, '');
  const segments = withoutScheme.split(/[/:#?]/).filter((s) => s !== '');
  const [host = '', ...path] = segments;
  const last = path.at(-1);
  const raw = last ?? host.split('.').find((label) => label !== 'www') ?? host;
  const tag = toTypeIdentifier(raw.replace(/[^A-Za-z0-9_]/g, '_'));
  return tag === '_' ? 'Ns' : tag;
}

/** Claims names from one scope (types of a service, props of a type, methods of a service). */
export class NameScope {
  readonly #taken = new Set<string>();

  constructor(reserved: Iterable<string> = []) {
    for (const name of reserved) this.#taken.add(name);
  }

  has(name: string): boolean {
    return this.#taken.has(name);
  }

  /** Takes the first free candidate, else the first candidate with `_2`, `_3`, ... */
  claim(candidates: readonly string[]): string {
    for (const candidate of candidates) {
      if (!this.#taken.has(candidate)) {
        this.#taken.add(candidate);
        return candidate;
      }
    }
    const base = candidates[0] ?? '_';
    for (let n = 2; ; n++) {
      const numbered = `${base}_${n}`;
      if (!this.#taken.has(numbered)) {
        this.#taken.add(numbered);
        return numbered;
      }
    }
  }
}

export type NameKind = 'type' | 'element' | 'nested' | 'synthetic' | 'attribute' | 'property' | 'group' | 'method';

const KIND_SUFFIX: Record<NameKind, string> = {
  type: 'Type',
  element: 'Element',
  nested: 'Type',
  synthetic: 'Type',
  attribute: 'Attribute',
  property: 'Element',
  group: 'Group',
  method: 'Operation',
};

/** The candidate list of the documented rule (steps 1-4; step 5 is `NameScope.claim`). */
export function candidatesFor(base: string, kind: NameKind, ns: string): string[] {
  const suffix = KIND_SUFFIX[kind];
  const tag = namespaceTag(ns);
  return [base, `${base}${suffix}`, `${base}_${tag}`, `${base}${suffix}_${tag}`];
}

export interface TypeNameRequest {
  /** Stable key of the thing being named (Clark key, anonymous-type key, ...). */
  readonly key: string;
  readonly sourceName: string;
  readonly ns: string;
  readonly kind: 'type' | 'element' | 'nested' | 'synthetic';
  /** Override for the base (nested types derive theirs from the parent's TS name). */
  readonly base?: string;
}

const KIND_PRIORITY = { type: 0, element: 1, nested: 2, synthetic: 3 } as const;

/** Allocates type names for one generated module; requests keep document order within a kind. */
export function allocateTypeNames(
  requests: readonly TypeNameRequest[],
  reserved: Iterable<string>,
): Map<string, AllocatedName> {
  const scope = new NameScope(reserved);
  const ordered = [...requests].map((r, index) => ({ r, index }));
  ordered.sort((a, b) => KIND_PRIORITY[a.r.kind] - KIND_PRIORITY[b.r.kind] || a.index - b.index);
  const names = new Map<string, AllocatedName>();
  for (const { r } of ordered) {
    const base = r.base ?? toTypeIdentifier(r.sourceName);
    names.set(r.key, { name: scope.claim(candidatesFor(base, r.kind, r.ns)), sourceName: r.sourceName });
  }
  return names;
}

export interface MemberNameRequest {
  readonly local: string;
  readonly ns: string;
  readonly kind: 'element' | 'attribute' | 'any';
}

/**
 * What every object has from Object.prototype (`constructor`, `toString`, `__proto__`, ...): no
 * property takes these names. Read from a value that leaves the field out, `constructor` is a
 * function, not undefined; assigned from the wire, `__proto__` would set the object's prototype.
 */
const OBJECT_MEMBERS: readonly string[] = Object.getOwnPropertyNames(Object.prototype);

/** A scope for the property names of one object type: `reserved` and Object.prototype's members taken. */
export function propertyNameScope(reserved: Iterable<string> = []): NameScope {
  return new NameScope([...OBJECT_MEMBERS, ...reserved]);
}

/**
 * Property names of one object type, in wire order: the element or attribute local name;
 * clashes (an attribute and an element of the same name, the same local name in two
 * namespaces, `value` next to simpleContent text) follow the documented rule with the
 * `Attribute` / `Element` suffix. `reserved` holds names already used (e.g. `value`).
 */
export function allocatePropertyNames(
  members: readonly MemberNameRequest[],
  reserved: Iterable<string> = [],
): string[] {
  const scope = propertyNameScope(reserved);
  return members.map((m) => {
    const kind: NameKind = m.kind === 'attribute' ? 'attribute' : 'property';
    const base = m.kind === 'any' ? 'any' : m.local;
    return scope.claim(candidatesFor(base, kind, m.ns));
  });
}

export interface MethodNameRequest {
  readonly key: string;
  /** wsdl:operation/@name. */
  readonly operation: string;
  /** wsdl:input/@name (ASMX MessageName): the second choice for overloaded operations. */
  readonly messageName?: string;
}

/** Members every generated client class has; operations may not take these names. */
export const CLIENT_MEMBERS: readonly string[] = ['close', 'constructor'];

/** Method names, unique per service: the operation name, then its MessageName, then the rule. */
export function allocateMethodNames(requests: readonly MethodNameRequest[]): Map<string, AllocatedName> {
  const scope = new NameScope(CLIENT_MEMBERS);
  const names = new Map<string, AllocatedName>();
  for (const r of requests) {
    const base = toIdentifier(r.operation);
    const candidates = [base];
    if (r.messageName !== undefined && r.messageName !== r.operation) candidates.push(toIdentifier(r.messageName));
    candidates.push(`${base}Operation`);
    names.set(r.key, { name: scope.claim(candidates), sourceName: r.operation });
  }
  return names;
}

/** The identifiers generated per service; type names must stay clear of them. */
/** Names the generated modules import from the runtime or declare besides the schema types. */
export const RUNTIME_NAMES: readonly string[] = [
  'XmlElement',
  'ServiceDescriptor',
  'OperationDescriptor',
  'ServiceClient',
  'ClientOptions',
  'CallOptions',
  'RequestContext',
  'ServerOptions',
  'OperationHandler',
  'createRequestListener',
];

/**
 * The identifier a service's generated names start with: its name as a type identifier, with
 * `Service` appended when one of its names would be a runtime name the same file imports (a
 * service named `Service` would declare `ServiceClient` beside the runtime's `ServiceClient`).
 */
export function serviceIdent(serviceName: string): string {
  const ident = toTypeIdentifier(serviceName);
  const clashes = (candidate: string): boolean =>
    Object.values(serviceIdentifiers(candidate)).some((name) => RUNTIME_NAMES.includes(name));
  return clashes(ident) ? `${ident}Service` : ident;
}

export function serviceIdentifiers(serviceIdent: string): {
  client: string;
  clientOptions: string;
  handlers: string;
  descriptor: string;
  listenerFactory: string;
} {
  return {
    client: `${serviceIdent}Client`,
    clientOptions: `${serviceIdent}ClientOptions`,
    handlers: `${serviceIdent}Handlers`,
    descriptor: `${serviceIdent}Descriptor`,
    listenerFactory: `create${serviceIdent}Listener`,
  };
}

/** Output folder of a service: kebab-case of its identifier (`ServiceAPI` -> `service-api`). */
export function serviceFolder(serviceName: string): string {
  const id = toIdentifier(serviceName);
  const words = id
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '');
  const folder = words.join('-').toLowerCase();
  return folder === '' ? 'service' : folder;
}
