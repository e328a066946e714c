/** The HTTP GET/POST extensions of a binding operation: location, urlEncoded / mime input, mimeXml output. */
import type { XmlElement } from '../../runtime/xml/types.js';
import { GeneratorError } from '../errors.js';
import type { BindingOperation } from '../model.js';
import { HTTP_BINDING_NS, MIME_NS } from './namespaces.js';
import { at, attr, firstChild, requiredAttr, tagName } from './xml-access.js';

type HttpParts = Pick<BindingOperation, 'httpLocation' | 'httpInput' | 'httpOutput'>;

export function readHttpOperation(file: string, op: XmlElement, input: XmlElement | undefined, output: XmlElement | undefined, where: string): HttpParts {
  const httpOp = firstChild(op, HTTP_BINDING_NS, 'operation');
  if (httpOp === undefined) {
    throw new GeneratorError('WSDL_INVALID', `${where} has no http:operation`, at(file, op));
  }
  const httpInput = input === undefined ? undefined : readInput(file, input, where);
  const httpOutput = output === undefined ? undefined : readOutput(file, output, where);
  return {
    httpLocation: requiredAttr(file, httpOp, 'location'),
    ...(httpInput === undefined ? {} : { httpInput }),
    ...(httpOutput === undefined ? {} : { httpOutput }),
  };
}

function readInput(file: string, input: XmlElement, where: string): BindingOperation['httpInput'] {
  if (firstChild(input, HTTP_BINDING_NS, 'urlEncoded') !== undefined) return { kind: 'urlEncoded' };
  const replacement = firstChild(input, HTTP_BINDING_NS, 'urlReplacement');
  if (replacement !== undefined) {
    throw new GeneratorError('WSDL_UNSUPPORTED', `${where}: <${tagName(replacement)}> (parameters in the URL path) is not supported`, at(file, replacement));
  }
  const content = firstChild(input, MIME_NS, 'content');
  if (content !== undefined) return { kind: 'mimeContent', type: requiredAttr(file, content, 'type') };
  return unsupportedEncoding(file, input, where);
}

function readOutput(file: string, output: XmlElement, where: string): BindingOperation['httpOutput'] {
  const mimeXml = firstChild(output, MIME_NS, 'mimeXml');
  if (mimeXml !== undefined) {
    const part = attr(mimeXml, 'part');
    return part === undefined ? { kind: 'mimeXml' } : { kind: 'mimeXml', part };
  }
  const content = firstChild(output, MIME_NS, 'content');
  if (content !== undefined) return { kind: 'mimeContent', type: requiredAttr(file, content, 'type') };
  return unsupportedEncoding(file, output, where);
}

function unsupportedEncoding(file: string, el: XmlElement, where: string): never {
  const found = el.children.find((c) => c.type === 'element');
  const what = found === undefined || found.type !== 'element' ? 'no encoding' : `<${tagName(found)}>`;
  throw new GeneratorError(
    'WSDL_UNSUPPORTED',
    `${where} ${el.local}: ${what} (expected http:urlEncoded, mime:content or mime:mimeXml)`,
    at(file, el),
  );
}
