/** Resolves every global element and named type of the document set into the model. */
import { GeneratorError } from '../errors.js';
import { qname, type ElementDecl, type SchemaSet, type SchemaType } from '../model/index.js';
import { readComplexType } from './complex-types.js';
import type { SchemaIndex } from './definition-index.js';
import { readGlobalElement } from './elements.js';
import { newSchemaContext } from './schema-context.js';
import { readSimpleType } from './simple-types.js';
import { at, tagName } from './xml-access.js';

export function resolveSchemaSet(index: SchemaIndex): SchemaSet {
  const ctx = newSchemaContext(index);
  const elements: Record<string, ElementDecl> = {};
  for (const [key, def] of index.elements) elements[key] = readGlobalElement(ctx, def);
  const types: Record<string, SchemaType> = {};
  for (const [key, def] of index.types) {
    const name = qname(def.doc.targetNamespace, def.name);
    if (def.el.local === 'complexType') types[key] = readComplexType(ctx, def.doc, def.el, name);
    else if (def.el.local === 'simpleType') types[key] = readSimpleType(ctx, def.doc, def.el, name);
    else
      throw new GeneratorError(
        'WSDL_INVALID',
        `<${tagName(def.el)}> is not a type definition`,
        at(def.doc.file, def.el),
      );
  }
  return { elements, types, namespaces: index.namespaces };
}
