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

/**
 * A particle's minOccurs and maxOccurs. maxOccurs below minOccurs is a schema error (XSD 1.0
 * Part 1 §3.9.6, Particle Correct; .NET and Xerces refuse it too): no count of elements could
 * satisfy it, so the definition holding it cannot be read — it is left out with whatever uses it.
 */
export function occurs(doc: SchemaDocument, el: XmlElement): { minOccurs: number; maxOccurs: MaxOccurs } {
  const min = attr(el, 'minOccurs')?.trim();
  const max = attr(el, 'maxOccurs')?.trim();
  const minOccurs = min === undefined ? 1 : nonNegative(doc, el, 'minOccurs', min);
  const maxOccurs = max === undefined ? 1 : max === 'unbounded' ? 'unbounded' : nonNegative(doc, el, 'maxOccurs', max);
  if (maxOccurs !== 'unbounded' && maxOccurs < minOccurs) {
    const written = [min === undefined ? '' : ` minOccurs="${min}"`, max === undefined ? '' : ` maxOccurs="${max}"`];
    const shown = (name: string, value: number, given: string | undefined) =>
      `${name} ${value}${given === undefined ? ' (absent: 1)' : ''}`;
    throw new GeneratorError(
      'WSDL_INVALID',
      `<${tagName(el)}${written.join('')}>: ${shown('maxOccurs', maxOccurs, max)} is less than ${shown('minOccurs', minOccurs, min)}, which no schema allows (XSD 1.0 Part 1 §3.9.6)`,
      at(doc.file, el),
    );
  }
  return { minOccurs, maxOccurs };
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
