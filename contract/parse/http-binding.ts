/**
 * The HTTP GET/POST extensions of a binding operation: location, urlEncoded / mime input,
 * mimeXml output. An encoding smskit cannot carry is kept as `unsupported` with what it was:
 * the service plan leaves that one operation out of the binding, with a warning.
 */
import type { XmlElement } from '../../runtime/xml/types.js';
import { GeneratorError } from '../errors.js';
import type { BindingOperation } from '../model/index.js';
import { HTTP_BINDING_NS, MIME_NS } from './namespaces.js';
import { at, attr, firstChild, requiredAttr, tagName } from './xml-access.js';

type HttpParts = Pick<BindingOperation, 'httpLocation' | 'httpInput' | 'httpOutput'>;

export function readHttpOperation(
  file: string,
  op: XmlElement,
  input: XmlElement | undefined,
  output: XmlElement | undefined,
  where: string,
): HttpParts {
  const httpOp = firstChild(op, HTTP_BINDING_NS, 'operation');
  if (httpOp === undefined) {
    throw new GeneratorError('WSDL_INVALID', `${where} has no http:operation`, at(file, op));
  }
  const httpInput = input === undefined ? undefined : readInput(file, input);
  const httpOutput = output === undefined ? undefined : readOutput(file, output);
  return {
    httpLocation: requiredAttr(file, httpOp, 'location'),
    ...(httpInput === undefined ? {} : { httpInput }),
    ...(httpOutput === undefined ? {} : { httpOutput }),
  };
}

function readInput(file: string, input: XmlElement): BindingOperation['httpInput'] {
  if (firstChild(input, HTTP_BINDING_NS, 'urlEncoded') !== undefined) return { kind: 'urlEncoded' };
  const replacement = firstChild(input, HTTP_BINDING_NS, 'urlReplacement');
  if (replacement !== undefined)
    return { kind: 'unsupported', what: `<${tagName(replacement)}> (parameters in the URL path) is not supported` };
  const content = firstChild(input, MIME_NS, 'content');
  if (content !== undefined) return { kind: 'mimeContent', type: requiredAttr(file, content, 'type') };
  return unsupportedEncoding(input);
}

function readOutput(file: string, output: XmlElement): BindingOperation['httpOutput'] {
  // `<wsdl:output />` with no encoding: ASMX's void methods answer an empty body.
  if (!output.children.some((c) => c.type === 'element')) return undefined;
  const mimeXml = firstChild(output, MIME_NS, 'mimeXml');
  if (mimeXml !== undefined) {
    const part = attr(mimeXml, 'part');
    return part === undefined ? { kind: 'mimeXml' } : { kind: 'mimeXml', part };
  }
  const content = firstChild(output, MIME_NS, 'content');
  if (content !== undefined) return { kind: 'mimeContent', type: requiredAttr(file, content, 'type') };
  return unsupportedEncoding(output);
}

/** An encoding smskit cannot carry: recorded, so that only this operation is left out. */
function unsupportedEncoding(el: XmlElement): { kind: 'unsupported'; what: string } {
  const found = el.children.find((c) => c.type === 'element');
  const what = found === undefined || found.type !== 'element' ? 'no encoding' : `<${tagName(found)}>`;
  return { kind: 'unsupported', what: `${el.local}: ${what} (expected http:urlEncoded, mime:content or mime:mimeXml)` };
}
