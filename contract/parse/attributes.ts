/** Attribute declarations and uses, with attribute refs and attributeGroups flattened in order. */
import type { XmlElement } from '../../runtime/xml/types.js';
import { GeneratorError } from '../errors.js';
import { clark, qname, type AttributeDecl, type QName, type TypeUse } from '../model/index.js';
import type { SchemaDocument } from './documents.js';
import { XML_NS, XSD_NS } from './namespaces.js';
import { guarded, type SchemaContext } from './schema-context.js';
import { readSimpleType } from './simple-types.js';
import { resolveTypeRef, unresolved } from './type-refs.js';
import {
  at,
  attr,
  children,
  documented,
  firstChild,
  qnameAttr,
  requiredAttr,
  requiredQNameAttr,
  showQName,
  tagName,
  xsdDocumentation,
} from './xml-access.js';

export interface AttributeUses {
  readonly attributes: AttributeDecl[];
  readonly anyAttribute: boolean;
}

export function readAttributeUses(ctx: SchemaContext, doc: SchemaDocument, container: XmlElement): AttributeUses {
  const uses: AttributeUses = { attributes: [], anyAttribute: false };
  collect(ctx, doc, container, uses);
  return uses;
}

function collect(
  ctx: SchemaContext,
  doc: SchemaDocument,
  container: XmlElement,
  into: { attributes: AttributeDecl[]; anyAttribute: boolean },
): void {
  for (const el of children(container, XSD_NS)) {
    if (el.local === 'attribute') into.attributes.push(readAttribute(ctx, doc, el));
    else if (el.local === 'attributeGroup') collectGroup(ctx, doc, el, into);
    else if (el.local === 'anyAttribute') into.anyAttribute = true;
  }
}

function collectGroup(
  ctx: SchemaContext,
  doc: SchemaDocument,
  el: XmlElement,
  into: { attributes: AttributeDecl[]; anyAttribute: boolean },
): void {
  const name = requiredQNameAttr(doc.file, el, 'ref');
  const def = ctx.index.attributeGroups.get(clark(name));
  if (def === undefined) throw unresolved(ctx.index, 'attributeGroup', name, { file: doc.file, el, attribute: 'ref' });
  const cycle = () =>
    new GeneratorError('WSDL_INVALID', `attributeGroup ${showQName(name)} contains itself`, at(doc.file, el));
  guarded(ctx, `attributeGroup ${clark(name)}`, cycle, () => collect(ctx, def.doc, def.el, into));
}

function readAttribute(ctx: SchemaContext, doc: SchemaDocument, el: XmlElement): AttributeDecl {
  const use = readUse(doc, el);
  const ref = qnameAttr(doc.file, el, 'ref');
  if (ref !== undefined) return attributeRef(ctx, doc, el, ref, use);
  const form = attr(el, 'form')?.trim();
  const qualified = form === undefined ? doc.attributesQualified : form === 'qualified';
  const local = requiredAttr(doc.file, el, 'name');
  return declaration(ctx, doc, el, qname(qualified ? doc.targetNamespace : '', local), use);
}

function declaration(
  ctx: SchemaContext,
  doc: SchemaDocument,
  el: XmlElement,
  name: QName,
  use: AttributeDecl['use'],
): AttributeDecl {
  const defaultValue = attr(el, 'default');
  const fixedValue = attr(el, 'fixed');
  return {
    name,
    type: attributeType(ctx, doc, el),
    use,
    ...(defaultValue === undefined ? {} : { defaultValue }),
    ...(fixedValue === undefined ? {} : { fixedValue }),
    ...documented(xsdDocumentation(el)),
    source: at(doc.file, el),
  };
}

/** `<attribute ref="...">`: a global attribute (always qualified), or one of the xml: attributes. */
function attributeRef(
  ctx: SchemaContext,
  doc: SchemaDocument,
  el: XmlElement,
  ref: QName,
  use: AttributeDecl['use'],
): AttributeDecl {
  const def = ctx.index.attributes.get(clark(ref));
  if (def === undefined) {
    if (ref.ns === XML_NS) {
      return { name: ref, type: { kind: 'builtin', name: qname(XSD_NS, 'string') }, use, source: at(doc.file, el) };
    }
    throw unresolved(ctx.index, 'attribute', ref, { file: doc.file, el, attribute: 'ref' });
  }
  const global = declaration(ctx, def.doc, def.el, ref, use);
  const defaultValue = attr(el, 'default') ?? global.defaultValue;
  const fixedValue = attr(el, 'fixed') ?? global.fixedValue;
  return {
    ...global,
    ...(defaultValue === undefined ? {} : { defaultValue }),
    ...(fixedValue === undefined ? {} : { fixedValue }),
    source: at(doc.file, el),
  };
}

/** An attribute without a type is anySimpleType (XSD §3.2.2). */
function attributeType(ctx: SchemaContext, doc: SchemaDocument, el: XmlElement): TypeUse {
  const typeName = qnameAttr(doc.file, el, 'type');
  if (typeName !== undefined) return resolveTypeRef(ctx.index, typeName, { file: doc.file, el, attribute: 'type' });
  const simple = firstChild(el, XSD_NS, 'simpleType');
  if (simple !== undefined) return { kind: 'inline', type: readSimpleType(ctx, doc, simple, undefined) };
  return { kind: 'builtin', name: qname(XSD_NS, 'anySimpleType') };
}

function readUse(doc: SchemaDocument, el: XmlElement): AttributeDecl['use'] {
  const use = attr(el, 'use')?.trim() ?? 'optional';
  if (use === 'optional' || use === 'required' || use === 'prohibited') return use;
  throw new GeneratorError(
    'WSDL_INVALID',
    `<${tagName(el)}> use="${use}" is not optional, required or prohibited`,
    at(doc.file, el),
  );
}
