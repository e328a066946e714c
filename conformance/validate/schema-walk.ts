/**
 * A response value validated against the schema, at every depth: the walk visits each element
 * with the type the descriptor declares for it and records every finding under the rule it
 * breaks. The checks (response-fields.ts, result-type.ts, xsi-type.ts, array-item.ts) each
 * report their rule's findings, so one defect is named by one check:
 *
 * - `occurrence`: a required element or attribute missing, an element repeated beyond its
 *   maxOccurs, an element the type does not declare (matched by local name);
 * - `namespace`: a declared element in another namespace than its declaration's;
 * - `order`: members of a sequence out of schema order;
 * - `value`: a simple value outside its type's lexical space or enumeration, child elements
 *   where text belongs, xsi:nil on an element that is not nillable;
 * - `xsi-type`: an xsi:type that names no type derived from the declared one (or cannot be
 *   resolved), none where the declared type is abstract;
 * - `array-item`: a child of an array wrapper (ArrayOfX) that is not its item element.
 */
import type {
  ComplexTypeDescriptor,
  FieldDescriptor,
  ServiceDescriptor,
  ValueDescriptor,
} from '../../runtime/descriptor.js';
import { resolveValue } from '../../runtime/codec/index.js';
import { XSI_NS } from '../../runtime/soap/version.js';
import { childElements, resolveQNameValue, textContent } from '../../runtime/xml/reader.js';
import type { XmlElement } from '../../runtime/xml/types.js';
import type { ExpectedField } from '../types.js';

export type SchemaRule = 'occurrence' | 'namespace' | 'order' | 'value' | 'xsi-type' | 'array-item';

export interface SchemaFinding {
  readonly rule: SchemaRule;
  /** Where: element path from the checked element (`EchoOrderResult/Lines/OrderLine[2]/Shape`). */
  readonly path: string;
  readonly expected: string;
  readonly actual: string;
  readonly message: string;
}

/** A member as the walk needs it: a descriptor field, or a response wrapper's expected field. */
export interface Member {
  readonly name: { readonly ns: string; readonly local: string };
  readonly value: ValueDescriptor;
  readonly required: boolean;
  /** -1 for unbounded. */
  readonly maxOccurs: number;
  readonly nillable: boolean;
  readonly wildcard?: boolean;
}

function memberOfField(field: FieldDescriptor): Member {
  return {
    name: field.name,
    value: field.value,
    required: field.minOccurs >= 1 && field.inChoice !== true,
    maxOccurs: field.maxOccurs,
    nillable: field.nillable,
    ...(field.wildcard === true ? { wildcard: true } : {}),
  };
}

function memberOfExpected(field: ExpectedField): Member {
  return {
    name: field.name,
    value: field.value,
    required: field.required,
    maxOccurs: field.maxOccurs,
    nillable: field.nillable,
  };
}

/** Lexical forms of the XSD primitives (XSD Part 2 §3.2, §3.3), after whitespace collapsing. */
const LEXICAL: Readonly<Record<string, RegExp>> = {
  boolean: /^(true|false|1|0)$/,
  int: /^[+-]?\d+$/,
  integer: /^[+-]?\d+$/,
  long: /^[+-]?\d+$/,
  short: /^[+-]?\d+$/,
  byte: /^[+-]?\d+$/,
  nonNegativeInteger: /^\+?\d+$/,
  positiveInteger: /^\+?\d+$/,
  nonPositiveInteger: /^(-\d+|\+?0+)$/,
  negativeInteger: /^-\d+$/,
  unsignedInt: /^\+?\d+$/,
  unsignedLong: /^\+?\d+$/,
  unsignedShort: /^\+?\d+$/,
  unsignedByte: /^\+?\d+$/,
  char: /^\+?\d+$/,
  decimal: /^[+-]?(\d+(\.\d*)?|\.\d+)$/,
  double: /^([+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|INF|-INF|NaN)$/,
  float: /^([+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|INF|-INF|NaN)$/,
  dateTime: /^-?\d{4,}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/,
  date: /^-?\d{4,}-\d{2}-\d{2}(Z|[+-]\d{2}:\d{2})?$/,
  time: /^\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/,
  duration: /^-?P(?=\d|T\d)(\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$/,
  guid: /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
  base64Binary: /^[A-Za-z0-9+/= \t\r\n]*$/,
  hexBinary: /^([0-9a-fA-F]{2})*$/,
};

/** Ranges of the bounded integer types: a lexically valid number may still be out of range. */
const RANGES: Readonly<Record<string, readonly [bigint, bigint]>> = {
  int: [-(2n ** 31n), 2n ** 31n - 1n],
  short: [-32768n, 32767n],
  byte: [-128n, 127n],
  long: [-(2n ** 63n), 2n ** 63n - 1n],
  unsignedInt: [0n, 2n ** 32n - 1n],
  unsignedShort: [0n, 65535n],
  unsignedByte: [0n, 255n],
  unsignedLong: [0n, 2n ** 64n - 1n],
  char: [0n, 65535n],
};

function truncate(text: string, max = 80): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} chars)`;
}

function isWhitespaceCollapsed(xsd: string): boolean {
  return xsd !== 'string' && xsd !== 'normalizedString' && xsd !== 'anySimpleType';
}

/** Mismatches of a simple value's text with its primitive and enumeration. */
function simpleValueProblem(
  xsd: string,
  enumeration: readonly string[] | undefined,
  text: string,
): { expected: string; why: string } | undefined {
  const value = isWhitespaceCollapsed(xsd) ? text.trim() : text;
  const pattern = LEXICAL[xsd];
  if (pattern !== undefined && !pattern.test(value)) return { expected: `xs:${xsd}`, why: `is not a valid xs:${xsd}` };
  const range = RANGES[xsd];
  if (range !== undefined) {
    const n = BigInt(value.replace(/^\+/, ''));
    if (n < range[0] || n > range[1])
      return { expected: `xs:${xsd} (${range[0]}..${range[1]})`, why: `is outside the range of xs:${xsd}` };
  }
  if (enumeration !== undefined && enumeration.length > 0 && !enumeration.includes(value)) {
    return { expected: `one of ${enumeration.join(', ')}`, why: 'is not an allowed value' };
  }
  return undefined;
}

class Walk {
  readonly findings: SchemaFinding[] = [];
  constructor(readonly d: ServiceDescriptor) {}

  add(rule: SchemaRule, path: string, expected: string, actual: string, message: string): void {
    this.findings.push({ rule, path, expected, actual, message });
  }

  /** One element against the value it is declared to hold. */
  element(el: XmlElement, vd: ValueDescriptor, nillable: boolean, path: string): void {
    const nil = el.attributes.find((a) => a.ns === XSI_NS && a.local === 'nil')?.value.trim();
    if (nil === 'true' || nil === '1') {
      if (!nillable)
        this.add('value', path, `<${el.local}> with a value`, 'xsi:nil="true"', `<${path}> is not nillable`);
      else if (childElements(el).length > 0 || textContent(el).trim() !== '')
        this.add('value', path, 'an empty element', 'content', `<${path}> is xsi:nil and must be empty`);
      return;
    }
    if (vd.kind === 'xml') return;
    let resolved: ReturnType<typeof resolveValue>;
    try {
      resolved = resolveValue(this.d, vd, path);
    } catch {
      return; // a descriptor without the type: nothing to compare with
    }
    if (resolved.kind === 'primitive') {
      this.simple(
        el,
        vd.kind === 'type' ? 'string' : resolved.xsd,
        vd.kind === 'type' ? undefined : resolved.enumeration,
        path,
      );
      return;
    }
    if (resolved.kind !== 'complex') return;
    const declaredKey = vd.kind === 'type' ? vd.type : '';
    this.complex(el, declaredKey, resolved.type, path);
  }

  simple(el: XmlElement, xsd: string, enumeration: readonly string[] | undefined, path: string): void {
    const kids = childElements(el);
    if (kids.length > 0) {
      this.add(
        'value',
        path,
        `<${el.local}> of type xs:${xsd} (text only)`,
        `child <${kids[0]!.local}>`,
        `<${path}> must hold text, not elements`,
      );
      return;
    }
    const text = textContent(el);
    const problem = simpleValueProblem(xsd, enumeration, text);
    if (problem !== undefined)
      this.add(
        'value',
        path,
        problem.expected,
        JSON.stringify(truncate(isWhitespaceCollapsed(xsd) ? text.trim() : text)),
        `<${path}> ${problem.why}`,
      );
  }

  /**
   * The type to validate the element's content with: the one its xsi:type names when that is
   * the declared type or derived from it. `undefined` when the content cannot be judged (an
   * xsi:type outside the hierarchy, or none where the declared type is abstract): the xsi-type
   * finding is then the one finding, not a cascade of undeclared members.
   */
  actualType(
    el: XmlElement,
    declaredKey: string,
    declared: ComplexTypeDescriptor,
    path: string,
  ): ComplexTypeDescriptor | undefined {
    const attribute = el.attributes.find((a) => a.ns === XSI_NS && a.local === 'type');
    const allowed = [declaredKey, ...(declared.derived ?? [])];
    const local = (key: string): string => key.slice(key.lastIndexOf('}') + 1);
    if (attribute === undefined) return this.untyped(el, declaredKey, declared, path);
    let key: string;
    try {
      const q = resolveQNameValue(el, attribute.value);
      key = `{${q.ns}}${q.local}`;
    } catch {
      this.add(
        'xsi-type',
        path,
        'a resolvable QName',
        JSON.stringify(attribute.value),
        `<${path}> has an xsi:type whose prefix is not declared`,
      );
      return undefined;
    }
    if (!allowed.includes(key)) {
      this.add(
        'xsi-type',
        path,
        `one of ${allowed.map(local).join(', ')}`,
        key,
        `<${path}> has xsi:type ${key}, which is neither ${local(declaredKey)} nor a type derived from it`,
      );
      return undefined;
    }
    const type = this.d.types[key];
    if (type?.kind !== 'complex') return declared;
    if (type.abstract === true) {
      this.add('xsi-type', path, 'a concrete type', key, `<${path}> names the abstract type ${key} in xsi:type`);
      return undefined;
    }
    return type;
  }

  /** No xsi:type: the declared type, unless it is abstract or the content is plainly a derived type's. */
  untyped(
    el: XmlElement,
    declaredKey: string,
    declared: ComplexTypeDescriptor,
    path: string,
  ): ComplexTypeDescriptor | undefined {
    const derived = (declared.derived ?? [])
      .map((k) => [k, this.d.types[k]] as const)
      .filter((e): e is readonly [string, ComplexTypeDescriptor] => e[1]?.kind === 'complex' && e[1].abstract !== true);
    const names = childElements(el).map((c) => c.local);
    const fits = (t: ComplexTypeDescriptor): boolean =>
      names.every((n) => t.fields.some((f) => f.name.local === n || f.wildcard === true));
    const local = (key: string): string => key.slice(key.lastIndexOf('}') + 1);
    if (declared.abstract === true) {
      this.add(
        'xsi-type',
        path,
        `xsi:type naming one of ${derived.map(([k]) => local(k)).join(', ') || '(no concrete type)'}`,
        'no xsi:type',
        `<${path}> is declared of the abstract type ${local(declaredKey)}: it must name its concrete type in xsi:type`,
      );
      return undefined;
    }
    if (derived.length === 0 || fits(declared)) return declared;
    const match = derived.find(([, t]) => fits(t));
    if (match === undefined) return declared;
    this.add(
      'xsi-type',
      path,
      `xsi:type="${local(match[0])}"`,
      'no xsi:type',
      `<${path}> holds the members of the derived type ${local(match[0])} but no xsi:type saying so: a client reads it as ${local(declaredKey)}`,
    );
    return match[1];
  }

  complex(el: XmlElement, declaredKey: string, declared: ComplexTypeDescriptor, path: string): void {
    const type = this.actualType(el, declaredKey, declared, path);
    if (type === undefined) return;
    if (type.arrayItem !== undefined) {
      this.array(el, type.arrayItem, path);
      return;
    }
    this.attributes(el, type, path);
    if (type.text !== undefined) {
      this.element({ ...el, attributes: [] }, type.text, false, path);
      return;
    }
    this.members(el, type.fields.map(memberOfField), path);
  }

  array(el: XmlElement, item: FieldDescriptor, path: string): void {
    let index = 0;
    for (const child of childElements(el)) {
      index++;
      const childPath = `${path}/${child.local}[${index}]`;
      if (child.local !== item.name.local) {
        this.add(
          'array-item',
          childPath,
          `<${item.name.local}>`,
          `<${child.local}>`,
          `the items of <${path}> must be <${item.name.local}> elements; found <${child.local}>`,
        );
        continue;
      }
      if (child.ns !== item.name.ns)
        this.add(
          'namespace',
          childPath,
          clark(item.name),
          clark(child),
          namespaceMessage(childPath, item.name.ns, child.ns),
        );
      this.element(child, item.value, item.nillable, childPath);
    }
  }

  attributes(el: XmlElement, type: ComplexTypeDescriptor, path: string): void {
    for (const attribute of type.attributes) {
      const found = el.attributes.find((a) => a.local === attribute.name.local && a.ns === attribute.name.ns);
      if (found === undefined) {
        if (attribute.required)
          this.add(
            'occurrence',
            `${path}/@${attribute.name.local}`,
            `@${attribute.name.local}`,
            'absent',
            `the required attribute ${attribute.name.local} of <${path}> is missing`,
          );
        continue;
      }
      try {
        const resolved = resolveValue(this.d, attribute.value, path);
        if (resolved.kind !== 'primitive') continue;
        const problem = simpleValueProblem(
          attribute.value.kind === 'type' ? 'string' : resolved.xsd,
          attribute.value.kind === 'type' ? undefined : resolved.enumeration,
          found.value,
        );
        if (problem !== undefined)
          this.add(
            'value',
            `${path}/@${attribute.name.local}`,
            problem.expected,
            JSON.stringify(truncate(found.value)),
            `the attribute ${attribute.name.local} of <${path}> ${problem.why}`,
          );
      } catch {
        // unknown type: nothing to compare with
      }
    }
  }

  /** The children of a sequence: presence, repetition, namespace, order, then each value. */
  members(el: XmlElement, members: readonly Member[], path: string, top = false): void {
    const children = childElements(el);
    const wildcard = members.some((m) => m.wildcard === true);
    const declared = members.filter((m) => m.wildcard !== true);
    const position = new Map(declared.map((m, i) => [m.name.local, i]));
    for (const member of declared) {
      const found = children.filter((c) => c.local === member.name.local);
      const memberPath = join(path, member.name.local);
      if (found.length === 0 && member.required) {
        this.add(
          'occurrence',
          memberPath,
          `<${member.name.local}>`,
          'absent',
          top ? `the result element ${clark(member.name)} is missing` : `<${memberPath}> is required and missing`,
        );
      }
      if (member.maxOccurs !== -1 && found.length > member.maxOccurs) {
        this.add(
          'occurrence',
          memberPath,
          member.maxOccurs === 1 ? `one <${member.name.local}>` : `at most ${member.maxOccurs} <${member.name.local}>`,
          `${found.length}`,
          `the element ${top ? clark(member.name) : `<${memberPath}>`} appears ${found.length} times`,
        );
      }
      let index = 0;
      for (const child of found) {
        index++;
        const childPath = found.length > 1 ? `${memberPath}[${index}]` : memberPath;
        if (child.ns !== member.name.ns)
          this.add(
            'namespace',
            childPath,
            clark(member.name),
            clark(child),
            namespaceMessage(top ? member.name.local : childPath, member.name.ns, child.ns),
          );
        this.element(child, member.value, member.nillable, childPath);
      }
    }
    if (!wildcard) {
      for (const extra of children.filter((c) => !position.has(c.local))) {
        this.add(
          'occurrence',
          join(path, extra.local),
          'no undeclared element',
          clark(extra),
          top
            ? `the response holds an element the schema does not declare: ${clark(extra)}`
            : `<${path}> holds an element its type does not declare: ${clark(extra)}`,
        );
      }
    }
    const seen = children.map((c) => c.local).filter((local) => position.has(local));
    const sorted = [...seen].sort((a, b) => position.get(a)! - position.get(b)!);
    if (seen.join() !== sorted.join()) {
      this.add(
        'order',
        path || el.local,
        sorted.join(', '),
        seen.join(', '),
        top
          ? 'the result elements are not in the order the schema declares'
          : `the children of <${path}> are not in the order the schema declares`,
      );
    }
  }
}

function join(path: string, local: string): string {
  return path === '' ? local : `${path}/${local}`;
}

function clark(name: { readonly ns: string; readonly local: string }): string {
  return `{${name.ns}}${name.local}`;
}

function namespaceMessage(name: string, want: string, got: string): string {
  const why = got === '' ? 'it is unqualified (no namespace)' : `it is in ${got}`;
  return `<${name}> must be in ${want || 'no namespace'}; ${why}`;
}

/** Findings for a response wrapper's children (the top level keeps the messages of the first checks). */
export function walkWrapper(
  d: ServiceDescriptor,
  wrapper: XmlElement,
  fields: readonly ExpectedField[],
): SchemaFinding[] {
  const walk = new Walk(d);
  walk.members(wrapper, fields.map(memberOfExpected), '', true);
  return walk.findings;
}

/** Findings for one element declared to hold `vd` (an HTTP result root, a header block). */
export function walkElement(
  d: ServiceDescriptor,
  el: XmlElement,
  vd: ValueDescriptor,
  nillable: boolean,
): SchemaFinding[] {
  const walk = new Walk(d);
  walk.element(el, vd, nillable, el.local);
  return walk.findings;
}
