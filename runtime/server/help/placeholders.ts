/**
 * Placeholder values for the help pages' sample messages, written by the runtime's own encoders
 * so that a sample cannot drift from the wire.
 *
 * A placeholder names a type (`string`, `int`, `dateTime`, `A or B` for an enumeration), which
 * the codecs would refuse as an `int`. So the samples are encoded against a copy of the
 * descriptor in which every simple value is a plain string: the same elements, namespaces,
 * order, attributes, arrays, xsi:type and headers — only the lexical check is left out. Each
 * placeholder is a marker (private-use characters around a number) that the page replaces with
 * the type's name after escaping, whether it ended up in XML text, an attribute or a URL.
 */
import type {
  ComplexTypeDescriptor,
  FieldDescriptor,
  OperationDescriptor,
  ServiceDescriptor,
  TypeDescriptor,
  ValueDescriptor,
} from '../../descriptor.js';
import type { XmlElement } from '../../xml/types.js';
import { escapeHtml as html } from '../../escape/html.js';

const TEXT: ValueDescriptor = { kind: 'primitive', xsd: 'string' };

/**
 * A fresh object for every value descriptor, not only the primitive ones: the codec caches what
 * a value descriptor resolves to by the object, and the copy's must resolve to the copy's types.
 */
function asText(vd: ValueDescriptor): ValueDescriptor {
  return vd.kind === 'primitive' ? TEXT : { ...vd };
}

function textField<F extends { readonly value: ValueDescriptor }>(field: F): F {
  return { ...field, value: asText(field.value) };
}

function textType(type: TypeDescriptor): TypeDescriptor {
  if (type.kind === 'simple')
    return type.name === undefined
      ? { kind: 'simple', xsd: 'string' }
      : { kind: 'simple', name: type.name, xsd: 'string' };
  return {
    ...type,
    fields: type.fields.map(textField),
    attributes: type.attributes.map(textField),
    ...(type.arrayItem === undefined ? {} : { arrayItem: textField(type.arrayItem) }),
    ...(type.text === undefined ? {} : { text: asText(type.text) }),
  };
}

function textOperation(op: OperationDescriptor): OperationDescriptor {
  if (op.input.kind !== 'params') return op;
  return { ...op, input: { kind: 'params', params: op.input.params.map(textField) } };
}

export interface PlaceholderDescriptor {
  readonly descriptor: ServiceDescriptor;
  /** The copy's operation for one of the original descriptor's. */
  operation(op: OperationDescriptor): OperationDescriptor;
}

/** The descriptor with every simple value made a string (see the module comment). */
export function placeholderDescriptor(d: ServiceDescriptor): PlaceholderDescriptor {
  const operations = new Map<OperationDescriptor, OperationDescriptor>();
  const copyOf = (op: OperationDescriptor): OperationDescriptor => {
    let copy = operations.get(op);
    if (copy === undefined) operations.set(op, (copy = textOperation(op)));
    return copy;
  };
  const descriptor: ServiceDescriptor = {
    ...d,
    bindings: d.bindings.map((b) => ({ ...b, operations: b.operations.map(copyOf) })),
    elements: Object.fromEntries(Object.entries(d.elements).map(([key, e]) => [key, { ...e, value: asText(e.value) }])),
    types: Object.fromEntries(Object.entries(d.types).map(([key, t]) => [key, textType(t)])),
  };
  return { descriptor, operation: copyOf };
}

const MARKER = /(?:\uE000|%EE%80%80)(\d+)(?:\uE001|%EE%80%81)/g;

/**
 * Sample values for the original descriptor's types, made of markers. Recursive types stop at
 * the first repetition (an optional field is left out there); arrays get two items, as ASMX's
 * samples show them; every optional field and attribute is present.
 */
export class Placeholders {
  readonly labels: string[] = [];
  private readonly open = new Set<string>();

  constructor(private readonly d: ServiceDescriptor) {}

  /** A marker for `label` (the text the page shows in its place). */
  marker(label: string): string {
    this.labels.push(label);
    return `\uE000${this.labels.length - 1}\uE001`;
  }

  /** `int`, `dateTime`, or `A or B` for an enumeration. */
  simple(xsd: string, enumeration: readonly string[] | undefined): string {
    return this.marker(enumeration !== undefined && enumeration.length > 0 ? enumeration.join(' or ') : xsd);
  }

  /** A value of `vd`, or undefined where a recursive type repeats. */
  value(vd: ValueDescriptor): unknown {
    if (vd.kind === 'primitive') return this.simple(vd.xsd, vd.enumeration);
    if (vd.kind === 'xml') return this.xml();
    const type = this.d.types[vd.type];
    if (type === undefined) return undefined; // the encoder names the missing type
    if (type.kind === 'simple')
      return this.simple(type.list === true ? `list of ${type.xsd}` : type.xsd, type.enumeration);
    if (this.open.has(vd.type)) return undefined;
    this.open.add(vd.type);
    try {
      return this.complex(type);
    } finally {
      this.open.delete(vd.type);
    }
  }

  private complex(declared: ComplexTypeDescriptor): unknown {
    if (declared.arrayItem !== undefined) return this.items(declared.arrayItem);
    const polymorphic = declared.derived !== undefined && declared.derived.length > 0;
    const type = polymorphic && declared.abstract === true ? this.firstConcrete(declared) : declared;
    const record: Record<string, unknown> = polymorphic ? { $type: type.tag } : {};
    for (const field of type.fields) {
      const value =
        field.wildcard === true ? [this.xml()] : field.maxOccurs === 1 ? this.value(field.value) : this.items(field);
      if (value !== undefined) record[field.prop] = value;
    }
    for (const attribute of type.attributes) record[attribute.prop] = this.value(attribute.value);
    if (type.text !== undefined) record.value = this.value(type.text);
    return record;
  }

  private items(field: FieldDescriptor): unknown[] | undefined {
    if (field.group === 'choice') return this.choiceOccurrences(field);
    const first = this.value(field.value);
    return first === undefined ? undefined : [first, this.value(field.value)];
  }

  /** A repeating choice's occurrences hold one member each: the first two members, one per occurrence. */
  private choiceOccurrences(field: FieldDescriptor): unknown[] | undefined {
    const all = this.value(field.value);
    if (all === undefined) return undefined;
    return Object.entries(all as Record<string, unknown>)
      .slice(0, 2)
      .map(([prop, value]) => ({ [prop]: value }));
  }

  private firstConcrete(declared: ComplexTypeDescriptor): ComplexTypeDescriptor {
    for (const key of declared.derived ?? []) {
      const type = this.d.types[key];
      if (type !== undefined && type.kind === 'complex' && type.abstract !== true) return type;
    }
    return declared; // every type abstract: the encoder says so
  }

  /** An XML fragment placeholder (anyType, xs:any). */
  private xml(): XmlElement {
    return {
      type: 'element',
      ns: '',
      local: 'xml',
      prefix: '',
      attributes: [],
      namespaces: {},
      children: [{ type: 'text', text: this.marker('xml') }],
      line: 0,
      column: 0,
    };
  }

  /** Escapes `text` for HTML and shows each marker as its label in a `<var>`. */
  toHtml(text: string): string {
    return html(text).replace(MARKER, (_m, index: string) => `<var>${html(this.labels[Number(index)] ?? '?')}</var>`);
  }
}
