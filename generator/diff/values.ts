/**
 * Compares what two versions put on the wire for a message: global elements (message roots,
 * header blocks), the values they hold, and complex types member by member, recursively.
 * Each pair (old, new) is a node of the collector's graph, compared once; members lead to
 * further nodes. Members are matched by local name, so a member whose namespace alone changed
 * is one member that moved (a targetNamespace or elementFormDefault change), not a removal and
 * an addition.
 */
import type {
  ComplexTypeDescriptor,
  NameDescriptor,
  ServiceDescriptor,
  ValueDescriptor,
} from '../../runtime/descriptor.js';
import {
  describeSummary,
  paramAcceptance,
  sameSummary,
  valueAcceptance,
  type ParamSummary,
  type ValueSummary,
} from './acceptance.js';
import {
  describeValue,
  docsDiffer,
  finding,
  keyNamespace,
  typeLabel,
  where,
  type PairContext,
  type Where,
} from './context.js';
import { compareMembers } from './members.js';
import type { Declared } from './locate.js';

export class ValueWalker {
  constructor(readonly p: PairContext) {}

  /** Compares two global elements; returns their node. */
  element(oldKey: string, newKey: string): string {
    const node = `E:${oldKey}|${newKey}`;
    if (!this.p.c.claim(node)) return node;
    const oe = this.p.old.d.elements[oldKey];
    const ne = this.p.new.d.elements[newKey];
    if (oe === undefined || ne === undefined) return node;
    const oldDecl = this.p.old.locate.element(oldKey);
    const newDecl = this.p.new.locate.element(newKey);
    const at = where(oldDecl, newDecl);
    const subject = `element ${ne.name.local}`;
    this.names(
      node,
      subject,
      oe.name,
      ne.name,
      { old: keyNamespace(oldKey), new: keyNamespace(newKey) },
      at,
      'message-element-renamed',
    );
    if (oe.nillable !== ne.nillable) this.nillable(node, subject, '', oe.nillable, ne.nillable, at);
    this.value(node, subject, '', oe.value, ne.value, at, [1, 1], {
      old: this.p.old.locate.simpleType(oldKey),
      new: this.p.new.locate.simpleType(newKey),
    });
    if (this.p.compareDocs && docsDiffer(oldDecl.documentation, newDecl.documentation)) this.docs(node, subject, at);
    return node;
  }

  /** Compares two complex types; returns their node. */
  type(oldKey: string, newKey: string): string {
    const node = `T:${oldKey}|${newKey}`;
    if (!this.p.c.claim(node)) return node;
    const ot = this.p.old.d.types[oldKey];
    const nt = this.p.new.d.types[newKey];
    if (ot?.kind !== 'complex' || nt?.kind !== 'complex') return node;
    const oldDecl = this.p.old.locate.type(oldKey);
    const newDecl = this.p.new.locate.type(newKey);
    const at = where(oldDecl, newDecl);
    const subject = typeLabel(newKey);
    if (ot.name !== undefined && nt.name !== undefined && ot.name.local !== nt.name.local) {
      this.p.c.inNode(
        node,
        finding(
          'type-renamed',
          node,
          subject,
          `type renamed: ${ot.name.local} -> ${nt.name.local}`,
          { from: ot.name.local, to: nt.name.local },
          at,
        ),
      );
    }
    const shapes = [shape(ot), shape(nt)] as const;
    if (shapes[0] !== shapes[1]) {
      const accepts = {
        forward: false,
        backward: false,
        forwardWhy: `${shapes[0]} where ${shapes[1]} is expected`,
        backwardWhy: `${shapes[1]} where ${shapes[0]} is expected`,
      };
      this.p.c.inNode(
        node,
        finding('type-changed', node, subject, `content changed: ${shapes[0]} -> ${shapes[1]}`, { accepts }, at),
      );
      return node;
    }
    compareMembers(this, node, subject, { oldKey, newKey, ot, nt }, at);
    this.derived(node, subject, ot, nt, at);
    if ((ot.abstract === true) !== (nt.abstract === true)) {
      const to = nt.abstract === true ? 'abstract' : 'concrete';
      this.p.c.inNode(
        node,
        finding(
          'abstract-changed',
          node,
          subject,
          `type is now ${to}`,
          { from: ot.abstract === true ? 'abstract' : 'concrete', to },
          at,
        ),
      );
    }
    if (this.p.compareDocs && docsDiffer(oldDecl.documentation, newDecl.documentation)) this.docs(node, subject, at);
    return node;
  }

  /**
   * Names of an element, member or array item: a different local name is `renamedRule`; the same
   * local name in another namespace is a namespace move, reported once per namespace pair
   * (targetNamespace) or per schema (elementFormDefault: unqualified <-> qualified).
   */
  names(
    node: string,
    subject: string,
    o: NameDescriptor,
    n: NameDescriptor,
    schemaNs: { old: string; new: string },
    at: Where,
    renamedRule: 'message-element-renamed' | 'array-item-renamed',
    member = '',
  ): void {
    if (o.local !== n.local) {
      this.p.c.inMember(
        node,
        member,
        finding(
          renamedRule,
          `${node}`,
          subject,
          `renamed: <${o.local}> -> <${n.local}>`,
          { from: o.local, to: n.local },
          at,
        ),
      );
      return;
    }
    if (o.ns !== n.ns) this.namespaceMove(node, o.ns, n.ns, schemaNs, at, member);
  }

  namespaceMove(
    node: string,
    from: string,
    to: string,
    schemaNs: { old: string; new: string },
    at: Where,
    member = '',
  ): void {
    if ((from === '' && to === schemaNs.new) || (to === '' && from === schemaNs.old)) {
      const form = (ns: string): string => (ns === '' ? 'unqualified' : 'qualified');
      const what = `members of schema ${schemaNs.new || schemaNs.old} are now ${form(to)} (elementFormDefault/form)`;
      this.p.c.inMember(
        node,
        member,
        finding(
          'element-form-changed',
          `${schemaNs.old}|${form(from)}`,
          `schema ${schemaNs.new || schemaNs.old}`,
          what,
          { from: form(from), to: form(to) },
          at,
        ),
      );
      return;
    }
    const what = `elements move from namespace "${from}" to "${to}"`;
    this.p.c.inMember(node, member, finding('namespace-changed', `${from}|${to}`, 'namespace', what, { from, to }, at));
  }

  nillable(node: string, subject: string, member: string, o: boolean, n: boolean, at: Where): void {
    this.p.c.inMember(
      node,
      member,
      finding(
        'nillable-changed',
        `${node}|${member}`,
        subject,
        `nillable: ${o} -> ${n}`,
        { nillable: { old: o, new: n } },
        at,
      ),
    );
  }

  /**
   * Compares two values. Complex types lead to their node; anything else is compared as a
   * summary: an enumeration's values, or the whole type. `maxOccurs` (old, new) of the member
   * holding the value says whether it is a repeated HTTP parameter.
   */
  value(
    node: string,
    subject: string,
    member: string,
    ov: ValueDescriptor,
    nv: ValueDescriptor,
    at: Where,
    maxOccurs: readonly [number, number],
    simple?: SimpleTypes,
  ): void {
    const os = summarize(this.p.old.d, ov);
    const ns = summarize(this.p.new.d, nv);
    if (os.kind === 'complex' && ns.kind === 'complex') {
      this.p.c.memberEdge(node, member, this.type(os.key, ns.key));
      return;
    }
    if (sameSummary(os, ns)) return;
    // A named simple type is one declaration however many members use it: one change, located
    // there. Without a model on one side (a committed descriptor), the other side's name decides.
    const named = sharedSimpleType(
      simple,
      this.p.old.locate.model !== undefined,
      this.p.new.locate.model !== undefined,
    );
    const key = named === undefined ? `${node}|${member}` : `simple:${named}`;
    if (named !== undefined) {
      subject = `simple type ${named}`;
      at = where(simple!.old, simple!.new);
    }
    if (os.kind === 'primitive' && ns.kind === 'primitive' && os.xsd === ns.xsd) {
      this.enumeration(key, subject, os.enumeration, ns.enumeration, at, node, member);
      return;
    }
    const accepts = valueAcceptance(os, ns);
    const acceptsAsParam = paramAcceptance(
      paramOf(this.p.old.d, os, maxOccurs[0]),
      paramOf(this.p.new.d, ns, maxOccurs[1]),
    );
    const what = `type changed: ${describeValue(this.p.old.d, ov)} -> ${describeValue(this.p.new.d, nv)}${widening(accepts.forward, accepts.backward)}`;
    this.p.c.inMember(
      node,
      member,
      finding(
        'type-changed',
        key,
        subject,
        what,
        {
          from: describeSummary(os),
          to: describeSummary(ns),
          accepts,
          ...(acceptsAsParam === undefined ? {} : { acceptsAsParam }),
        },
        at,
      ),
    );
  }

  private enumeration(
    key: string,
    subject: string,
    o: readonly string[] | undefined,
    n: readonly string[] | undefined,
    at: Where,
    node: string,
    member: string,
  ): void {
    const restricted = (e: readonly string[] | undefined): boolean => e !== undefined && e.length > 0;
    if (!restricted(o) && restricted(n)) {
      this.p.c.inMember(
        node,
        member,
        finding(
          'enum-values-removed',
          key,
          subject,
          `enumeration facet added (${n!.join(', ')})`,
          { values: [`values other than ${n!.join(', ')}`] },
          at,
        ),
      );
      return;
    }
    if (restricted(o) && !restricted(n)) {
      this.p.c.inMember(
        node,
        member,
        finding(
          'enum-values-added',
          key,
          subject,
          'enumeration facet removed',
          { values: [`values other than ${o!.join(', ')}`] },
          at,
        ),
      );
      return;
    }
    const added = n!.filter((v) => !o!.includes(v));
    const removed = o!.filter((v) => !n!.includes(v));
    if (added.length > 0)
      this.p.c.inMember(
        node,
        member,
        finding(
          'enum-values-added',
          key,
          subject,
          `enumeration values added: ${added.join(', ')}`,
          { values: added },
          at,
        ),
      );
    if (removed.length > 0)
      this.p.c.inMember(
        node,
        member,
        finding(
          'enum-values-removed',
          key,
          subject,
          `enumeration values removed: ${removed.join(', ')}`,
          { values: removed },
          at,
        ),
      );
  }

  private derived(
    node: string,
    subject: string,
    ot: ComplexTypeDescriptor,
    nt: ComplexTypeDescriptor,
    at: Where,
  ): void {
    const oldKeys = ot.derived ?? [];
    const newKeys = nt.derived ?? [];
    const local = (key: string): string => key.slice(key.indexOf('}') + 1);
    const matchOf = (key: string): string | undefined =>
      newKeys.includes(key) ? key : newKeys.find((k) => local(k) === local(key));
    const matched = new Set<string>();
    for (const key of oldKeys) {
      const other = matchOf(key);
      if (other === undefined) {
        this.p.c.inNode(
          node,
          finding(
            'derived-type-removed',
            `${node}|${key}`,
            subject,
            `derived type removed: ${local(key)}`,
            { name: local(key) },
            where(this.p.old.locate.type(key), at.new === undefined ? undefined : { source: at.new }),
          ),
        );
        continue;
      }
      matched.add(other);
      this.p.c.edge(node, this.type(key, other));
    }
    for (const key of newKeys.filter((k) => !matched.has(k))) {
      this.p.c.inNode(
        node,
        finding(
          'derived-type-added',
          `${node}|${key}`,
          subject,
          `derived type added: ${local(key)}`,
          { name: local(key) },
          where(at.old === undefined ? undefined : { source: at.old }, this.p.new.locate.type(key)),
        ),
      );
    }
  }

  docs(node: string, subject: string, at: Where): void {
    this.p.c.alone(finding('documentation-changed', `${node}|${subject}`, subject, 'documentation changed', {}, at));
  }
}

export interface SimpleTypes {
  readonly old?: (Declared & { readonly key: string }) | undefined;
  readonly new?: (Declared & { readonly key: string }) | undefined;
}

const localOf = (key: string): string => key.slice(key.indexOf('}') + 1);

function sharedSimpleType(simple: SimpleTypes | undefined, oldModel: boolean, newModel: boolean): string | undefined {
  const [o, n] = [simple?.old, simple?.new];
  if (o !== undefined && n !== undefined) return localOf(o.key) === localOf(n.key) ? localOf(n.key) : undefined;
  if (oldModel && newModel) return undefined;
  const known = o ?? n;
  return known === undefined ? undefined : localOf(known.key);
}

function shape(t: ComplexTypeDescriptor): string {
  return t.arrayItem !== undefined
    ? 'an array'
    : t.text !== undefined
      ? 'text with attributes (simpleContent)'
      : 'a structure';
}

function widening(forward: boolean, backward: boolean): string {
  if (forward && !backward) return ' (widened)';
  if (!forward && backward) return ' (narrowed)';
  return '';
}

export function summarize(d: ServiceDescriptor, vd: ValueDescriptor): ValueSummary {
  if (vd.kind === 'xml') return { kind: 'xml' };
  if (vd.kind === 'primitive')
    return vd.enumeration === undefined
      ? { kind: 'primitive', xsd: vd.xsd }
      : { kind: 'primitive', xsd: vd.xsd, enumeration: vd.enumeration };
  const type = d.types[vd.type];
  if (type?.kind === 'simple') {
    const xsd = type.list === true ? 'string' : type.xsd;
    return type.enumeration === undefined
      ? { kind: 'primitive', xsd }
      : { kind: 'primitive', xsd, enumeration: type.enumeration };
  }
  return { kind: 'complex', key: vd.type };
}

/** A value as an HTTP GET/POST parameter (as runtime/http-binding.ts reads it), or undefined. */
function paramOf(d: ServiceDescriptor, s: ValueSummary, maxOccurs: number): ParamSummary | undefined {
  if (s.kind === 'primitive')
    return {
      xsd: s.xsd,
      ...(s.enumeration === undefined ? {} : { enumeration: s.enumeration }),
      repeated: maxOccurs !== 1,
    };
  if (s.kind !== 'complex' || maxOccurs !== 1) return undefined;
  const type = d.types[s.key];
  const item = type?.kind === 'complex' ? type.arrayItem : undefined;
  if (item === undefined || item.maxOccurs === 1) return undefined;
  const itemSummary = summarize(d, item.value);
  return itemSummary.kind === 'primitive'
    ? {
        xsd: itemSummary.xsd,
        ...(itemSummary.enumeration === undefined ? {} : { enumeration: itemSummary.enumeration }),
        repeated: true,
      }
    : undefined;
}
