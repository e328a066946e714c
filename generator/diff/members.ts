/**
 * The members of two versions of a complex type: array items, simple content, elements in
 * sequence order and attributes. Elements are matched by local name; what is left over is
 * a rename when a removed and an added member sit at the same position with the same type,
 * else a removal and an addition.
 */
import type { AttributeFieldDescriptor, ComplexTypeDescriptor, FieldDescriptor } from '../../runtime/descriptor.js';
import { describeValue, docsDiffer, finding, keyNamespace, occursText, where, type Where } from './context.js';
import { sameSummary } from './acceptance.js';
import { summarize, type ValueWalker } from './values.js';

export interface TypePair {
  readonly oldKey: string;
  readonly newKey: string;
  readonly ot: ComplexTypeDescriptor;
  readonly nt: ComplexTypeDescriptor;
}

export function compareMembers(w: ValueWalker, node: string, subject: string, pair: TypePair, at: Where): void {
  const { ot, nt } = pair;
  if (ot.arrayItem !== undefined && nt.arrayItem !== undefined) {
    compareField(w, node, `${subject} › item`, pair, ot.arrayItem, nt.arrayItem, 'array-item-renamed');
    return;
  }
  if (ot.text !== undefined && nt.text !== undefined)
    w.value(node, `${subject} › text`, '#text', ot.text, nt.text, at, [1, 1]);
  compareFields(w, node, subject, pair, at);
  compareAttributes(w, node, subject, pair);
}

const isRequired = (f: FieldDescriptor): boolean => f.minOccurs > 0 && f.inChoice !== true && f.wildcard !== true;
const fieldName = (f: FieldDescriptor): string => (f.wildcard === true ? 'xs:any' : f.name.local);

function fieldWhere(
  w: ValueWalker,
  pair: TypePair,
  o: FieldDescriptor | undefined,
  n: FieldDescriptor | undefined,
): Where {
  return where(
    o === undefined ? w.p.old.locate.type(pair.oldKey) : w.p.old.locate.field(pair.oldKey, o.name),
    n === undefined ? w.p.new.locate.type(pair.newKey) : w.p.new.locate.field(pair.newKey, n.name),
  );
}

function compareFields(w: ValueWalker, node: string, subject: string, pair: TypePair, at: Where): void {
  const { ot, nt } = pair;
  const matched: [FieldDescriptor, FieldDescriptor][] = [];
  const added = [...nt.fields];
  const removed: FieldDescriptor[] = [];
  for (const of of ot.fields) {
    const candidates = added.filter((nf) => fieldName(nf) === fieldName(of));
    const nf = candidates.find((c) => c.name.ns === of.name.ns) ?? candidates[0];
    if (nf === undefined) removed.push(of);
    else {
      matched.push([of, nf]);
      added.splice(added.indexOf(nf), 1);
    }
  }
  for (const [of, nf] of matched) compareField(w, node, `${subject} › ${fieldName(nf)}`, pair, of, nf, undefined);
  const renamed = pairRenames(w, ot, nt, removed, added);
  const wildcard = { old: ot.fields.some((f) => f.wildcard === true), new: nt.fields.some((f) => f.wildcard === true) };
  for (const [of, nf] of renamed) {
    const facts = { from: of.name.local, to: nf.name.local, required: isRequired(of) || isRequired(nf) };
    const renamed = finding(
      'member-renamed',
      `${node}|${of.name.local}`,
      `${subject} › ${nf.name.local}`,
      `member renamed: <${of.name.local}> -> <${nf.name.local}>`,
      facts,
      fieldWhere(w, pair, of, nf),
    );
    w.p.c.inMember(node, of.name.local, renamed);
    w.p.c.inMember(node, nf.name.local, renamed);
  }
  for (const of of removed.filter((f) => !renamed.some(([r]) => r === f))) {
    const what = `member removed (${isRequired(of) ? 'required' : 'optional'}, ${describeValue(w.p.old.d, of.value)})`;
    w.p.c.inMember(
      node,
      fieldName(of),
      finding(
        'member-removed',
        `${node}|${fieldName(of)}`,
        `${subject} › ${fieldName(of)}`,
        what,
        { name: fieldName(of), required: isRequired(of), wildcard },
        fieldWhere(w, pair, of, undefined),
      ),
    );
  }
  for (const nf of added.filter((f) => !renamed.some(([, r]) => r === f))) {
    const what = `member added (${isRequired(nf) ? 'required' : 'optional'}, ${describeValue(w.p.new.d, nf.value)})`;
    w.p.c.inMember(
      node,
      fieldName(nf),
      finding(
        'member-added',
        `${node}|${fieldName(nf)}`,
        `${subject} › ${fieldName(nf)}`,
        what,
        { name: fieldName(nf), required: isRequired(nf), wildcard },
        fieldWhere(w, pair, undefined, nf),
      ),
    );
  }
  reorder(w, node, subject, matched, nt, at);
}

/** A removed and an added member at the same position with the same value: one member renamed. */
function pairRenames(
  w: ValueWalker,
  ot: ComplexTypeDescriptor,
  nt: ComplexTypeDescriptor,
  removed: FieldDescriptor[],
  added: FieldDescriptor[],
): [FieldDescriptor, FieldDescriptor][] {
  const out: [FieldDescriptor, FieldDescriptor][] = [];
  for (const of of removed) {
    if (of.wildcard === true) continue;
    const nf = added.find(
      (f) =>
        f.wildcard !== true &&
        nt.fields.indexOf(f) === ot.fields.indexOf(of) &&
        sameSummary(summarize(w.p.old.d, of.value), summarize(w.p.new.d, f.value)),
    );
    if (nf !== undefined && !out.some(([, taken]) => taken === nf)) out.push([of, nf]);
  }
  return out;
}

/** Sequence order is on the wire: report members that changed their relative order, once per type. */
function reorder(
  w: ValueWalker,
  node: string,
  subject: string,
  matched: readonly [FieldDescriptor, FieldDescriptor][],
  nt: ComplexTypeDescriptor,
  at: Where,
): void {
  const positions = matched.map(([, nf]) => nt.fields.indexOf(nf));
  const moved = matched
    .filter((_, i) => positions.slice(0, i).some((p) => p > positions[i]!))
    .map(([, nf]) => fieldName(nf));
  if (moved.length === 0) return;
  w.p.c.inNode(
    node,
    finding(
      'members-reordered',
      node,
      subject,
      `members reordered (${moved.join(', ')} moved earlier)`,
      { values: moved },
      at,
    ),
  );
}

function compareField(
  w: ValueWalker,
  node: string,
  subject: string,
  pair: TypePair,
  of: FieldDescriptor,
  nf: FieldDescriptor,
  renamedRule: 'array-item-renamed' | undefined,
): void {
  const at = fieldWhere(w, pair, of, nf);
  const member = fieldName(nf);
  if (renamedRule !== undefined)
    w.names(
      node,
      subject,
      of.name,
      nf.name,
      { old: keyNamespace(pair.oldKey), new: keyNamespace(pair.newKey) },
      at,
      renamedRule,
      member,
    );
  else if (of.name.ns !== nf.name.ns)
    w.namespaceMove(
      node,
      of.name.ns,
      nf.name.ns,
      { old: keyNamespace(pair.oldKey), new: keyNamespace(pair.newKey) },
      at,
      member,
    );
  const oldOccurs: [number, number] = [of.inChoice === true ? 0 : of.minOccurs, of.maxOccurs];
  const newOccurs: [number, number] = [nf.inChoice === true ? 0 : nf.minOccurs, nf.maxOccurs];
  if (oldOccurs[0] !== newOccurs[0] || oldOccurs[1] !== newOccurs[1]) {
    const what = `occurrences ${occursText(...oldOccurs)} -> ${occursText(...newOccurs)}`;
    w.p.c.inMember(
      node,
      member,
      finding(
        'occurs-changed',
        `${node}|${member}`,
        subject,
        what,
        { name: member, occurs: { old: oldOccurs, new: newOccurs } },
        at,
      ),
    );
  }
  if (of.nillable !== nf.nillable) w.nillable(node, subject, member, of.nillable, nf.nillable, at);
  if (of.wildcard !== true && nf.wildcard !== true) {
    const simple = {
      old: w.p.old.locate.simpleType(pair.oldKey, of.name),
      new: w.p.new.locate.simpleType(pair.newKey, nf.name),
    };
    w.value(node, subject, member, of.value, nf.value, at, [of.maxOccurs, nf.maxOccurs], simple);
  }
  if (w.p.compareDocs && renamedRule === undefined) {
    const od = w.p.old.locate.field(pair.oldKey, of.name).documentation;
    const nd = w.p.new.locate.field(pair.newKey, nf.name).documentation;
    if (docsDiffer(od, nd)) w.docs(`${node}|${member}`, subject, at);
  }
}

function compareAttributes(w: ValueWalker, node: string, subject: string, pair: TypePair): void {
  const { ot, nt } = pair;
  const key = (a: AttributeFieldDescriptor): string => `${a.name.ns}|${a.name.local}`;
  const at = (o: AttributeFieldDescriptor | undefined, n: AttributeFieldDescriptor | undefined): Where =>
    where(
      o === undefined ? w.p.old.locate.type(pair.oldKey) : w.p.old.locate.attribute(pair.oldKey, o.name),
      n === undefined ? w.p.new.locate.type(pair.newKey) : w.p.new.locate.attribute(pair.newKey, n.name),
    );
  for (const oa of ot.attributes) {
    const na = nt.attributes.find((a) => key(a) === key(oa));
    const label = `${subject} › @${oa.name.local}`;
    if (na === undefined) {
      w.p.c.inNode(
        node,
        finding(
          'attribute-removed',
          `${node}|@${key(oa)}`,
          label,
          `attribute removed (${oa.required ? 'required' : 'optional'})`,
          { name: oa.name.local, required: oa.required },
          at(oa, undefined),
        ),
      );
      continue;
    }
    if (oa.required !== na.required) {
      w.p.c.inNode(
        node,
        finding(
          'attribute-required-changed',
          `${node}|@${key(oa)}`,
          label,
          `attribute is now ${na.required ? 'required' : 'optional'}`,
          { name: na.name.local, required: na.required },
          at(oa, na),
        ),
      );
    }
    w.value(node, label, `@${key(oa)}`, oa.value, na.value, at(oa, na), [1, 1]);
  }
  for (const na of nt.attributes.filter((a) => !ot.attributes.some((o) => key(o) === key(a)))) {
    w.p.c.inNode(
      node,
      finding(
        'attribute-added',
        `${node}|@${key(na)}`,
        `${subject} › @${na.name.local}`,
        `attribute added (${na.required ? 'required' : 'optional'})`,
        { name: na.name.local, required: na.required },
        at(undefined, na),
      ),
    );
  }
}
