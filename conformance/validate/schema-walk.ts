/**
 * A response value validated against the schema, at every depth: the walk visits each element
 * with the type the descriptor declares for it and records every finding under the rule it
 * breaks (a simple value's text in simple-values.ts, the type an xsi:type selects in
 * xsi-type.ts). The checks (checks/response-fields.ts, checks/result-type.ts) each report their
 * rule's findings, so one defect is named by one check:
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
import { XSI_NS } from '../../runtime/namespaces.js';
import { childElements, textContent } from '../../runtime/xml/reader.js';
import type { XmlElement } from '../../runtime/xml/types.js';
import type { ExpectedField } from '../types.js';
import type { SchemaFinding, SchemaRule } from './schema-rules.js';
import { isWhitespaceCollapsed, simpleValueProblem, truncate } from './simple-values.js';
import { actualType } from './xsi-type.js';

/** A member as the walk needs it: a descriptor field, or a response wrapper's expected field. */
export interface Member {
  readonly name: { readonly ns: string; readonly local: string };
  readonly value: ValueDescriptor;
  readonly required: boolean;
  /** -1 for unbounded. */
  readonly maxOccurs: number;
  readonly nillable: boolean;
  readonly wildcard?: boolean;
  /** Its rank in schema order (default: its index); a repeating group's members share one. */
  readonly order?: number;
}

/**
 * The members a field stands for: itself, or a repeating group's members (FieldDescriptor.group),
 * which appear in the parent, interleaved occurrence after occurrence, so they share one rank in
 * the order check and count over all occurrences (the runtime's decoder checks each occurrence).
 */
function membersOf(d: ServiceDescriptor, member: Member, group: FieldDescriptor['group']): Member[] {
  return group === undefined ? [member] : groupMembers(d, member, group);
}

function groupMembers(d: ServiceDescriptor, group: Member, kind: 'sequence' | 'choice'): Member[] {
  const occurrence = group.value.kind === 'type' ? d.types[group.value.type] : undefined;
  if (occurrence?.kind !== 'complex') return [];
  return occurrence.fields.map((m) => ({
    ...memberOfField(m),
    required: group.required && kind === 'sequence' && m.minOccurs >= 1 && m.inChoice !== true,
    maxOccurs: group.maxOccurs === -1 || m.maxOccurs === -1 ? -1 : group.maxOccurs * m.maxOccurs,
    ...(group.order === undefined ? {} : { order: group.order }),
  }));
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

  complex(el: XmlElement, declaredKey: string, declared: ComplexTypeDescriptor, path: string): void {
    const type = actualType(this, el, declaredKey, declared, path);
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
    this.members(
      el,
      type.fields.flatMap((f, order) => membersOf(this.d, { ...memberOfField(f), order }, f.group)),
      path,
    );
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
    const declared = members.filter((m) => m.wildcard !== true);
    const position = new Map(declared.map((m, i) => [m.name.local, m.order ?? i]));
    for (const member of declared) this.member(children, member, path, top);
    if (!members.some((m) => m.wildcard === true)) this.undeclared(children, position, path, top);
    this.order(el, children, position, path, top);
  }

  /** One declared member among the children: present when required, not repeated beyond maxOccurs, each value. */
  member(children: readonly XmlElement[], member: Member, path: string, top: boolean): void {
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

  /** Children the type does not declare (a type without a wildcard). */
  undeclared(children: readonly XmlElement[], position: ReadonlyMap<string, number>, path: string, top: boolean): void {
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

  /** The declared children in schema order. */
  order(
    el: XmlElement,
    children: readonly XmlElement[],
    position: ReadonlyMap<string, number>,
    path: string,
    top: boolean,
  ): void {
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
  const members = fields.flatMap((f, order) => membersOf(d, { ...memberOfExpected(f), order }, f.group));
  walk.members(wrapper, members, '', true);
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
