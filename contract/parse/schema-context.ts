/** State shared by the schema resolution modules: the index, memoised globals, cycle guards. */
import type { XmlElement } from '../../runtime/xml/types.js';
import { GeneratorError } from '../errors.js';
import type { ComplexType, ElementDecl, MaxOccurs } from '../model/index.js';
import type { SchemaIndex } from './definition-index.js';
import type { SchemaDocument } from './documents.js';
import { at, attr, tagName } from './xml-access.js';

export interface SchemaContext {
  readonly index: SchemaIndex;
  /** Global elements already resolved, by Clark key (element refs reuse them). */
  readonly globalElements: Map<string, ElementDecl>;
  /** Clark keys of element refs, groups and attributeGroups being expanded (cycle guard). */
  readonly expanding: Set<string>;
  /** Named types made for anonymous types that contain their own element (elements.ts), by Clark key. */
  readonly synthesizedTypes: Map<string, ComplexType>;
}

export function newSchemaContext(index: SchemaIndex): SchemaContext {
  return { index, globalElements: new Map(), expanding: new Set(), synthesizedTypes: new Map() };
}

export function occurs(doc: SchemaDocument, el: XmlElement): { minOccurs: number; maxOccurs: MaxOccurs } {
  const min = attr(el, 'minOccurs')?.trim();
  const max = attr(el, 'maxOccurs')?.trim();
  return {
    minOccurs: min === undefined ? 1 : nonNegative(doc, el, 'minOccurs', min),
    maxOccurs: max === undefined ? 1 : max === 'unbounded' ? 'unbounded' : nonNegative(doc, el, 'maxOccurs', max),
  };
}

function nonNegative(doc: SchemaDocument, el: XmlElement, name: string, value: string): number {
  if (!/^\d+$/.test(value)) {
    throw new GeneratorError(
      'WSDL_INVALID',
      `<${tagName(el)}> ${name}="${value}" is not a non-negative integer`,
      at(doc.file, el),
    );
  }
  return Number(value);
}

export function booleanAttr(el: XmlElement, name: string): boolean {
  const value = attr(el, name)?.trim();
  return value === 'true' || value === '1';
}

/** Runs `expand` for `key` unless it is already being expanded (a cycle). */
export function guarded<T>(ctx: SchemaContext, key: string, onCycle: () => Error, expand: () => T): T {
  if (ctx.expanding.has(key)) throw onCycle();
  ctx.expanding.add(key);
  try {
    return expand();
  } finally {
    ctx.expanding.delete(key);
  }
}
