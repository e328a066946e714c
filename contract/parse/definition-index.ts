/**
 * Clark-keyed indexes of the global definitions of every loaded document (WSDL messages,
 * portTypes, bindings, services; XSD elements, types, attributes, groups, attributeGroups),
 * built before anything is resolved so that references may point forwards and across files.
 * Maps keep insertion order, which is document order.
 */
import type { XmlElement } from '../../runtime/xml/types.js';
import { GeneratorError } from '../errors.js';
import { clark, qname } from '../model/index.js';
import type { DocumentSet, SchemaDocument, WsdlDocument } from './documents.js';
import { WSDL_NS, XSD_NS } from './namespaces.js';
import { at, children, requiredAttr, showQName } from './xml-access.js';

export interface Definition<D> {
  readonly el: XmlElement;
  readonly doc: D;
  readonly name: string;
}

export type Index<D> = Map<string, Definition<D>>;

export interface WsdlIndex {
  readonly messages: Index<WsdlDocument>;
  readonly portTypes: Index<WsdlDocument>;
  readonly bindings: Index<WsdlDocument>;
  readonly services: Index<WsdlDocument>;
}

export interface SchemaIndex {
  readonly elements: Index<SchemaDocument>;
  readonly types: Index<SchemaDocument>;
  readonly attributes: Index<SchemaDocument>;
  readonly groups: Index<SchemaDocument>;
  readonly attributeGroups: Index<SchemaDocument>;
  /** Target namespaces of the schemas read, deduplicated, in document order. */
  readonly namespaces: readonly string[];
}

function add<D extends { file: string }>(index: Index<D>, kind: string, ns: string, el: XmlElement, doc: D): void {
  const name = requiredAttr(doc.file, el, 'name');
  const key = clark(qname(ns, name));
  const first = index.get(key);
  if (first !== undefined) {
    throw new GeneratorError(
      'WSDL_DUPLICATE_DEFINITION',
      `${kind} ${showQName(qname(ns, name))} is defined twice (first at ${first.doc.file}:${first.el.line})`,
      at(doc.file, el),
    );
  }
  index.set(key, { el, doc, name });
}

export function indexWsdl(docs: DocumentSet): WsdlIndex {
  const index: WsdlIndex = { messages: new Map(), portTypes: new Map(), bindings: new Map(), services: new Map() };
  const kinds: Record<string, [Index<WsdlDocument>, string]> = {
    message: [index.messages, 'wsdl:message'],
    portType: [index.portTypes, 'wsdl:portType'],
    binding: [index.bindings, 'wsdl:binding'],
    service: [index.services, 'wsdl:service'],
  };
  for (const doc of docs.wsdls) {
    for (const el of children(doc.root, WSDL_NS)) {
      const kind = kinds[el.local];
      if (kind !== undefined) add(kind[0], kind[1], doc.targetNamespace, el, doc);
    }
  }
  return index;
}

export function indexSchemas(docs: DocumentSet): SchemaIndex {
  const index = {
    elements: new Map(),
    types: new Map(),
    attributes: new Map(),
    groups: new Map(),
    attributeGroups: new Map(),
  } satisfies Omit<SchemaIndex, 'namespaces'>;
  const kinds: Record<string, [Index<SchemaDocument>, string]> = {
    element: [index.elements, 'element'],
    complexType: [index.types, 'type'],
    simpleType: [index.types, 'type'],
    attribute: [index.attributes, 'attribute'],
    group: [index.groups, 'group'],
    attributeGroup: [index.attributeGroups, 'attributeGroup'],
  };
  const namespaces: string[] = [];
  for (const doc of docs.schemas) {
    if (!namespaces.includes(doc.targetNamespace)) namespaces.push(doc.targetNamespace);
    for (const el of children(doc.root, XSD_NS)) {
      const kind = kinds[el.local];
      if (kind !== undefined) add(kind[0], kind[1], doc.targetNamespace, el, doc);
    }
  }
  return { ...index, namespaces };
}
