/**
 * wsdl:binding: the protocol (soap:binding, soap12:binding, http:binding verb GET/POST), the
 * portType it implements, and its operations, each paired with its portType operation.
 */
import type { XmlElement } from '../../runtime/xml/types.js';
import { GeneratorError } from '../errors.js';
import {
  clark,
  qname,
  type Binding,
  type BindingOperation,
  type Message,
  type PortType,
  type Protocol,
} from '../model/index.js';
import type { Definition } from './definition-index.js';
import type { WsdlDocument } from './documents.js';
import { readHttpOperation } from './http-binding.js';
import { HTTP_BINDING_NS, SOAP11_BINDING_NS, SOAP12_BINDING_NS, WSDL_NS } from './namespaces.js';
import { matchPortTypeOperation } from './operation-match.js';
import {
  checkSoapFaults,
  checkStyle,
  readSoapDirection,
  readSoapOperationStyle,
  type SoapContext,
} from './soap-binding.js';
import {
  at,
  attr,
  children,
  documented,
  firstChild,
  requiredAttr,
  requiredQNameAttr,
  showQName,
  wsdlDocumentation,
} from './xml-access.js';

export interface BindingContext {
  readonly portTypes: ReadonlyMap<string, PortType>;
  readonly messages: ReadonlyMap<string, Message>;
}

interface ProtocolInfo {
  readonly protocol: Protocol;
  /** SOAP: the extension namespace; HTTP: undefined. */
  readonly soapNs?: string;
  readonly style?: 'document' | 'rpc';
  readonly transport?: string;
  readonly verb?: string;
}

export function readBinding(ctx: BindingContext, def: Definition<WsdlDocument>): Binding {
  const file = def.doc.file;
  const name = qname(def.doc.targetNamespace, def.name);
  const info = readProtocol(file, def.el, showQName(name));
  const portTypeName = requiredQNameAttr(file, def.el, 'type');
  const portType = ctx.portTypes.get(clark(portTypeName));
  if (portType === undefined) {
    throw new GeneratorError(
      'WSDL_UNRESOLVED_REFERENCE',
      `binding ${showQName(name)} type="${attr(def.el, 'type')}": portType ${showQName(portTypeName)} is not defined`,
      at(file, def.el),
    );
  }
  const operations = children(def.el, WSDL_NS, 'operation').map((op) =>
    readOperation(ctx, file, op, info, portType, showQName(name)),
  );
  return {
    name,
    protocol: info.protocol,
    portType: portTypeName,
    ...(info.style === undefined ? {} : { style: info.style }),
    ...(info.transport === undefined ? {} : { transport: info.transport }),
    ...(info.verb === undefined ? {} : { verb: info.verb }),
    operations,
    source: at(file, def.el),
  };
}

function readProtocol(file: string, binding: XmlElement, name: string): ProtocolInfo {
  for (const [ns, protocol] of [
    [SOAP11_BINDING_NS, 'soap11'],
    [SOAP12_BINDING_NS, 'soap12'],
  ] as const) {
    const el = firstChild(binding, ns, 'binding');
    if (el === undefined) continue;
    const style = attr(el, 'style')?.trim();
    const transport = attr(el, 'transport');
    return {
      protocol,
      soapNs: ns,
      style: style === undefined ? 'document' : checkStyle(file, el, style),
      ...(transport === undefined ? {} : { transport }),
    };
  }
  const http = firstChild(binding, HTTP_BINDING_NS, 'binding');
  if (http !== undefined) {
    const verb = requiredAttr(file, http, 'verb');
    if (verb === 'GET') return { protocol: 'http-get', verb };
    if (verb === 'POST') return { protocol: 'http-post', verb };
    throw new GeneratorError(
      'WSDL_UNSUPPORTED',
      `binding ${name}: <http:binding verb="${verb}"> is not supported (only GET and POST)`,
      at(file, http),
    );
  }
  throw new GeneratorError(
    'WSDL_UNSUPPORTED',
    `binding ${name} has no soap:binding, soap12:binding or http:binding; its protocol is not supported`,
    at(file, binding),
  );
}

function readOperation(
  ctx: BindingContext,
  file: string,
  op: XmlElement,
  info: ProtocolInfo,
  portType: PortType,
  binding: string,
): BindingOperation {
  const name = requiredAttr(file, op, 'name');
  const input = firstChild(op, WSDL_NS, 'input');
  const output = firstChild(op, WSDL_NS, 'output');
  const inputName = input === undefined ? undefined : attr(input, 'name');
  const outputName = output === undefined ? undefined : attr(output, 'name');
  const key = {
    name,
    ...(inputName === undefined ? {} : { inputName }),
    ...(outputName === undefined ? {} : { outputName }),
  };
  const portTypeOperation = matchPortTypeOperation(portType, key, file, op, binding);
  const common = { ...key, portTypeOperation, ...documented(wsdlDocumentation(op, WSDL_NS)), source: at(file, op) };
  if (info.soapNs === undefined) {
    const http = readHttpOperation(file, op, input, output, `binding ${binding} operation "${name}"`);
    return { ...common, inputHeaders: [], outputHeaders: [], ...http };
  }
  const soap: SoapContext = { file, ns: info.soapNs, binding, operation: name, messages: ctx.messages };
  const { soapAction, soapActionRequired, style } = readSoapOperationStyle(soap, op, info.style ?? 'document');
  const inDir = readSoapDirection(soap, input);
  const outDir = readSoapDirection(soap, output);
  checkSoapFaults(soap, op);
  return {
    ...common,
    soapAction,
    ...(soapActionRequired === undefined ? {} : { soapActionRequired }),
    style,
    ...(inDir.body === undefined ? {} : { inputBody: inDir.body }),
    ...(outDir.body === undefined ? {} : { outputBody: outDir.body }),
    inputHeaders: inDir.headers,
    outputHeaders: outDir.headers,
  };
}
