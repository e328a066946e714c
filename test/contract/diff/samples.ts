/**
 * Sample values for the execution proof, in profiles that between them exercise every
 * difference a diff rule names:
 *
 * - `full`: every optional member present, repeated members twice, numbers at the top of their
 *   type's range, text that is no number;
 * - `minimal`: required members only, numbers at the bottom of their range;
 * - `sparse`: like minimal, but optional members that hold structures or arrays are present
 *   (with their own required members only), so a change inside an optional structure shows;
 * - `nulls`: required members, and every nillable member as nil;
 * - `must-understand`: `full`, with every request header block marked mustUnderstand.
 *
 * Where the other version differs (an enumeration value, a concrete derived type only one
 * version has), the sender picks what only it has: a compatible verdict must hold for those
 * values too, and a breaking one needs them to show.
 */
import type {
  ComplexTypeDescriptor,
  FieldDescriptor,
  ServiceDescriptor,
  ValueDescriptor,
} from '../../../runtime/descriptor.js';
import { readXml } from '../../../runtime/xml/reader.js';

export type Profile = 'full' | 'minimal' | 'sparse' | 'nulls' | 'must-understand';
export const PROFILES: readonly Profile[] = ['full', 'minimal', 'sparse', 'nulls', 'must-understand'];

/** What only the sender's version has: enumeration values, concrete types by local name. */
export interface Distinct {
  readonly values: ReadonlySet<string>;
  readonly types: ReadonlySet<string>;
}

const RANGES: Record<string, readonly [number | bigint, number | bigint]> = {
  byte: [-128, 127],
  short: [-32768, 32767],
  int: [-2147483648, 2147483647],
  unsignedByte: [0, 255],
  unsignedShort: [0, 65535],
  char: [0, 65535],
  unsignedInt: [0, 4294967295],
  long: [-(2n ** 63n), 2n ** 63n - 1n],
  unsignedLong: [0n, 2n ** 64n - 1n],
  integer: [-(10n ** 30n), 10n ** 30n],
  nonNegativeInteger: [0n, 10n ** 30n],
  positiveInteger: [1n, 10n ** 30n],
  nonPositiveInteger: [-(10n ** 30n), 0n],
  negativeInteger: [-(10n ** 30n), -1n],
};

const TEXT: Record<string, string> = {
  dateTime: '2024-02-29T23:59:59',
  date: '2024-02-29',
  time: '12:00:00',
  duration: 'P1DT2H',
  guid: '0f8fad5b-d9cb-469f-a165-70867728950e',
  anyURI: 'http://example.com/',
};

export class Sampler {
  constructor(
    private readonly d: ServiceDescriptor,
    private readonly profile: Profile,
    private readonly distinct: Distinct,
  ) {}

  value(vd: ValueDescriptor, depth = 0): unknown {
    if (vd.kind === 'xml') return readXml('<s:any xmlns:s="urn:sample"><s:b>text</s:b></s:any>').root;
    if (vd.kind === 'primitive') return this.primitive(vd.xsd, vd.enumeration);
    const type = this.d.types[vd.type];
    if (type === undefined) throw new Error(`unknown type ${vd.type}`);
    if (type.kind === 'simple') return this.primitive(type.list === true ? 'string' : type.xsd, type.enumeration);
    return this.complex(type, depth);
  }

  primitive(xsd: string, enumeration: readonly string[] | undefined): unknown {
    if (enumeration !== undefined && enumeration.length > 0) {
      const chosen =
        enumeration.find((v) => this.distinct.values.has(v)) ??
        (this.profile === 'minimal' ? enumeration[enumeration.length - 1]! : enumeration[0]!);
      return xsd in RANGES ? (typeof RANGES[xsd]![0] === 'bigint' ? BigInt(chosen) : Number(chosen)) : chosen;
    }
    const range = RANGES[xsd];
    const low = this.profile === 'minimal' || this.profile === 'sparse';
    if (range !== undefined)
      return low ? range[0] : this.profile === 'nulls' ? (typeof range[0] === 'bigint' ? 1n : 1) : range[1];
    switch (xsd) {
      case 'boolean':
        return this.profile !== 'minimal';
      case 'float':
      case 'double':
        return this.profile === 'minimal' ? -2.5e300 : 1.5;
      case 'decimal':
        // Beyond a double's precision: a decimal read as a double shows the loss.
        return this.profile === 'minimal' ? '-0.5' : '79228162514264337593543950335';
      case 'base64Binary':
      case 'hexBinary':
        return new Uint8Array(this.profile === 'minimal' ? [] : [0xde, 0xad, 0xbe]);
      default:
        return TEXT[xsd] ?? (this.profile === 'minimal' ? '' : 'text');
    }
  }

  private complex(declared: ComplexTypeDescriptor, depth: number): unknown {
    if (declared.arrayItem !== undefined) return this.items(declared.arrayItem, depth);
    const concrete = this.concrete(declared);
    const out: Record<string, unknown> =
      concrete === declared && (declared.derived ?? []).length === 0 ? {} : { $type: concrete.tag };
    const type = concrete;
    if (type.text !== undefined) out.value = this.value(type.text, depth + 1);
    let choiceTaken = false;
    for (const field of type.fields) {
      if (field.wildcard === true) continue;
      if (field.inChoice === true) {
        if (choiceTaken) continue;
        choiceTaken = true;
      }
      const v = this.field(field, depth);
      if (v !== undefined) out[field.prop] = v;
    }
    for (const attribute of type.attributes) {
      if (attribute.required || this.profile === 'full' || this.profile === 'must-understand')
        out[attribute.prop] = this.value(attribute.value, depth + 1);
    }
    return out;
  }

  private field(field: FieldDescriptor, depth: number): unknown {
    const required = field.minOccurs > 0 && field.inChoice !== true;
    const rich = this.profile === 'full' || this.profile === 'must-understand';
    if (this.profile === 'nulls' && field.nillable) return field.maxOccurs === 1 ? null : [null];
    const structure = field.value.kind === 'type' && this.d.types[field.value.type]?.kind === 'complex';
    const wanted = this.profile === 'sparse' ? structure : rich;
    if (!required && (!wanted || depth > 6)) return undefined;
    if (field.maxOccurs === 1) return this.value(field.value, depth + 1);
    const count = rich && depth <= 6 ? Math.max(2, field.minOccurs) : Math.max(1, field.minOccurs);
    return Array.from({ length: count }, () => this.value(field.value, depth + 1));
  }

  private items(item: FieldDescriptor, depth: number): unknown[] {
    if (depth > 6) return [];
    if (this.profile === 'nulls' && item.nillable) return [null];
    const count = this.profile === 'full' || this.profile === 'must-understand' ? 2 : 1;
    return Array.from({ length: count }, () => this.value(item.value, depth + 1));
  }

  /** A polymorphic declared type: a concrete type only this version has, else the first or last concrete one. */
  private concrete(declared: ComplexTypeDescriptor): ComplexTypeDescriptor {
    const keys = declared.derived ?? [];
    if (keys.length === 0) return declared;
    const all = [declared, ...keys.map((k) => this.d.types[k] as ComplexTypeDescriptor)].filter(
      (t) => t.abstract !== true,
    );
    const distinct = all.find((t) => t.name !== undefined && this.distinct.types.has(t.name.local));
    const chosen = distinct ?? (this.profile === 'minimal' ? all[0] : all[all.length - 1]);
    if (chosen === undefined) throw new Error('no concrete type to sample');
    return chosen;
  }
}

/** Everything only `self` has, compared with `other`. */
export function distinctOf(self: readonly ServiceDescriptor[], other: readonly ServiceDescriptor[]): Distinct {
  const otherValues = new Set(other.flatMap(enumerationValues));
  const concreteElsewhere = new Set(
    other.flatMap((d) =>
      Object.values(d.types).flatMap((t) =>
        t.kind === 'complex' && t.name !== undefined && t.abstract !== true ? [t.name.local] : [],
      ),
    ),
  );
  return {
    values: new Set(self.flatMap(enumerationValues).filter((v) => !otherValues.has(v))),
    types: new Set(
      self.flatMap((d) =>
        Object.values(d.types).flatMap((t) =>
          t.kind === 'complex' && t.name !== undefined && t.abstract !== true && !concreteElsewhere.has(t.name.local)
            ? [t.name.local]
            : [],
        ),
      ),
    ),
  };
}

function enumerationValues(d: ServiceDescriptor): string[] {
  const out: string[] = [];
  const add = (vd: ValueDescriptor | undefined): void => {
    if (vd?.kind === 'primitive') out.push(...(vd.enumeration ?? []));
  };
  for (const element of Object.values(d.elements)) add(element.value);
  for (const type of Object.values(d.types)) {
    if (type.kind === 'simple') out.push(...(type.enumeration ?? []));
    else {
      for (const f of [...type.fields, ...(type.arrayItem === undefined ? [] : [type.arrayItem])]) add(f.value);
      for (const a of type.attributes) add(a.value);
      add(type.text);
    }
  }
  for (const b of d.bindings)
    for (const op of b.operations) if (op.input.kind === 'params') for (const p of op.input.params) add(p.value);
  return out;
}
