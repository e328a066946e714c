/** complexType: plain content, complexContent extension/restriction, simpleContent. */
import type { XmlElement } from '../../runtime/xml/types.js';
import { GeneratorError } from '../errors.js';
import type { ComplexType, ElementDecl, GroupParticle, QName, TypeUse } from '../model/index.js';
import { detectArrayItem } from './arrays.js';
import { readAttributeUses } from './attributes.js';
import type { SchemaDocument } from './documents.js';
import { SOAP_ENCODING_NS, XSD_NS } from './namespaces.js';
import { readContent } from './particles.js';
import { booleanAttr, type SchemaContext } from './schema-context.js';
import { resolveTypeRef } from './type-refs.js';
import {
  at,
  children,
  documented,
  firstChild,
  requiredQNameAttr,
  showQName,
  tagName,
  xsdDocumentation,
} from './xml-access.js';

export function readComplexType(
  ctx: SchemaContext,
  doc: SchemaDocument,
  el: XmlElement,
  name: QName | undefined,
): ComplexType {
  const complexContent = firstChild(el, XSD_NS, 'complexContent');
  const simpleContent = firstChild(el, XSD_NS, 'simpleContent');
  const body =
    complexContent !== undefined
      ? readComplexContent(ctx, doc, complexContent)
      : simpleContent !== undefined
        ? readSimpleContent(ctx, doc, simpleContent)
        : { ...contentOf(ctx, doc, el), ...readAttributeUses(ctx, doc, el) };
  const { literalArray, ...members } = body;
  const type: ComplexType = {
    kind: 'complex',
    ...(name === undefined ? {} : { name }),
    ...members,
    mixed: booleanAttr(el, 'mixed') || (complexContent !== undefined && booleanAttr(complexContent, 'mixed')),
    abstract: booleanAttr(el, 'abstract'),
    ...documented(xsdDocumentation(el)),
    source: at(doc.file, el),
  };
  const arrayItem = literalArray ?? detectArrayItem(type);
  return arrayItem === undefined ? type : { ...type, arrayItem };
}

type Body = Pick<ComplexType, 'base' | 'simpleContent' | 'content' | 'attributes' | 'anyAttribute'> & {
  /** Set by the ASMX `soapenc:Array` restriction: the type is an array of this item. */
  readonly literalArray?: ElementDecl;
};

function contentOf(ctx: SchemaContext, doc: SchemaDocument, el: XmlElement): Pick<ComplexType, 'content'> {
  const content = readContent(ctx, doc, el);
  return content === undefined ? {} : { content };
}

/** The one extension or restriction child of complexContent / simpleContent. */
function derivation(doc: SchemaDocument, el: XmlElement): XmlElement {
  const found = children(el, XSD_NS).find((c) => c.local === 'extension' || c.local === 'restriction');
  if (found === undefined)
    throw new GeneratorError('WSDL_INVALID', `<${tagName(el)}> has no extension or restriction`, at(doc.file, el));
  return found;
}

function readComplexContent(ctx: SchemaContext, doc: SchemaDocument, el: XmlElement): Body {
  const derived = derivation(doc, el);
  const baseName = requiredQNameAttr(doc.file, derived, 'base');
  if (baseName.ns === SOAP_ENCODING_NS) return readSoapEncodedArray(ctx, doc, derived, baseName);
  const uses = readAttributeUses(ctx, doc, derived);
  const body = { ...contentOf(ctx, doc, derived), ...uses };
  const base = resolveTypeRef(ctx.index, baseName, { file: doc.file, el: derived, attribute: 'base' });
  // restriction of anyType is just "a complex type"; there is no base to inherit from.
  if (base.kind === 'anyType') return body;
  if (base.kind !== 'named') {
    throw new GeneratorError(
      'WSDL_INVALID',
      `complexContent ${derived.local} base ${showQName(baseName)} is a simple type`,
      at(doc.file, derived),
    );
  }
  return { base: { name: baseName, derivation: derived.local as 'extension' | 'restriction' }, ...body };
}

/**
 * ASMX publishes the array parameters of its HTTP GET/POST bindings in an `AbstractTypes`
 * schema as `restriction base="soapenc:Array"` holding a plain sequence of one repeated element
 * (`StringArray`: `<element name="String" maxOccurs="unbounded" type="s:string"/>`). That shape
 * is a literal array of its item, the same as `ArrayOfX`. The rpc/encoded form, whose item type
 * sits in a `wsdl:arrayType` attribute, has no literal meaning and stays refused.
 */
function readSoapEncodedArray(ctx: SchemaContext, doc: SchemaDocument, derived: XmlElement, baseName: QName): Body {
  const content =
    derived.local === 'restriction' && baseName.local === 'Array' ? readContent(ctx, doc, derived) : undefined;
  const item = content !== undefined ? literalArrayItem(content) : undefined;
  if (content === undefined || item === undefined) {
    throw new GeneratorError(
      'WSDL_UNSUPPORTED',
      `complexContent ${derived.local} of ${showQName(baseName)}: SOAP-encoded arrays (SOAP-ENC:Array) are not supported`,
      at(doc.file, derived),
    );
  }
  return { content, attributes: [], anyAttribute: false, literalArray: item };
}

function literalArrayItem(content: GroupParticle): ElementDecl | undefined {
  if (content.kind !== 'sequence' || content.particles.length !== 1) return undefined;
  const item = content.particles[0]!;
  if (item.kind !== 'element' || item.isSchemaRef === true) return undefined;
  return item.maxOccurs === 'unbounded' || item.maxOccurs > 1 ? item : undefined;
}

/** simpleContent: the element's text has the base's simple type; attributes come alongside. */
function readSimpleContent(ctx: SchemaContext, doc: SchemaDocument, el: XmlElement): Body {
  const derived = derivation(doc, el);
  const baseName = requiredQNameAttr(doc.file, derived, 'base');
  const text: TypeUse = resolveTypeRef(ctx.index, baseName, { file: doc.file, el: derived, attribute: 'base' });
  return { simpleContent: text, ...readAttributeUses(ctx, doc, derived) };
}
