/**
 * Secret values in XML text, found by reading the markup rather than by one pattern: the content
 * of an element named like a secret (text, CDATA sections, comments, child elements: all of it)
 * and the value of an attribute so named both become `***`. A tag this reader cannot take apart
 * makes the whole text "not understood": the caller then decides (the recorder stores no such
 * body when it names a secret). A secret element the text ends inside (a body cut at the store's
 * limit) is replaced to the end.
 */
/** What a secret value becomes. */
export const REDACTED = '***';

/** The text with secrets replaced, and what was replaced; undefined when a tag cannot be read. */
export interface XmlRedaction {
  readonly text: string;
  readonly redacted: readonly string[];
}

const NAME = /[\w.-]+(?::[\w.-]+)?/y;
const ATTRIBUTE = /(\s+)([\w.:-]+)(?:(\s*=\s*)("[^"]*"|'[^']*'|[^\s"'<>=`]+))?/y;
const TAG_END = /\s*(\/?)>/y;
const SKIPPED: readonly [string, string][] = [
  ['<!--', '-->'],
  ['<![CDATA[', ']]>'],
  ['<?', '?>'],
  ['<!', '>'],
];

interface Tag {
  readonly qname: string;
  readonly text: string;
  readonly selfClosing: boolean;
  readonly end: number;
}

const localOf = (qname: string): string => (qname.includes(':') ? qname.slice(qname.indexOf(':') + 1) : qname);

/** An open tag at `at` (just past its `<`) with its secret attributes' values replaced; undefined when unreadable. */
function readTag(text: string, at: number, isSecret: (local: string) => boolean, redacted: string[]): Tag | undefined {
  NAME.lastIndex = at;
  const name = NAME.exec(text);
  if (name === null) return undefined;
  let out = `<${name[0]}`;
  let i = NAME.lastIndex;
  for (;;) {
    ATTRIBUTE.lastIndex = i;
    const attr = ATTRIBUTE.exec(text);
    if (attr === null) break;
    const [, space, attrName, equals, value] = attr as unknown as [string, string, string, string?, string?];
    const local = localOf(attrName);
    if (value !== undefined && !attrName.startsWith('xmlns') && isSecret(local) && value.length > 2) {
      const quote = value.startsWith('"') || value.startsWith("'") ? value[0]! : '"';
      out += `${space}${attrName}${equals}${quote}${REDACTED}${quote}`;
      redacted.push(`attribute ${local}`);
    } else out += attr[0];
    i = ATTRIBUTE.lastIndex;
  }
  TAG_END.lastIndex = i;
  const end = TAG_END.exec(text);
  if (end === null) return undefined;
  return { qname: name[0], text: out + end[0], selfClosing: end[1] === '/', end: TAG_END.lastIndex };
}

/** Where the close tag of the element opened before `from` starts and ends; undefined when the text ends first. */
function elementEnd(text: string, from: number, qname: string): [number, number] | undefined {
  const open = new RegExp(`<${qname.replace(/[.]/g, '\\.')}(?=[\\s/>])|</${qname.replace(/[.]/g, '\\.')}\\s*>`, 'g');
  open.lastIndex = from;
  let depth = 1;
  for (let m = open.exec(text); m !== null; m = open.exec(text)) {
    if (m[0].startsWith('</')) depth--;
    else depth++;
    if (depth === 0) return [m.index, open.lastIndex];
  }
  return undefined;
}

/** Replaces secrets in XML text; undefined when some tag cannot be read. */
export function redactXml(text: string, isSecret: (local: string) => boolean): XmlRedaction | undefined {
  const redacted: string[] = [];
  let out = '';
  let i = 0;
  while (i < text.length) {
    const lt = text.indexOf('<', i);
    if (lt < 0) break;
    out += text.slice(i, lt);
    const skipped = SKIPPED.find(([open]) => text.startsWith(open, lt));
    if (skipped !== undefined || text.startsWith('</', lt)) {
      const close = skipped?.[1] ?? '>';
      const end = text.indexOf(close, lt + 1);
      if (end < 0) return undefined;
      out += text.slice(lt, end + close.length);
      i = end + close.length;
      continue;
    }
    const tag = readTag(text, lt + 1, isSecret, redacted);
    if (tag === undefined) return undefined;
    out += tag.text;
    i = tag.end;
    const local = localOf(tag.qname);
    if (tag.selfClosing || !isSecret(local)) continue;
    const end = elementEnd(text, i, tag.qname);
    const [closeStart, closeEnd] = end ?? [text.length, text.length];
    if (closeStart > i) redacted.push(`element ${local}`);
    out += (closeStart > i ? REDACTED : '') + text.slice(closeStart, closeEnd);
    i = closeEnd;
  }
  return { text: out + text.slice(i), redacted };
}
