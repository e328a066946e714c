/**
 * A comparable outline of an HTTP answer, for differential tests against genuine ASMX: two
 * answers match when their outlines are equal line for line.
 *
 * The outline keeps what a client depends on and drops what may differ between two correct
 * servers:
 * - status; Content-Type media type and charset (lowercased; other parameters dropped);
 * - an XML body as its element tree: one line per element, indented by depth, with the
 *   namespace URI and local name (never the prefix), the attributes sorted by QName with
 *   namespace declarations left out (the reader drops them) and xsi:type resolved to a QName,
 *   and the text of leaf elements; whitespace between elements is dropped (ASMX indents
 *   HTTP GET/POST answers);
 * - a SOAP fault as its code QName (SOAP 1.2: Code/Value and any Subcode values) and whether it
 *   has a detail, not its text: ASMX writes .NET exception text and stack traces there;
 * - a text/plain body (an HTTP GET/POST error) as "text": ASMX writes a stack trace there too.
 */
import { readXml } from '../../runtime/xml/reader.js';
import type { XmlElement } from '../../runtime/xml/types.js';

export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Buffer;
}

const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
const SOAP11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const SOAP12 = 'http://www.w3.org/2003/05/soap-envelope';

/** Rewrites a leaf element's text before it goes into the outline (for differences by design). */
export type TextNormaliser = (text: string) => string;

/** The answer's outline, one string per line. */
export function outline(answer: Answer, normalise: TextNormaliser = (text) => text): string[] {
  const { media, charset } = contentType(answer.headers['content-type']);
  const lines = [`status ${answer.status}`, `content-type ${media}${charset === undefined ? '' : `; ${charset}`}`];
  if (answer.body.length === 0) return [...lines, 'body empty'];
  if (media === 'text/plain') return [...lines, 'body text'];
  if (!media.endsWith('xml')) return [...lines, `body ${answer.body.length} bytes of ${media}`];
  let root: XmlElement;
  try {
    root = readXml(answer.body).root;
  } catch (err) {
    return [...lines, `body not well-formed XML: ${(err as Error).message}`];
  }
  const fault = faultOutline(root);
  return [...lines, ...(fault ?? elementLines(root, 0, normalise))];
}

function contentType(value: string | string[] | undefined): { media: string; charset: string | undefined } {
  if (value === undefined) return { media: 'none', charset: undefined };
  const [media, ...params] = String(value).split(';');
  const charset = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith('charset='));
  return { media: media!.trim().toLowerCase(), charset: charset?.replace(/"/g, '') };
}

const qname = (ns: string, local: string): string => `{${ns}}${local}`;
const children = (el: XmlElement): XmlElement[] => el.children.filter((c): c is XmlElement => c.type === 'element');
const child = (el: XmlElement | undefined, ns: string, local: string): XmlElement | undefined =>
  el === undefined ? undefined : children(el).find((c) => c.ns === ns && c.local === local);
const textOf = (el: XmlElement): string => el.children.map((c) => (c.type === 'text' ? c.text : '')).join('');

/** A QName-valued text (`soap:Client`, `xsi:type="Circle"`) as {uri}local, resolved in the element's scope. */
function resolveQName(el: XmlElement, value: string): string {
  const trimmed = value.trim();
  const colon = trimmed.indexOf(':');
  const prefix = colon < 0 ? '' : trimmed.slice(0, colon);
  const uri = el.namespaces[prefix];
  return uri === undefined ? `{?${prefix}}${trimmed.slice(colon + 1)}` : qname(uri, trimmed.slice(colon + 1));
}

/** The fault's outline, or undefined when the answer is not a SOAP fault. */
function faultOutline(root: XmlElement): string[] | undefined {
  if (root.local !== 'Envelope' || (root.ns !== SOAP11 && root.ns !== SOAP12)) return undefined;
  const fault = child(child(root, root.ns, 'Body'), root.ns, 'Fault');
  if (fault === undefined) return undefined;
  if (root.ns === SOAP11) {
    const code = child(fault, '', 'faultcode');
    return [
      'fault soap11',
      `code ${code === undefined ? 'none' : resolveQName(code, textOf(code))}`,
      `detail ${child(fault, '', 'detail') !== undefined}`,
    ];
  }
  const codes: string[] = [];
  for (let code = child(fault, SOAP12, 'Code'); code !== undefined; code = child(code, SOAP12, 'Subcode')) {
    const value = child(code, SOAP12, 'Value');
    codes.push(value === undefined ? 'none' : resolveQName(value, textOf(value)));
  }
  return ['fault soap12', `code ${codes.join(' / ')}`, `detail ${child(fault, SOAP12, 'Detail') !== undefined}`];
}

function attributeLines(el: XmlElement): string {
  const shown = el.attributes.map(
    (a) =>
      `@${qname(a.ns, a.local)}=${JSON.stringify(a.ns === XSI && a.local === 'type' ? resolveQName(el, a.value) : a.value)}`,
  );
  return shown
    .sort()
    .map((a) => ` ${a}`)
    .join('');
}

function elementLines(el: XmlElement, depth: number, normalise: TextNormaliser): string[] {
  const kids = children(el);
  const head = `${'  '.repeat(depth)}${qname(el.ns, el.local)}${attributeLines(el)}`;
  if (kids.length === 0) return [`${head} = ${JSON.stringify(normalise(textOf(el)))}`];
  const stray = el.children.some((c) => c.type === 'text' && c.text.trim() !== '');
  return [stray ? `${head} (mixed content)` : head, ...kids.flatMap((k) => elementLines(k, depth + 1, normalise))];
}
