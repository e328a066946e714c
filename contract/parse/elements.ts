/** Element declarations, global and local, with form/elementFormDefault applied to the name. */
import type { XmlElement } from '../../runtime/xml/types.js';
import { clark, qname, type ElementDecl, type QName, type TypeUse } from '../model/index.js';
import { readComplexType } from './complex-types.js';
import type { Definition } from './definition-index.js';
import type { SchemaDocument } from './documents.js';
import { XSD_NS } from './namespaces.js';
import { booleanAttr, guarded, occurs, type SchemaContext } from './schema-context.js';
import { readSimpleType } from './simple-types.js';
import { checkElementRef, resolveTypeRef } from './type-refs.js';
import { at, attr, documented, firstChild, qnameAttr, requiredAttr, xsdDocumentation } from './xml-access.js';

/** Thrown when a global element is reached again while its anonymous type is being read. */
class ContainsItself extends Error {
  constructor(readonly key: string) {
    super(`element ${key} contains itself`);
  }
}

/** A top-level `xs:element`: always in the schema's target namespace, occurs once. */
export function readGlobalElement(ctx: SchemaContext, def: Definition<SchemaDocument>): ElementDecl {
  const name = qname(def.doc.targetNamespace, def.name);
  const key = clark(name);
  const done = ctx.globalElements.get(key);
  if (done !== undefined) return done;
  const cycle = () => new ContainsItself(key);
  try {
    const decl = guarded(ctx, `element ${key}`, cycle, () =>
      declaration(ctx, def.doc, def.el, name, { minOccurs: 1, maxOccurs: 1 }),
    );
    ctx.globalElements.set(key, decl);
    return decl;
  } catch (error) {
    const complex = firstChild(def.el, XSD_NS, 'complexType');
    // Only the outermost reading of the element (no longer expanding it) gives it a named type.
    const outermost = !ctx.expanding.has(`element ${key}`);
    if (!(error instanceof ContainsItself) || error.key !== key || !outermost || complex === undefined) throw error;
    return withSynthesizedType(ctx, def, name, complex);
  }
}

/**
 * An element that contains itself through its anonymous type (valid XSD: a folder of folders)
 * gets a named type, `<element>Type` in its namespace (numbered if taken), so the generated code
 * can refer to it; the element is known by that type before the type is read, ending the cycle.
 */
function withSynthesizedType(
  ctx: SchemaContext,
  def: Definition<SchemaDocument>,
  name: QName,
  complex: XmlElement,
): ElementDecl {
  const taken = (local: string) => {
    const typeKey = clark(qname(name.ns, local));
    return ctx.index.types.has(typeKey) || ctx.synthesizedTypes.has(typeKey);
  };
  let local = `${name.local}Type`;
  for (let n = 2; taken(local); n++) local = `${name.local}Type${n}`;
  const typeName = qname(name.ns, local);
  const decl: ElementDecl = {
    kind: 'element',
    name,
    type: { kind: 'named', name: typeName },
    minOccurs: 1,
    maxOccurs: 1,
    nillable: booleanAttr(def.el, 'nillable'),
    ...valueConstraints(def.el),
    ...documented(xsdDocumentation(def.el)),
    source: at(def.doc.file, def.el),
  };
  ctx.globalElements.set(clark(name), decl);
  ctx.synthesizedTypes.set(clark(typeName), readComplexType(ctx, def.doc, complex, typeName));
  return decl;
}

/** An `xs:element` particle inside a model group: a local declaration or a `ref`. */
export function readLocalElement(ctx: SchemaContext, doc: SchemaDocument, el: XmlElement): ElementDecl {
  const ref = qnameAttr(doc.file, el, 'ref');
  if (ref !== undefined) return elementRef(ctx, doc, el, ref);
  const local = requiredAttr(doc.file, el, 'name');
  const form = attr(el, 'form')?.trim();
  const qualified = form === undefined ? doc.elementsQualified : form === 'qualified';
  return declaration(ctx, doc, el, qname(qualified ? doc.targetNamespace : '', local), occurs(doc, el));
}

function declaration(
  ctx: SchemaContext,
  doc: SchemaDocument,
  el: XmlElement,
  name: QName,
  counts: { minOccurs: number; maxOccurs: ElementDecl['maxOccurs'] },
): ElementDecl {
  const decl: ElementDecl = {
    kind: 'element',
    name,
    type: elementType(ctx, doc, el),
    ...counts,
    nillable: booleanAttr(el, 'nillable'),
    ...valueConstraints(el),
    ...documented(xsdDocumentation(el)),
    source: at(doc.file, el),
  };
  return decl;
}

/** `<element ref="...">`: the global's name, type and nillability with the ref's occurrence. */
function elementRef(ctx: SchemaContext, doc: SchemaDocument, el: XmlElement, ref: QName): ElementDecl {
  const counts = occurs(doc, el);
  const source = at(doc.file, el);
  if (ref.ns === XSD_NS && ref.local === 'schema') {
    // ASMX DataSet results: an inline XML Schema document precedes the data.
    return {
      kind: 'element',
      name: ref,
      type: { kind: 'anyType' },
      ...counts,
      nillable: false,
      ref,
      isSchemaRef: true,
      source,
    };
  }
  checkElementRef(ctx.index, ref, { file: doc.file, el, attribute: 'ref' });
  const global = readGlobalElement(ctx, ctx.index.elements.get(clark(ref))!);
  return {
    kind: 'element',
    name: global.name,
    type: global.type,
    ...counts,
    nillable: global.nillable,
    ref,
    ...valueConstraints(el, global),
    ...documented(xsdDocumentation(el) ?? global.documentation),
    source,
  };
}

/** type="..." (resolved), an inline type, or — only when neither is present — anyType. */
function elementType(ctx: SchemaContext, doc: SchemaDocument, el: XmlElement): TypeUse {
  const typeName = qnameAttr(doc.file, el, 'type');
  if (typeName !== undefined) return resolveTypeRef(ctx.index, typeName, { file: doc.file, el, attribute: 'type' });
  const complex = firstChild(el, XSD_NS, 'complexType');
  if (complex !== undefined) return { kind: 'inline', type: readComplexType(ctx, doc, complex, undefined) };
  const simple = firstChild(el, XSD_NS, 'simpleType');
  if (simple !== undefined) return { kind: 'inline', type: readSimpleType(ctx, doc, simple, undefined) };
  const head = qnameAttr(doc.file, el, 'substitutionGroup');
  if (head !== undefined) {
    checkElementRef(ctx.index, head, { file: doc.file, el, attribute: 'substitutionGroup' });
    return readGlobalElement(ctx, ctx.index.elements.get(clark(head))!).type;
  }
  return { kind: 'anyType' };
}

function valueConstraints(el: XmlElement, inherited?: ElementDecl): { defaultValue?: string; fixedValue?: string } {
  const defaultValue = attr(el, 'default') ?? inherited?.defaultValue;
  const fixedValue = attr(el, 'fixed') ?? inherited?.fixedValue;
  return {
    ...(defaultValue === undefined ? {} : { defaultValue }),
    ...(fixedValue === undefined ? {} : { fixedValue }),
  };
}
