/** simpleType: restriction (enumerations and facets), list, union. */
import type { XmlElement } from '../../runtime/xml/types.js';
import { GeneratorError } from '../errors.js';
import type { QName, SimpleType, TypeUse } from '../model/index.js';
import type { SchemaDocument } from './documents.js';
import { XSD_NS } from './namespaces.js';
import type { SchemaContext } from './schema-context.js';
import { resolveTypeRef } from './type-refs.js';
import {
  at,
  attr,
  children,
  documented,
  firstChild,
  qnameAttr,
  qnameValue,
  tagName,
  xsdDocumentation,
} from './xml-access.js';

type Facets = { -readonly [K in keyof SimpleType['facets']]: SimpleType['facets'][K] };

const NUMBER_FACETS = ['minLength', 'maxLength', 'length', 'totalDigits', 'fractionDigits'] as const;
const STRING_FACETS = ['minInclusive', 'maxInclusive', 'minExclusive', 'maxExclusive'] as const;

export function readSimpleType(
  ctx: SchemaContext,
  doc: SchemaDocument,
  el: XmlElement,
  name: QName | undefined,
): SimpleType {
  const common = { kind: 'simple' as const, ...(name === undefined ? {} : { name }) };
  const tail = { ...documented(xsdDocumentation(el)), source: at(doc.file, el) };
  const restriction = firstChild(el, XSD_NS, 'restriction');
  if (restriction !== undefined) {
    const { enumeration, facets } = readFacets(doc, restriction);
    return {
      ...common,
      variety: 'atomic',
      base: derivedFrom(ctx, doc, restriction, 'base'),
      enumeration,
      facets,
      ...tail,
    };
  }
  const list = firstChild(el, XSD_NS, 'list');
  if (list !== undefined) {
    return {
      ...common,
      variety: 'list',
      base: derivedFrom(ctx, doc, list, 'itemType'),
      enumeration: [],
      facets: {},
      ...tail,
    };
  }
  const union = firstChild(el, XSD_NS, 'union');
  if (union !== undefined) {
    return {
      ...common,
      variety: 'union',
      memberTypes: unionMembers(ctx, doc, union),
      enumeration: [],
      facets: {},
      ...tail,
    };
  }
  throw new GeneratorError('WSDL_INVALID', `<${tagName(el)}> has no restriction, list or union`, at(doc.file, el));
}

/** The base/itemType attribute, or the anonymous simpleType written inside instead. */
function derivedFrom(ctx: SchemaContext, doc: SchemaDocument, el: XmlElement, attribute: string): TypeUse {
  const name = qnameAttr(doc.file, el, attribute);
  if (name !== undefined) return resolveTypeRef(ctx.index, name, { file: doc.file, el, attribute });
  const inline = firstChild(el, XSD_NS, 'simpleType');
  if (inline !== undefined) return { kind: 'inline', type: readSimpleType(ctx, doc, inline, undefined) };
  throw new GeneratorError(
    'WSDL_INVALID',
    `<${tagName(el)}> has neither ${attribute}= nor an inline simpleType`,
    at(doc.file, el),
  );
}

function unionMembers(ctx: SchemaContext, doc: SchemaDocument, union: XmlElement): TypeUse[] {
  const named = (attr(union, 'memberTypes') ?? '').split(/\s+/).filter((t) => t !== '');
  const members: TypeUse[] = named.map((token) =>
    resolveTypeRef(ctx.index, qnameValue(doc.file, union, 'memberTypes', token), {
      file: doc.file,
      el: union,
      attribute: 'memberTypes',
    }),
  );
  for (const inline of children(union, XSD_NS, 'simpleType')) {
    members.push({ kind: 'inline', type: readSimpleType(ctx, doc, inline, undefined) });
  }
  return members;
}

function readFacets(
  doc: SchemaDocument,
  restriction: XmlElement,
): { enumeration: string[]; facets: SimpleType['facets'] } {
  const enumeration: string[] = [];
  const patterns: string[] = [];
  const facets: Facets = {};
  for (const el of children(restriction, XSD_NS)) {
    const value = attr(el, 'value');
    if (value === undefined) continue;
    if (el.local === 'enumeration') enumeration.push(value);
    else if (el.local === 'pattern') patterns.push(value);
    else if ((NUMBER_FACETS as readonly string[]).includes(el.local))
      facets[el.local as (typeof NUMBER_FACETS)[number]] = facetNumber(doc, el, value);
    else if ((STRING_FACETS as readonly string[]).includes(el.local))
      facets[el.local as (typeof STRING_FACETS)[number]] = value.trim();
  }
  if (patterns.length > 0) facets.pattern = patterns;
  return { enumeration, facets };
}

function facetNumber(doc: SchemaDocument, el: XmlElement, value: string): number {
  if (!/^\s*\d+\s*$/.test(value)) {
    throw new GeneratorError(
      'WSDL_INVALID',
      `<${tagName(el)} value="${value}"> is not a non-negative integer`,
      at(doc.file, el),
    );
  }
  return Number(value);
}
