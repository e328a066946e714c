/**
 * TypeScript type expressions for planned values and fields. Records whether `XmlElement` is
 * used so emitters import it only when needed.
 */
import type { PlannedField } from '../../contract/plan/members.js';
import type { SchemaPlan } from '../../contract/plan/schema.js';
import type { TsPrimitive } from '../../contract/plan/type-map.js';
import type { PlannedValue, PrimitiveValue } from '../../contract/plan/values.js';
import { runtime } from './runtime-imports.js';

export class TypeText {
  #usesXml = false;
  readonly #referenced = new Set<string>();

  constructor(private readonly schema: SchemaPlan) {}

  get usesXml(): boolean {
    return this.#usesXml;
  }

  /** Declared type names this printer referred to (for `import type { ... }`), in first-use order. */
  get referenced(): string[] {
    return [...this.#referenced];
  }

  value(value: PlannedValue): string {
    if (value.kind === 'xml') {
      if (value.alias !== undefined) return this.#ref(this.schema.byKey.get(value.alias)!.tsName);
      this.#usesXml = true;
      return runtime.XmlElement.name;
    }
    if (value.kind === 'type') {
      const type = this.schema.byKey.get(value.key)!;
      return this.#ref(type.kind === 'complex' && type.unionName !== undefined ? type.unionName : type.tsName);
    }
    if (value.simpleType !== undefined) {
      const alias = this.schema.byKey.get(value.simpleType);
      if (alias !== undefined) return this.#ref(alias.tsName);
    }
    return primitiveText(value);
  }

  /** The property type of a field: arrays for repeated fields, `| null` for nillable ones. */
  field(field: Pick<PlannedField, 'value' | 'maxOccurs' | 'nillable'> & { readonly wildcard?: boolean }): string {
    const item = this.value(field.value);
    // The runtime collects every element a wildcard matches into a list, whatever maxOccurs says.
    const repeated = field.wildcard === true || field.maxOccurs === 'unbounded' || field.maxOccurs > 1;
    if (!repeated) return field.nillable ? `${item} | null` : item;
    const element = field.nillable ? `${item} | null` : item;
    return /[|&]/.test(element) ? `(${element})[]` : `${element}[]`;
  }

  #ref(name: string): string {
    this.#referenced.add(name);
    return name;
  }
}

/** A primitive's TS type: a literal union for enumerations, else the mapped primitive. */
export function primitiveText(value: PrimitiveValue): string {
  if (value.enumeration !== undefined && value.enumeration.length > 0 && value.list !== true) {
    const literals = value.enumeration.map((v) => enumerationLiteral(v, value.ts));
    if (literals.every((l): l is string => l !== undefined)) return [...new Set(literals)].join(' | ');
  }
  return value.ts;
}

/** A TS literal type for one enumeration value of a simple type with the given primitive. */
function enumerationLiteral(value: string, ts: TsPrimitive): string | undefined {
  if (ts === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\r?\n/g, '\\n')}'`;
  if (ts === 'number' && /^[+-]?\d+(\.\d+)?$/.test(value.trim())) return String(Number(value));
  if (ts === 'bigint' && /^[+-]?\d+$/.test(value.trim())) return `${BigInt(value.trim())}n`;
  return undefined;
}
