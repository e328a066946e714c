/**
 * Compares what two versions put on the wire for a message: global elements (message roots,
 * header blocks), the values they hold, and complex types member by member, recursively.
 * Each pair (old, new) is a node of the collector's graph, compared once; members lead to
 * further nodes. Members are matched by local name, so a member whose namespace alone changed
 * is one member that moved (a targetNamespace or elementFormDefault change), not a removal and
 * an addition.
 */
import type { ComplexTypeDescriptor, ValueDescriptor } from '../../runtime/descriptor.js';
import { describeSummary, paramAcceptance, sameSummary, valueAcceptance } from './acceptance.js';
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
import { compareNames } from './element-names.js';
import { compareEnumerations } from './enumerations.js';
import { compareMembers, type MemberWalker } from './members.js';
import { paramOf, sharedSimpleType, summarize, widening, type SimpleTypes } from './value-summary.js';

export class ValueWalker implements MemberWalker {
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
    compareNames(
      this.p,
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
      compareEnumerations(this.p, { node, member, key, subject, at }, os.enumeration, ns.enumeration);
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

function shape(t: ComplexTypeDescriptor): string {
  return t.arrayItem !== undefined
    ? 'an array'
    : t.text !== undefined
      ? 'text with attributes (simpleContent)'
      : 'a structure';
}
