/**
 * Resolving a reference to a type or element by QName: built-in XSD types, named types of
 * the document set, and refusals. An unresolvable name is always an error — only an absent
 * type attribute means anyType, as XSD says.
 */
import type { XmlElement } from '../../runtime/xml/types.js';
import { GeneratorError } from '../errors.js';
import { clark, type QName, type TypeUse } from '../model/index.js';
import type { SchemaIndex } from './definition-index.js';
import { SOAP_ENCODING_NS, XSD_NS } from './namespaces.js';
import { at, attr, showQName, tagName } from './xml-access.js';

/** The built-in datatypes of XML Schema 1.0 Part 2, plus the two ur-types. */
const XSD_BUILTIN_TYPES: ReadonlySet<string> = new Set([
  'anySimpleType',
  'string',
  'boolean',
  'decimal',
  'float',
  'double',
  'duration',
  'dateTime',
  'time',
  'date',
  'gYearMonth',
  'gYear',
  'gMonthDay',
  'gDay',
  'gMonth',
  'hexBinary',
  'base64Binary',
  'anyURI',
  'QName',
  'NOTATION',
  'normalizedString',
  'token',
  'language',
  'NMTOKEN',
  'NMTOKENS',
  'Name',
  'NCName',
  'ID',
  'IDREF',
  'IDREFS',
  'ENTITY',
  'ENTITIES',
  'integer',
  'nonPositiveInteger',
  'negativeInteger',
  'long',
  'int',
  'short',
  'byte',
  'nonNegativeInteger',
  'unsignedLong',
  'unsignedInt',
  'unsignedShort',
  'unsignedByte',
  'positiveInteger',
]);

/** Where a reference is written, for error messages: `<s:element type="tns:X">`. */
export interface RefSite {
  readonly file: string;
  readonly el: XmlElement;
  readonly attribute: string;
}

function site(ref: RefSite): string {
  return `<${tagName(ref.el)} ${ref.attribute}="${attr(ref.el, ref.attribute) ?? ''}">`;
}

/** A type reference (type=, base=, itemType=, memberTypes=, part type=). */
export function resolveTypeRef(index: SchemaIndex, name: QName, ref: RefSite): TypeUse {
  if (name.ns === XSD_NS) {
    if (name.local === 'anyType') return { kind: 'anyType' };
    if (XSD_BUILTIN_TYPES.has(name.local)) return { kind: 'builtin', name };
  }
  if (index.types.has(clark(name))) return { kind: 'named', name };
  if (name.ns === SOAP_ENCODING_NS) {
    throw new GeneratorError(
      'WSDL_UNSUPPORTED',
      `${site(ref)}: SOAP-encoding type ${showQName(name)} is not supported (SOAP-ENC types belong to rpc/encoded services)`,
      at(ref.file, ref.el),
    );
  }
  throw unresolved(index, 'type', name, ref);
}

/** An element reference (ref=, part element=); `{XSD}schema` is accepted by the caller. */
export function checkElementRef(index: SchemaIndex, name: QName, ref: RefSite): void {
  if (!index.elements.has(clark(name))) throw unresolved(index, 'element', name, ref);
}

export function unresolved(index: SchemaIndex, kind: string, name: QName, ref: RefSite): GeneratorError {
  const known = index.namespaces.includes(name.ns) || name.ns === XSD_NS;
  const why = known ? '' : ` (no schema for namespace "${name.ns}" was read)`;
  return new GeneratorError(
    'WSDL_UNRESOLVED_REFERENCE',
    `${site(ref)}: ${kind} ${showQName(name)} is not defined${why}`,
    at(ref.file, ref.el),
  );
}
