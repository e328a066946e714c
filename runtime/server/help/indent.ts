/**
 * Line breaks and indentation for the help pages' sample messages. The runtime writes a message
 * on one line; the samples add whitespace only between tags where an element holds elements
 * (where XML ignores it: the message means the same), never inside a text value.
 */

/** The XML declaration, an end tag, a start or empty tag (quotes may hold '>'), or text. */
const TOKEN = /<\?[\s\S]*?\?>|<\/[^>]*>|<(?:[^>"']|"[^"]*"|'[^']*')*>|[^<]+/g;

export function indentXml(xml: string): string {
  let out = '';
  let depth = 0;
  let last: 'none' | 'start' | 'end' | 'text' = 'none';
  const newline = (): string => (out === '' ? '' : `\n${'  '.repeat(depth)}`);
  for (const [token] of xml.matchAll(TOKEN)) {
    if (token.startsWith('<?')) {
      out += token;
      last = 'end';
    } else if (token.startsWith('</')) {
      depth = Math.max(0, depth - 1);
      out += last === 'text' || last === 'start' ? token : newline() + token;
      last = 'end';
    } else if (token.startsWith('<')) {
      out += newline() + token;
      if (!token.endsWith('/>')) depth++;
      last = token.endsWith('/>') ? 'end' : 'start';
    } else if (token.trim() === '' && last !== 'start') {
    } else {
      out += token;
      last = 'text';
    }
  }
  return out;
}
