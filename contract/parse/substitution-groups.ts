/**
 * An abstract element (`<element name="shape" abstract="true">`) never appears on the wire: in
 * its place stands an element of its substitution group (`circle`, `square`: each declares
 * `substitutionGroup="tns:shape"`), under its own name. smskit writes and reads an element by
 * the name its declaration gives, so a reference to an abstract element would be written as that
 * element, which the schema forbids (XSD 1.0 Part 1 §3.3.4), and its substitutes read as
 * unexpected. Until substitutes are carried, the definition holding such a reference cannot be
 * read: it is left out (broken.ts) with whatever uses it, naming the substitutes.
 */
import type { XmlElement } from '../../runtime/xml/types.js';
import { GeneratorError } from '../errors.js';
import { clark, type QName } from '../model/index.js';
import type { SchemaIndex } from './definition-index.js';
import { booleanAttr } from './schema-context.js';
import { at, attr, qnameAttr, showQName, tagName } from './xml-access.js';

/** Refuses `el`'s reference (`ref=`, a part's `element=`) to `name` when that element is abstract. */
export function throwIfAbstractElement(
  index: SchemaIndex,
  name: QName,
  site: { readonly file: string; readonly el: XmlElement; readonly attribute: string },
): void {
  const head = index.elements.get(clark(name));
  if (head === undefined || !booleanAttr(head.el, 'abstract')) return;
  const members = substitutesOf(index, clark(name));
  const stand =
    members.length === 0
      ? 'and no element declares it as its substitutionGroup, so nothing may stand in its place'
      : `so only an element of its substitution group (${members.join(', ')}) may stand in its place, under its own name, which smskit does not carry yet`;
  throw new GeneratorError(
    'WSDL_UNSUPPORTED',
    `<${tagName(site.el)} ${site.attribute}="${attr(site.el, site.attribute) ?? ''}">: element ${showQName(name)} is abstract, ${stand} (written as ${name.local} itself it would break the schema)`,
    at(site.file, site.el),
  );
}

/** The elements whose substitution group is `head`, directly or through another, in index order. */
function substitutesOf(index: SchemaIndex, head: string): string[] {
  const found: string[] = [];
  const heads = new Set([head]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [key, def] of index.elements) {
      if (heads.has(key)) continue;
      const group = qnameAttr(def.doc.file, def.el, 'substitutionGroup');
      if (group === undefined || !heads.has(clark(group))) continue;
      heads.add(key);
      found.push(key);
      grew = true;
    }
  }
  return found.filter((key) => !booleanAttr(index.elements.get(key)!.el, 'abstract'));
}
