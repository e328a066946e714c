/**
 * Substitution groups (XSD 1.0 Part 1 §2.2.2.2, §3.3.4): where a schema refers to an element
 * (`<element ref="tns:shape"/>`), any element of that element's substitution group may stand in
 * its place, under its own name: `circle`, `square` (each declaring
 * `substitutionGroup="tns:shape"`, directly or through another member), and `shape` itself
 * unless it is abstract. So such a reference is read as the choice of those elements, with the
 * reference's occurrences (particles.ts), and carried as any choice is: one property per member
 * when it occurs at most once, one object per occurrence when it repeats
 * (plan/repeating-groups.ts), named after the head. The head's `block` (or the schema's `blockDefault`) holding `substitution` or `#all`
 * allows no substitute, and the reference stays the head alone.
 *
 * A reference to an abstract element with nothing that may stand in its place, and a message
 * part naming an abstract element (a body is one element, named by the part), cannot be carried:
 * the definition holding it is left out (broken.ts) with whatever uses it, naming the substitutes.
 */
import type { XmlElement } from '../../runtime/xml/types.js';
import { GeneratorError } from '../errors.js';
import { clark, type QName } from '../model/index.js';
import type { Definition, SchemaIndex } from './definition-index.js';
import type { SchemaDocument } from './documents.js';
import { booleanAttr } from './schema-context.js';
import { at, attr, qnameAttr, showQName, tagName } from './xml-access.js';

/**
 * What may stand where the element `head` (a Clark key) is referred to, besides itself: its
 * substitution group's elements, or none when the head blocks substitution.
 */
export function substitutes(index: SchemaIndex, head: string): Definition<SchemaDocument>[] {
  const def = index.elements.get(head);
  if (def === undefined || blocksSubstitution(def)) return [];
  return substitutesOf(index, head).map((key) => index.elements.get(key)!);
}

/** The head's `block` (else its schema's `blockDefault`) forbids every substitute. */
function blocksSubstitution(head: Definition<SchemaDocument>): boolean {
  const block = attr(head.el, 'block') ?? attr(head.doc.root, 'blockDefault') ?? '';
  const tokens = block.trim().split(/\s+/);
  return tokens.includes('#all') || tokens.includes('substitution');
}

/** Refuses `el`'s reference (`ref=`, a part's `element=`) to `name` when that element is abstract. */
export function throwIfAbstractElement(
  index: SchemaIndex,
  name: QName,
  site: { readonly file: string; readonly el: XmlElement; readonly attribute: string },
): void {
  const head = index.elements.get(clark(name));
  if (head === undefined || !booleanAttr(head.el, 'abstract')) return;
  const members = blocksSubstitution(head) ? [] : substitutesOf(index, clark(name));
  const stand =
    members.length === 0
      ? 'and no element may take its place (none declares it as its substitutionGroup, or its block forbids substitution), so nothing may stand in its place'
      : `so only an element of its substitution group (${members.join(', ')}) may stand in its place, under its own name, which smskit carries where an element refers to it but not as a message part (a body is one element)`;
  throw new GeneratorError(
    'WSDL_UNSUPPORTED',
    `<${tagName(site.el)} ${site.attribute}="${attr(site.el, site.attribute) ?? ''}">: element ${showQName(name)} is abstract, ${stand} (written as ${name.local} itself it would break the schema)`,
    at(site.file, site.el),
  );
}

/** The elements whose substitution group is `head`, directly or through another, in document order; abstract ones left out. */
function substitutesOf(index: SchemaIndex, head: string): string[] {
  const heads = new Set([head]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [key, def] of index.elements) {
      if (heads.has(key)) continue;
      const group = qnameAttr(def.doc.file, def.el, 'substitutionGroup');
      if (group === undefined || !heads.has(clark(group))) continue;
      heads.add(key);
      grew = true;
    }
  }
  return [...index.elements]
    .filter(([key, def]) => key !== head && heads.has(key) && !booleanAttr(def.el, 'abstract'))
    .map(([key]) => key);
}
