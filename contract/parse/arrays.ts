/**
 * Array wrappers, recognised by shape, not by name: a named complexType whose whole content is
 * one sequence holding one repeated element — ASMX's and WCF's `ArrayOfX`, spyne's `XArray`,
 * JAX-WS rpc's `xArray` of `item`s. The emitter maps it to `T[]`; the runtime wraps the items.
 * Such a type with attributes, a base, mixed content, or a type derived from it (schema-set.ts)
 * is an object like any other: its shape then says more than "a list".
 */
import type { ComplexType, ElementDecl } from '../model/index.js';

export function detectArrayItem(type: ComplexType): ElementDecl | undefined {
  if (type.name === undefined) return undefined;
  if (type.base !== undefined || type.simpleContent !== undefined || type.attributes.length > 0) return undefined;
  if (type.anyAttribute || type.mixed || type.abstract) return undefined;
  const content = type.content;
  if (content === undefined || content.kind !== 'sequence' || content.minOccurs !== 1 || content.maxOccurs !== 1)
    return undefined;
  if (content.particles.length !== 1) return undefined;
  const item = content.particles[0]!;
  if (item.kind !== 'element' || item.isSchemaRef === true) return undefined;
  return item.maxOccurs === 'unbounded' || item.maxOccurs > 1 ? item : undefined;
}
