/**
 * DataSet-style content: a complex type whose particles are only `xs:any` wildcards and
 * `<element ref="s:schema"/>` (ASMX DataSet results) carries arbitrary XML; the generated
 * code gives the whole element to the caller as an `XmlElement` rather than splitting it
 * into a schema part and a diffgram part. Mixed content is treated the same way, and so is
 * a repeating group whose occurrences cannot be found again in a document (repeating-groups.ts).
 */
import type { ComplexType, Particle } from '../model/index.js';
import { untypedGroup, type UntypedGroup } from './repeating-groups.js';

export function isXmlContent(type: ComplexType): boolean {
  return isWildcardOrMixed(type) || orderKeptAsXml(type) !== undefined;
}

/**
 * The repeating group of several members for which a type that would otherwise be an object
 * is kept as XML (its occurrences cannot be told apart by the elements' names), if any.
 */
export function orderKeptAsXml(type: ComplexType): UntypedGroup | undefined {
  if (type.arrayItem !== undefined || isWildcardOrMixed(type)) return undefined;
  return untypedGroup(type);
}

function isWildcardOrMixed(type: ComplexType): boolean {
  if (type.arrayItem !== undefined || type.simpleContent !== undefined) return false;
  // Mixed content (text between child elements) has no object form; the XML tree keeps it all.
  if (type.mixed) return true;
  if (type.base !== undefined) return false;
  if (type.attributes.length > 0 || type.content === undefined) return false;
  const leaves: Particle[] = [];
  collectLeaves(type.content, leaves);
  return leaves.length > 0 && leaves.every((p) => p.kind === 'any' || (p.kind === 'element' && p.isSchemaRef === true));
}

function collectLeaves(particle: Particle, out: Particle[]): void {
  if (particle.kind === 'element' || particle.kind === 'any') out.push(particle);
  else for (const child of particle.particles) collectLeaves(child, out);
}
