/**
 * The comparable outline of an HTTP answer: what two servers must agree on for a client to read
 * their answers the same way, as a list of entries in document order, each with a path.
 *
 * Kept: the status; the Content-Type media type and charset (lowercased, other parameters
 * dropped); an XML body as its element tree, one entry per element with the namespace URI and
 * local name (never the prefix), the attributes sorted by QName with namespace declarations left
 * out and xsi:type resolved to a QName, and the text of leaf elements (whitespace between
 * elements dropped: ASMX indents HTTP GET/POST answers); a SOAP fault as its code QName (SOAP
 * 1.2: Code/Value and every Subcode) and whether it has a detail, not its text (ASMX writes .NET
 * exception text and stack traces there); a text/plain body as "text" (a stack trace there too).
 *
 * Paths name elements by local name, with `[n]` from the second sibling of the same name on
 * (`/Envelope/Body/EchoLinesResponse/EchoLinesResult/OrderLine[2]/Qty`), so a user can write
 * ignores by path and a missing repeat shows as one missing path.
 */
import { readXml } from '../runtime/xml/reader.js';
import type { XmlElement } from '../runtime/xml/types.js';
import { SOAP11_ENV_NS as SOAP11, SOAP12_ENV_NS as SOAP12, XSI_NS as XSI } from '../runtime/namespaces.js';

export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Buffer;
}

/** One line of the outline: where it is, what it says, and how the line reads indented. */
export interface OutlineEntry {
  readonly path: string;
  readonly value: string;
  readonly line: string;
}

/**
 * Rewrites a leaf element's text before it goes into the outline (for differences by design, or
 * canonical parsing by the element's declared type: migrate/declared-types.ts).
 */
export type TextNormaliser = (text: string, element?: { readonly ns: string; readonly local: string }) => string;

const entry = (path: string, value: string, line = value): OutlineEntry => ({ path, value, line });

/** The answer's outline, entry by entry. */
export function outlineEntries(answer: Answer, normalise: TextNormaliser = (text) => text): OutlineEntry[] {
  const { media, charset } = contentType(answer.headers['content-type']);
  const head = [
    entry('status', `status ${answer.status}`),
    entry('content-type', `content-type ${media}${charset === undefined ? '' : `; ${charset}`}`),
  ];
  if (answer.body.length === 0) return [...head, entry('body', 'body empty')];
  if (media === 'text/plain') return [...head, entry('body', 'body text')];
  if (!media.endsWith('xml')) return [...head, entry('body', `body ${answer.body.length} bytes of ${media}`)];
  let root: XmlElement;
  try {
    root = readXml(answer.body).root;
  } catch (err) {
    return [...head, entry('body', `body not well-formed XML: ${(err as Error).message}`)];
  }
  return [...head, ...(faultEntries(root) ?? elementEntries(root, '', 0, normalise))];
}

/** The outline as lines (what the differential tests compare line for line). */
export function outline(answer: Answer, normalise?: TextNormaliser): string[] {
  return outlineEntries(answer, normalise).map((e) => e.line);
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

/** The fault's entries, or undefined when the answer is not a SOAP fault. */
function faultEntries(root: XmlElement): OutlineEntry[] | undefined {
  if (root.local !== 'Envelope' || (root.ns !== SOAP11 && root.ns !== SOAP12)) return undefined;
  const fault = child(child(root, root.ns, 'Body'), root.ns, 'Fault');
  if (fault === undefined) return undefined;
  if (root.ns === SOAP11) {
    const code = child(fault, '', 'faultcode');
    return [
      entry('fault', 'fault soap11'),
      entry('fault/code', `code ${code === undefined ? 'none' : resolveQName(code, textOf(code))}`),
      entry('fault/detail', `detail ${child(fault, '', 'detail') !== undefined}`),
    ];
  }
  const codes: string[] = [];
  for (let code = child(fault, SOAP12, 'Code'); code !== undefined; code = child(code, SOAP12, 'Subcode')) {
    const value = child(code, SOAP12, 'Value');
    codes.push(value === undefined ? 'none' : resolveQName(value, textOf(value)));
  }
  return [
    entry('fault', 'fault soap12'),
    entry('fault/code', `code ${codes.join(' / ')}`),
    entry('fault/detail', `detail ${child(fault, SOAP12, 'Detail') !== undefined}`),
  ];
}

function attributeText(el: XmlElement): string {
  const shown = el.attributes.map(
    (a) =>
      `@${qname(a.ns, a.local)}=${JSON.stringify(a.ns === XSI && a.local === 'type' ? resolveQName(el, a.value) : a.value)}`,
  );
  return shown
    .sort()
    .map((a) => ` ${a}`)
    .join('');
}

function elementEntries(el: XmlElement, path: string, depth: number, normalise: TextNormaliser): OutlineEntry[] {
  const kids = children(el);
  let value = `${qname(el.ns, el.local)}${attributeText(el)}`;
  if (kids.length === 0) value += ` = ${JSON.stringify(normalise(textOf(el), el))}`;
  else if (el.children.some((c) => c.type === 'text' && c.text.trim() !== '')) value += ' (mixed content)';
  const own = entry(path === '' ? `/${el.local}` : path, value, `${'  '.repeat(depth)}${value}`);
  const seen = new Map<string, number>();
  const below = kids.flatMap((k) => {
    const n = (seen.get(k.local) ?? 0) + 1;
    seen.set(k.local, n);
    return elementEntries(k, `${own.path}/${k.local}${n === 1 ? '' : `[${n}]`}`, depth + 1, normalise);
  });
  return [own, ...below];
}
