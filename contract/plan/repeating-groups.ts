/**
 * Repeating model groups of several members: pairs `(key, value)*` published as
 * `<sequence maxOccurs="unbounded">`, and repeating choices `(circle | square)*` (JAXB publishes
 * every `@XmlElements` list so). Their members' order is data, so one property per member
 * cannot carry them. Such a group is carried as one property holding an array with one object
 * per occurrence of the group, in document order (`keyAndValue: { key, value }[]`, a choice's
 * objects holding the one member that occurred).
 *
 * That needs the occurrences to be found again in a document: where one ends and the next
 * begins must follow from the elements' names alone. It does when the group's members are
 * distinct elements no other particle of the type shares a name with, and
 * - in a sequence, one member occurs exactly once in every occurrence (an anchor): the members
 *   before it and after it are told apart by name, so the boundary between two anchors is where
 *   the first member that comes before the anchor appears;
 * - in a choice, every member occurs exactly once (each child is then one occurrence).
 * Otherwise (`(a?, b?)*`: is `<a/><b/>` one occurrence or two?) the type is kept as XML
 * (`XmlElement`, every child in document order, both ways) with a warning at the group's line
 * saying why, rather than read one way when the sender may have meant the other.
 *
 * A repeating group of a single member, `(item)*`, is just an array of that member and is
 * planned as one. A repeated reference to the head of a substitution group is a repeating choice
 * of the elements that may stand in its place (parse/substitution-groups.ts), named after the head.
 */
import type { ComplexType, ElementDecl, GroupParticle, MaxOccurs, ModelWarning, Particle } from '../model/index.js';
import { elementParticles } from '../model/particles.js';

/** A repeating group carried typed: one object per occurrence. */
export interface TypedGroup {
  /** The particle as the model holds it (the one a walk over the content meets first). */
  readonly particle: GroupParticle;
  readonly kind: 'sequence' | 'choice';
  readonly minOccurs: number;
  readonly maxOccurs: MaxOccurs;
  readonly members: readonly ElementDecl[];
  /** The property's base name: the members' local names joined by `And` (sequence) or `Or` (choice). */
  readonly name: string;
}

/** A repeating group that cannot be carried typed, and why. */
export interface UntypedGroup {
  readonly particle: GroupParticle;
  readonly reason: string;
}

export type RepeatingGroup = { readonly typed: TypedGroup } | { readonly untyped: UntypedGroup };

/** The repeating groups of several members in `type`'s own content, in document order. */
export function repeatingGroups(type: ComplexType): RepeatingGroup[] {
  if (type.content === undefined) return [];
  const found: GroupParticle[] = [];
  collect(type.content, found);
  const names = elementParticles(type).map((e) => `{${e.name.ns}}${e.name.local}`);
  return found.map((particle) => classify(particle, names));
}

/** The first repeating group of `type` that must be kept as XML, if any. */
export function untypedGroup(type: ComplexType): UntypedGroup | undefined {
  for (const group of repeatingGroups(type)) if ('untyped' in group) return group.untyped;
  return undefined;
}

function collect(group: GroupParticle, out: GroupParticle[]): void {
  if (repeats(group) && memberParticles(group).length > 1) {
    out.push(group);
    return;
  }
  for (const particle of group.particles)
    if (particle.kind !== 'element' && particle.kind !== 'any') collect(particle, out);
}

function repeats(group: { maxOccurs: MaxOccurs }): boolean {
  return group.maxOccurs === 'unbounded' || group.maxOccurs > 1;
}

/** The element and wildcard particles under `group`, nested groups walked through. */
function memberParticles(group: GroupParticle): Particle[] {
  return group.particles.flatMap((p) => (p.kind === 'element' || p.kind === 'any' ? [p] : memberParticles(p)));
}

/**
 * A group holding one group, one of the two occurring exactly once, is that inner group with
 * the other's occurrences: `<sequence maxOccurs="unbounded"><choice>…</choice></sequence>` is a
 * repeating choice.
 */
function unwrap(group: GroupParticle): Omit<GroupParticle, 'source'> {
  let shape: Omit<GroupParticle, 'source'> = group;
  for (;;) {
    const only = shape.particles.length === 1 ? shape.particles[0]! : undefined;
    if (only === undefined || only.kind === 'element' || only.kind === 'any' || only.kind === 'all') return shape;
    if (only.minOccurs === 1 && only.maxOccurs === 1)
      shape = { ...only, minOccurs: shape.minOccurs, maxOccurs: shape.maxOccurs };
    else if (shape.minOccurs === 1 && shape.maxOccurs === 1) shape = only;
    else return shape;
  }
}

function classify(particle: GroupParticle, typeNames: readonly string[]): RepeatingGroup {
  const shape = unwrap(particle);
  const untyped = (reason: string): RepeatingGroup => ({ untyped: { particle, reason } });
  const nested = shape.particles.find((p) => p.kind !== 'element');
  if (nested?.kind === 'any')
    return untyped(
      'one of its members is a wildcard (xs:any), so which occurrence an unclaimed child belongs to is not in the document',
    );
  if (nested !== undefined)
    return untyped(`one of its members is a nested <${nested.kind}>; smskit types a repeating group of elements only`);
  const members = shape.particles as ElementDecl[];
  for (const m of members) {
    const clark = `{${m.name.ns}}${m.name.local}`;
    if (typeNames.filter((n) => n === clark).length > 1)
      return untyped(
        `another particle of the type is also named ${m.name.local}, so which one a child of that name belongs to is not in the document`,
      );
  }
  const once = (m: ElementDecl): boolean => m.minOccurs === 1 && m.maxOccurs === 1;
  if (shape.kind === 'choice') {
    const loose = members.find((m) => !once(m));
    if (loose !== undefined)
      return untyped(
        `its member ${loose.name.local} occurs ${occursText(loose)} in one occurrence, so where one occurrence ends and the next begins is not in the document`,
      );
  } else if (!members.some(once)) {
    return untyped(
      'none of its members occurs exactly once in each occurrence, so where one occurrence ends and the next begins is not in the document',
    );
  }
  const kind = shape.kind === 'choice' ? 'choice' : 'sequence';
  return {
    typed: {
      particle,
      kind,
      minOccurs: shape.minOccurs,
      maxOccurs: shape.maxOccurs,
      members,
      name: shape.substitutionHead?.local ?? groupName(kind, members),
    },
  };
}

function occursText(m: ElementDecl): string {
  return `${m.minOccurs} to ${m.maxOccurs === 'unbounded' ? 'unbounded' : m.maxOccurs} times`;
}

/** Members named in a group's property name; past them it ends in `OrMore` / `AndMore`. */
const NAMED_MEMBERS = 3;

/**
 * `keyAndValue`, `circleOrSquare`: as JAXB's XJC names the property of such a group, the first
 * three members only (`aOrBOrCOrMore`), so a long choice does not make a long name.
 */
function groupName(kind: 'sequence' | 'choice', members: readonly ElementDecl[]): string {
  const [first, ...rest] = members.map((m) => m.name.local);
  const join = kind === 'choice' ? 'Or' : 'And';
  const named = rest.slice(0, NAMED_MEMBERS - 1).map((n) => join + n.charAt(0).toUpperCase() + n.slice(1));
  return first! + named.join('') + (rest.length >= NAMED_MEMBERS ? `${join}More` : '');
}

/**
 * The warning for a type kept as XML because of `group`; `what` names the type
 * (`type {urn:x}Pairs`, `the type of element {urn:x}Draw`).
 */
export function untypedGroupWarning(what: string, group: UntypedGroup): ModelWarning {
  const particle = group.particle;
  const members = memberParticles(particle).map((p) => (p.kind === 'any' ? 'xs:any' : (p as ElementDecl).name.local));
  const occurs = `${particle.minOccurs === 1 ? '' : `minOccurs="${particle.minOccurs}" `}maxOccurs="${particle.maxOccurs}"`;
  return {
    code: 'REPEATING_GROUP_AS_XML',
    message: `${what} is kept as XML (XmlElement): its <${particle.kind} ${occurs}> repeats ${members.join(', ')}, and ${group.reason}; the XmlElement keeps every child in document order`,
    source: particle.source,
  };
}
