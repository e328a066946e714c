/**
 * The members of two versions of a complex type: array items, simple content, elements in
 * sequence order and attributes. Elements are matched by local name; what is left over is
 * a rename when a removed and an added member sit at the same position with the same type,
 * else a removal and an addition.
 */
import type {
  AttributeFieldDescriptor,
  ComplexTypeDescriptor,
  FieldDescriptor,
  ValueDescriptor,
} from '../../runtime/descriptor.js';
import {
  describeValue,
  docsDiffer,
  finding,
  keyNamespace,
  occursText,
  where,
  type PairContext,
  type Where,
} from './context.js';
import { sameSummary } from './acceptance.js';
import { compareNames, namespaceMove } from './element-names.js';
import { summarize, type SimpleTypes } from './value-summary.js';

/**
 * What comparing members needs of the walker that calls it (the ValueWalker of values.ts): the
 * pair's context and the comparisons a member leads back to. Declared here so that the type
 * recursion (a type's members hold values that are types again) runs through the walker alone.
 */
export interface MemberWalker {
  readonly p: PairContext;
  value(
    node: string,
    subject: string,
    member: string,
    ov: ValueDescriptor,
    nv: ValueDescriptor,
    at: Where,
    maxOccurs: readonly [number, number],
    simple?: SimpleTypes,
  ): void;
  nillable(node: string, subject: string, member: string, o: boolean, n: boolean, at: Where): void;
  docs(node: string, subject: string, at: Where): void;
}

export interface TypePair {
  readonly oldKey: string;
  readonly newKey: string;
  readonly ot: ComplexTypeDescriptor;
  readonly nt: ComplexTypeDescriptor;
}

export function compareMembers(w: MemberWalker, node: string, subject: string, pair: TypePair, at: Where): void {
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
  w: MemberWalker,
  pair: TypePair,
  o: FieldDescriptor | undefined,
  n: FieldDescriptor | undefined,
): Where {
  return where(
    o === undefined ? w.p.old.locate.type(pair.oldKey) : w.p.old.locate.field(pair.oldKey, o.name),
    n === undefined ? w.p.new.locate.type(pair.newKey) : w.p.new.locate.field(pair.newKey, n.name),
  );
}

/** Old and new fields matched by local name (the same namespace first); the rest left over. */
interface FieldMatch {
  readonly matched: [FieldDescriptor, FieldDescriptor][];
  readonly removed: FieldDescriptor[];
  readonly added: FieldDescriptor[];
}

function matchFields(ot: ComplexTypeDescriptor, nt: ComplexTypeDescriptor): FieldMatch {
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
  return { matched, removed, added };
}

function compareFields(w: MemberWalker, node: string, subject: string, pair: TypePair, at: Where): void {
  const { ot, nt } = pair;
  const { matched, removed, added } = matchFields(ot, nt);
  for (const [of, nf] of matched) compareField(w, node, `${subject} › ${fieldName(nf)}`, pair, of, nf, undefined);
  const renamed = pairRenames(w, ot, nt, removed, added);
  for (const [of, nf] of renamed) reportRenamed(w, node, subject, pair, of, nf);
  const wildcard = { old: ot.fields.some((f) => f.wildcard === true), new: nt.fields.some((f) => f.wildcard === true) };
  for (const of of removed.filter((f) => !renamed.some(([r]) => r === f)))
    reportAddedOrRemoved(w, node, subject, pair, 'removed', of, wildcard);
  for (const nf of added.filter((f) => !renamed.some(([, r]) => r === f)))
    reportAddedOrRemoved(w, node, subject, pair, 'added', nf, wildcard);
  reorder(w, node, subject, matched, nt, at);
}

/** One finding filed under both the old and the new member name. */
function reportRenamed(
  w: MemberWalker,
  node: string,
  subject: string,
  pair: TypePair,
  of: FieldDescriptor,
  nf: FieldDescriptor,
): void {
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

/** A member only the old (`removed`) or only the new (`added`) version has. */
function reportAddedOrRemoved(
  w: MemberWalker,
  node: string,
  subject: string,
  pair: TypePair,
  change: 'added' | 'removed',
  f: FieldDescriptor,
  wildcard: { old: boolean; new: boolean },
): void {
  const version = change === 'added' ? w.p.new : w.p.old;
  const what = `member ${change} (${isRequired(f) ? 'required' : 'optional'}, ${describeValue(version.d, f.value)})`;
  const at = change === 'added' ? fieldWhere(w, pair, undefined, f) : fieldWhere(w, pair, f, undefined);
  w.p.c.inMember(
    node,
    fieldName(f),
    finding(
      change === 'added' ? 'member-added' : 'member-removed',
      `${node}|${fieldName(f)}`,
      `${subject} › ${fieldName(f)}`,
      what,
      { name: fieldName(f), required: isRequired(f), wildcard },
      at,
    ),
  );
}

/** A removed and an added member at the same position with the same value: one member renamed. */
function pairRenames(
  w: MemberWalker,
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
  w: MemberWalker,
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
  w: MemberWalker,
  node: string,
  subject: string,
  pair: TypePair,
  of: FieldDescriptor,
  nf: FieldDescriptor,
  renamedRule: 'array-item-renamed' | undefined,
): void {
  const at = fieldWhere(w, pair, of, nf);
  const member = fieldName(nf);
  compareFieldNames(w, node, subject, pair, of, nf, at, renamedRule);
  compareOccurs(w, node, subject, member, of, nf, at);
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

/** An array item may be renamed; a member matched by local name can only move namespace. */
function compareFieldNames(
  w: MemberWalker,
  node: string,
  subject: string,
  pair: TypePair,
  of: FieldDescriptor,
  nf: FieldDescriptor,
  at: Where,
  renamedRule: 'array-item-renamed' | undefined,
): void {
  const member = fieldName(nf);
  const schemaNs = { old: keyNamespace(pair.oldKey), new: keyNamespace(pair.newKey) };
  if (renamedRule !== undefined) compareNames(w.p, node, subject, of.name, nf.name, schemaNs, at, renamedRule, member);
  else if (of.name.ns !== nf.name.ns) namespaceMove(w.p, node, of.name.ns, nf.name.ns, schemaNs, at, member);
}

/** minOccurs/maxOccurs as the wire sees them: a member of a choice may always be absent. */
function compareOccurs(
  w: MemberWalker,
  node: string,
  subject: string,
  member: string,
  of: FieldDescriptor,
  nf: FieldDescriptor,
  at: Where,
): void {
  const oldOccurs: [number, number] = [of.inChoice === true ? 0 : of.minOccurs, of.maxOccurs];
  const newOccurs: [number, number] = [nf.inChoice === true ? 0 : nf.minOccurs, nf.maxOccurs];
  if (oldOccurs[0] === newOccurs[0] && oldOccurs[1] === newOccurs[1]) return;
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

function compareAttributes(w: MemberWalker, node: string, subject: string, pair: TypePair): void {
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
