/**
 * Which operation and binding a recorded request is, read from the request alone (the way an
 * ASMX server routes it): SOAP 1.2 by its media type, SOAP 1.1 by text/xml, the operation from
 * the first element in the Body; HTTP GET and POST from the last step of the path
 * (`/rich.asmx/Add`); a `?wsdl` or help-page request as `wsdl`/`page`.
 */
import { readXml } from '../runtime/xml/reader.js';
import type { XmlElement } from '../runtime/xml/types.js';
import { headerValue, type StoredRequest } from './recording.js';
import { SOAP11_ENV_NS, SOAP12_ENV_NS } from '../runtime/namespaces.js';

/** Named as the CLI's --binding values (`http-get`, `http-post`), so a report reads like the flags. */
export type ExchangeBinding = 'soap11' | 'soap12' | 'http-get' | 'http-post' | 'wsdl' | 'page';

export interface Classified {
  readonly operation: string;
  readonly binding: ExchangeBinding;
}

const SOAP_ENVELOPES = new Set([SOAP11_ENV_NS, SOAP12_ENV_NS]);

function soapOperation(body: Buffer): string {
  let root: XmlElement;
  try {
    root = readXml(body).root;
  } catch {
    return '(not XML)';
  }
  if (root.local !== 'Envelope' || !SOAP_ENVELOPES.has(root.ns)) return '(not an envelope)';
  const element = (el: XmlElement | undefined): XmlElement[] =>
    el === undefined ? [] : el.children.filter((c): c is XmlElement => c.type === 'element');
  const bodyElement = element(root).find((c) => c.local === 'Body' && c.ns === root.ns);
  return element(bodyElement)[0]?.local ?? '(empty body)';
}

export function classify(request: StoredRequest): Classified {
  const [path = '', query = ''] = request.target.split('?', 2);
  const media = (headerValue(request.headers, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const body = Buffer.from(request.body, 'base64');
  if (request.method === 'POST' && media === 'application/soap+xml')
    return { operation: soapOperation(body), binding: 'soap12' };
  if (request.method === 'POST' && media === 'text/xml') return { operation: soapOperation(body), binding: 'soap11' };
  const steps = path.split('/').filter((s) => s !== '');
  const last = steps.at(-1) ?? '';
  const underService = steps.length >= 2 && /\.asmx$/i.test(steps.at(-2)!);
  if (underService) return { operation: last, binding: request.method === 'GET' ? 'http-get' : 'http-post' };
  if (/^(wsdl|disco)\b/i.test(query)) return { operation: `?${query.split('&')[0]!.toLowerCase()}`, binding: 'wsdl' };
  return { operation: path === '' ? '/' : path, binding: 'page' };
}
