/**
 * The names an element, member or array item travels under: a different local name is a
 * rename; the same local name in another namespace is a namespace move, reported once per
 * namespace pair (targetNamespace) or once per schema (elementFormDefault: unqualified <->
 * qualified), since one schema-wide change moves every member with it.
 */
import type { NameDescriptor } from '../../runtime/descriptor.js';
import { finding, type PairContext, type Where } from './context.js';

/** The namespaces of the schemas declaring the old and the new element or type. */
export interface SchemaNamespaces {
  readonly old: string;
  readonly new: string;
}

/** Compares two names: a different local name is `renamedRule`, else a namespace move if any. */
export function compareNames(
  p: PairContext,
  node: string,
  subject: string,
  o: NameDescriptor,
  n: NameDescriptor,
  schemaNs: SchemaNamespaces,
  at: Where,
  renamedRule: 'message-element-renamed' | 'array-item-renamed',
  member = '',
): void {
  if (o.local !== n.local) {
    p.c.inMember(
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
  if (o.ns !== n.ns) namespaceMove(p, node, o.ns, n.ns, schemaNs, at, member);
}

/** The same local name in another namespace: an elementFormDefault/form change or a targetNamespace move. */
export function namespaceMove(
  p: PairContext,
  node: string,
  from: string,
  to: string,
  schemaNs: SchemaNamespaces,
  at: Where,
  member = '',
): void {
  if ((from === '' && to === schemaNs.new) || (to === '' && from === schemaNs.old)) {
    const form = (ns: string): string => (ns === '' ? 'unqualified' : 'qualified');
    const what = `members of schema ${schemaNs.new || schemaNs.old} are now ${form(to)} (elementFormDefault/form)`;
    p.c.inMember(
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
  p.c.inMember(node, member, finding('namespace-changed', `${from}|${to}`, 'namespace', what, { from, to }, at));
}
