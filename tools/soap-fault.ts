/**
 * The two SOAP envelope namespaces and a reader for the fault an answer carries, checking its
 * structure as it goes: shared by the runtime tests, the attack tests and the fuzz checks.
 */
import { readXml } from '../runtime/xml/reader.js';
import type { XmlElement } from '../runtime/xml/types.js';
import { SOAP11_ENV_NS as SOAP11, SOAP12_ENV_NS as SOAP12 } from '../runtime/namespaces.js';

export { SOAP11, SOAP12 };

function kids(el: XmlElement): XmlElement[] {
  return el.children.filter((c): c is XmlElement => c.type === 'element');
}
function text(el: XmlElement | undefined): string {
  return el === undefined ? '' : el.children.map((c) => (c.type === 'text' ? c.text : text(c))).join('');
}

export interface ParsedFault {
  envNs: string;
  code: string;
  message: string;
  detail: Record<string, string>;
  headerBlocks: string[];
}

/** Parses a fault envelope of either version, checking its structure as it goes. */
export function parseFault(body: string): ParsedFault {
  const root = readXml(body).root;
  if (root.local !== 'Envelope') throw new Error(`not an envelope: ${root.local}`);
  const envKids = kids(root);
  const bodyEl = envKids.find((k) => k.local === 'Body' && k.ns === root.ns)!;
  const header = envKids.find((k) => k.local === 'Header' && k.ns === root.ns);
  const fault = kids(bodyEl)[0]!;
  if (fault.local !== 'Fault' || fault.ns !== root.ns) throw new Error('no Fault');
  const detail: Record<string, string> = {};
  const headerBlocks = header === undefined ? [] : kids(header).map((k) => k.local);
  if (root.ns === SOAP11) {
    const get = (n: string) => kids(fault).find((k) => k.local === n && k.ns === '');
    const detailEl = get('detail');
    if (detailEl !== undefined) for (const k of kids(detailEl)) detail[k.local] = text(k);
    return { envNs: root.ns, code: text(get('faultcode')), message: text(get('faultstring')), detail, headerBlocks };
  }
  const get = (el: XmlElement, n: string) => kids(el).find((k) => k.local === n && k.ns === SOAP12);
  const reasonText = get(get(fault, 'Reason')!, 'Text')!;
  if (!reasonText.attributes.some((a) => a.local === 'lang' && a.value === 'en'))
    throw new Error('Reason/Text without xml:lang="en"');
  const detailEl = get(fault, 'Detail');
  if (detailEl !== undefined) for (const k of kids(detailEl)) detail[k.local] = text(k);
  return {
    envNs: root.ns,
    code: text(get(get(fault, 'Code')!, 'Value')),
    message: text(reasonText),
    detail,
    headerBlocks,
  };
}

/** A stack frame or a file path: must never reach a client. */
