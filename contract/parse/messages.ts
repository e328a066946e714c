/** wsdl:message and wsdl:portType: parts by element or type, operations with their messages. */
import type { XmlElement } from '../../runtime/xml/types.js';
import { GeneratorError } from '../errors.js';
import {
  clark,
  qname,
  type Message,
  type MessagePart,
  type ModelWarning,
  type PortType,
  type PortTypeFault,
  type PortTypeOperation,
  type QName,
  type UnresolvedReference,
} from '../model/index.js';
import type { Definition, SchemaIndex, WsdlIndex } from './definition-index.js';
import type { WsdlDocument } from './documents.js';
import { WSDL_NS } from './namespaces.js';
import { checkElementRef, resolveTypeRef } from './type-refs.js';
import { throwIfAbstractElement } from './substitution-groups.js';
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
      throwIfAbstractElement(schema, element, { file, el, attribute: 'element' });
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
  const faults = children(el, WSDL_NS, 'fault').map((f): PortTypeFault => {
    const ref = messageRef(wsdl, doc, f);
    return { name: requiredAttr(doc.file, f, 'name'), ...ref };
  });
  const outputFirst =
    input !== undefined && output !== undefined && el.children.indexOf(output) < el.children.indexOf(input);
  const inputName = input === undefined ? undefined : attr(input, 'name');
  const outputName = output === undefined ? undefined : attr(output, 'name');
  const inputRef = input === undefined ? undefined : messageRef(wsdl, doc, input);
  const outputRef = output === undefined ? undefined : messageRef(wsdl, doc, output);
  const documentation = wsdlDocumentation(el, WSDL_NS);
  return {
    name,
    ...(inputName === undefined ? {} : { inputName }),
    ...(outputName === undefined ? {} : { outputName }),
    ...(inputRef === undefined ? {} : { input: inputRef.message }),
    ...(outputRef === undefined ? {} : { output: outputRef.message }),
    ...(inputRef?.unresolved === undefined ? {} : { unresolvedInput: inputRef.unresolved }),
    ...(outputRef?.unresolved === undefined ? {} : { unresolvedOutput: outputRef.unresolved }),
    ...(outputFirst ? { outputFirst: true as const } : {}),
    faults,
    ...(documentation === undefined ? {} : { documentation }),
    source: at(doc.file, el),
  };
}

/**
 * The message a wsdl:input, wsdl:output or wsdl:fault names. One that is not declared is not a
 * refusal of the file: it is kept with the refusal it would be, so that only the operations
 * using it are left out (plan/binding-carriage.ts), each binding naming the reason.
 */
function messageRef(
  wsdl: WsdlIndex,
  doc: WsdlDocument,
  el: XmlElement,
): { message: QName; unresolved?: UnresolvedReference } {
  const name = qnameAttr(doc.file, el, 'message');
  if (name === undefined)
    throw new GeneratorError('WSDL_INVALID', `<${tagName(el)}> has no message attribute`, at(doc.file, el));
  if (wsdl.messages.has(clark(name))) return { message: name };
  return {
    message: name,
    unresolved: {
      what: `<${tagName(el)} message="${attr(el, 'message')}">: message ${showQName(name)} is not defined`,
      source: at(doc.file, el),
    },
  };
}

/**
 * One warning per wsdl:input, wsdl:output or wsdl:fault of the portType naming an undeclared
 * message, at the line that names it: the operation is left out of every binding (input,
 * output), or kept with that fault untyped (its detail read as XML).
 */
export function unresolvedMessageWarnings(portType: PortType): ModelWarning[] {
  return portType.operations.flatMap((op) => {
    const where = `operation ${op.name} of portType ${portType.name.local}`;
    const leftOut = [op.unresolvedInput, op.unresolvedOutput].flatMap((ref) =>
      ref === undefined
        ? []
        : [
            {
              code: 'OPERATION_MESSAGE_UNDECLARED',
              message: `${where} is left out of every binding: ${ref.what}`,
              source: ref.source,
            },
          ],
    );
    const faults = op.faults.flatMap(({ name, unresolved }) =>
      unresolved === undefined
        ? []
        : [
            {
              code: 'FAULT_MESSAGE_UNDECLARED',
              message: `fault ${name} of ${where}: ${unresolved.what}; the operation is kept, that fault untyped (its detail is read as XML)`,
              source: unresolved.source,
            },
          ],
    );
    return [...leftOut, ...faults];
  });
}
