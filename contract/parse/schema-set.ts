/** Resolves every global element and named type of the document set into the model. */
import { GeneratorError } from '../errors.js';
import { clark, qname, type Message, type ElementDecl, type SchemaSet, type SchemaType } from '../model/index.js';
import { readComplexType } from './complex-types.js';
import type { Definition, SchemaIndex } from './definition-index.js';
import type { SchemaDocument } from './documents.js';
import { type BrokenDefinition, tolerate } from './broken.js';
import { readGlobalElement } from './elements.js';
import { newSchemaContext } from './schema-context.js';
import { readSimpleType } from './simple-types.js';
import { at, tagName } from './xml-access.js';

/** Every definition that cannot be read goes to `broken` (broken.ts) instead of refusing the file. */
export function resolveSchemaSet(index: SchemaIndex, broken: Map<string, BrokenDefinition>): SchemaSet {
  const ctx = newSchemaContext(index);
  const elements: Record<string, ElementDecl> = {};
  for (const [key, def] of index.elements) {
    const element = tolerate(`element:${key}`, broken, () => readGlobalElement(ctx, def));
    if (element !== undefined) elements[key] = element;
  }
  const types: Record<string, SchemaType> = {};
  for (const [key, def] of index.types) {
    const type = tolerate(`type:${key}`, broken, () => readType(ctx, def));
    if (type !== undefined) types[key] = type;
  }
  for (const [key, type] of ctx.synthesizedTypes) types[key] = type;
  return { elements, types: withoutDerivedArrays(types), namespaces: index.namespaces };
}

/**
 * A message body's wrapper is not read as an array wrapper even when its shape is one (JAX-WS's
 * `listSkusResponse` holding one repeated `return`): an operation's answer stays an object with
 * its named result, as its other operations' answers are.
 */
export function withoutBodyArrays(schema: SchemaSet, messages: readonly Message[]): SchemaSet {
  const types = { ...schema.types };
  for (const part of messages.flatMap((m) => m.parts)) {
    const element = part.element === undefined ? undefined : schema.elements[clark(part.element)];
    if (element?.type.kind !== 'named') continue;
    const key = clark(element.type.name);
    const type = types[key];
    if (type?.kind === 'complex' && type.arrayItem !== undefined) {
      const { arrayItem: _item, ...object } = type;
      types[key] = object;
    }
  }
  return { ...schema, types };
}

/** A type another derives from is not read as an array wrapper: its derived types add members to it. */
function withoutDerivedArrays(types: Record<string, SchemaType>): Record<string, SchemaType> {
  const bases = new Set(
    Object.values(types).flatMap((t) => (t.kind === 'complex' && t.base !== undefined ? [clark(t.base.name)] : [])),
  );
  for (const key of bases) {
    const type = types[key];
    if (type?.kind === 'complex' && type.arrayItem !== undefined) {
      const { arrayItem: _item, ...object } = type;
      types[key] = object;
    }
  }
  return types;
}

function readType(ctx: ReturnType<typeof newSchemaContext>, def: Definition<SchemaDocument>): SchemaType {
  const name = qname(def.doc.targetNamespace, def.name);
  if (def.el.local === 'complexType') return readComplexType(ctx, def.doc, def.el, name);
  if (def.el.local === 'simpleType') return readSimpleType(ctx, def.doc, def.el, name);
  throw new GeneratorError('WSDL_INVALID', `<${tagName(def.el)}> is not a type definition`, at(def.doc.file, def.el));
}
