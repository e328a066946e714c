/** wsdl:message and wsdl:portType: parts by element or type, operations with their messages. */
import type { XmlElement } from '../../runtime/xml/types.js';
import { GeneratorError } from '../errors.js';
import {
  clark,
  qname,
  type Message,
  type MessagePart,
  type PortType,
  type PortTypeOperation,
  type QName,
} from '../model/index.js';
import type { Definition, SchemaIndex, WsdlIndex } from './definition-index.js';
import type { WsdlDocument } from './documents.js';
import { WSDL_NS } from './namespaces.js';
import { checkElementRef, resolveTypeRef } from './type-refs.js';
import {
  at,
  attr,
  children,
  firstChild,
  qnameAttr,
  requiredAttr,
  showQName,
  tagName,
  wsdlDocumentation,
} from './xml-access.js';

export function readMessage(schema: SchemaIndex, def: Definition<WsdlDocument>): Message {
  const file = def.doc.file;
  const parts = children(def.el, WSDL_NS, 'part').map((el): MessagePart => {
    const name = requiredAttr(file, el, 'name');
    const element = qnameAttr(file, el, 'element');
    const type = qnameAttr(file, el, 'type');
    if ((element === undefined) === (type === undefined)) {
      throw new GeneratorError(
        'WSDL_INVALID',
        `message ${def.name} part "${name}" must have exactly one of element= and type=`,
        at(file, el),
      );
    }
    if (element !== undefined) {
      checkElementRef(schema, element, { file, el, attribute: 'element' });
      return { name, element };
    }
    return { name, type: resolveTypeRef(schema, type!, { file, el, attribute: 'type' }) };
  });
  return { name: qname(def.doc.targetNamespace, def.name), parts, source: at(file, def.el) };
}

export function readPortType(wsdl: WsdlIndex, def: Definition<WsdlDocument>): PortType {
  const operations = children(def.el, WSDL_NS, 'operation').map((el) => readOperation(wsdl, def.doc, el));
  return { name: qname(def.doc.targetNamespace, def.name), operations, source: at(def.doc.file, def.el) };
}

function readOperation(wsdl: WsdlIndex, doc: WsdlDocument, el: XmlElement): PortTypeOperation {
  const name = requiredAttr(doc.file, el, 'name');
  const input = firstChild(el, WSDL_NS, 'input');
  const output = firstChild(el, WSDL_NS, 'output');
  const faults = children(el, WSDL_NS, 'fault').map((f) => ({
    name: requiredAttr(doc.file, f, 'name'),
    message: messageRef(wsdl, doc, f),
  }));
  const outputFirst =
    input !== undefined && output !== undefined && el.children.indexOf(output) < el.children.indexOf(input);
  const inputName = input === undefined ? undefined : attr(input, 'name');
  const outputName = output === undefined ? undefined : attr(output, 'name');
  const documentation = wsdlDocumentation(el, WSDL_NS);
  return {
    name,
    ...(inputName === undefined ? {} : { inputName }),
    ...(outputName === undefined ? {} : { outputName }),
    ...(input === undefined ? {} : { input: messageRef(wsdl, doc, input) }),
    ...(output === undefined ? {} : { output: messageRef(wsdl, doc, output) }),
    ...(outputFirst ? { outputFirst: true as const } : {}),
    faults,
    ...(documentation === undefined ? {} : { documentation }),
    source: at(doc.file, el),
  };
}

function messageRef(wsdl: WsdlIndex, doc: WsdlDocument, el: XmlElement): QName {
  const name = qnameAttr(doc.file, el, 'message');
  if (name === undefined)
    throw new GeneratorError('WSDL_INVALID', `<${tagName(el)}> has no message attribute`, at(doc.file, el));
  if (!wsdl.messages.has(clark(name))) {
    throw new GeneratorError(
      'WSDL_UNRESOLVED_REFERENCE',
      `<${tagName(el)} message="${attr(el, 'message')}">: message ${showQName(name)} is not defined`,
      at(doc.file, el),
    );
  }
  return name;
}
