/**
 * Repeating model groups whose members' order is data: pairs `(key, value)*` published as
 * `<sequence maxOccurs="unbounded">`, and repeating choices `(circle | square)*` (JAXB publishes
 * every `@XmlElements` list so). A planned object holds one property per member, so such a
 * group would be written as every key, then every value (schema-invalid for the sequence) and
 * read without knowing which member came first. A type holding one is kept as XML instead
 * (`XmlElement`, which keeps every child in document order, both ways), with a warning at the
 * group's line. A repeating group of a single member, `(item)*`, is just an array of that
 * member and is planned as one.
 */
import type { AnyParticle, ComplexType, ElementDecl, GroupParticle, ModelWarning } from '../model/index.js';

/** The first repeating group of `type`'s own content holding more than one member, if any. */
export function interleavedGroup(type: ComplexType): GroupParticle | undefined {
  return type.content === undefined ? undefined : findInterleaved(type.content);
}

function findInterleaved(group: GroupParticle): GroupParticle | undefined {
  if (repeats(group) && memberParticles(group).length > 1) return group;
  for (const particle of group.particles) {
    if (particle.kind !== 'element' && particle.kind !== 'any') {
      const found = findInterleaved(particle);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function repeats(group: GroupParticle): boolean {
  return group.maxOccurs === 'unbounded' || group.maxOccurs > 1;
}

/** The element and wildcard particles under `group`, nested groups walked through. */
function memberParticles(group: GroupParticle): (ElementDecl | AnyParticle)[] {
  return group.particles.flatMap((p) => (p.kind === 'element' || p.kind === 'any' ? [p] : memberParticles(p)));
}

/**
 * The warning for a type kept as XML because of `group`; `what` names the type
 * (`type {urn:x}Pairs`, `the type of element {urn:x}Draw`).
 */
export function interleavedGroupWarning(what: string, group: GroupParticle): ModelWarning {
  const members = memberParticles(group).map((p) => (p.kind === 'any' ? 'xs:any' : p.name.local));
  const occurs = `${group.minOccurs === 1 ? '' : `minOccurs="${group.minOccurs}" `}maxOccurs="${group.maxOccurs}"`;
  const lost =
    group.kind === 'choice'
      ? 'one array per member would lose which came first'
      : `one array per member would write every ${members[0]} before every ${members[1]}, which the schema forbids`;
  return {
    code: 'REPEATING_GROUP_AS_XML',
    message: `${what} is kept as XML (XmlElement): its <${group.kind} ${occurs}> repeats ${members.join(', ')}, whose order on the wire is data that smskit's typed objects do not carry yet (${lost}); the XmlElement keeps every child in document order`,
    source: group.source,
  };
}
