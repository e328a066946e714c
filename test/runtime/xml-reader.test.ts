import { describe, expect, it } from 'vitest';
import {
  XmlReadError,
  attr,
  childElements,
  readXml,
  resolveQNameValue,
  textContent,
} from '../../runtime/xml/reader.js';
import type { XmlElement, XmlReadLimits } from '../../runtime/xml/types.js';

const SOAP11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const SVC = 'http://smskit.dev/serviceapi/';

function readError(input: string | Uint8Array, limits?: XmlReadLimits): XmlReadError {
  try {
    readXml(input, limits === undefined ? undefined : { limits });
  } catch (error) {
    if (error instanceof XmlReadError) return error;
    throw error;
  }
  throw new Error('expected readXml to fail');
}

function first(el: XmlElement): XmlElement {
  const child = childElements(el)[0];
  if (child === undefined) throw new Error(`<${el.local}> has no child element`);
  return child;
}

describe('readXml: names are resolved by namespace URI whatever the prefix', () => {
  const cases: [string, { given: string; want: { ns: string; local: string; prefix: string } }][] = [
    [
      'prefixed',
      { given: `<soap:Envelope xmlns:soap="${SOAP11}"/>`, want: { ns: SOAP11, local: 'Envelope', prefix: 'soap' } },
    ],
    [
      'other prefix',
      { given: `<e:Envelope xmlns:e="${SOAP11}"/>`, want: { ns: SOAP11, local: 'Envelope', prefix: 'e' } },
    ],
    [
      'default namespace',
      { given: `<Envelope xmlns="${SOAP11}"/>`, want: { ns: SOAP11, local: 'Envelope', prefix: '' } },
    ],
    ['no namespace', { given: '<Envelope/>', want: { ns: '', local: 'Envelope', prefix: '' } }],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    const { root } = readXml(given);
    expect({ ns: root.ns, local: root.local, prefix: root.prefix }).toEqual(want);
  });

  it('inherits, overrides and undeclares the default namespace', () => {
    const { root } = readXml(`<a xmlns="urn:a"><b/><c xmlns="urn:c"><d/></c><e xmlns=""/></a>`);
    expect(childElements(root).map((e) => e.ns)).toEqual(['urn:a', 'urn:c', '']);
    expect(first(childElements(root)[1]!).ns).toBe('urn:c');
  });

  it('keeps in-scope namespaces for QName values and shares them with non-declaring children', () => {
    const { root } = readXml(`<a xmlns:s="urn:s"><b xmlns:t="urn:t"><c type="s:x" ref="t:y"/></b></a>`);
    const c = first(first(root));
    expect(resolveQNameValue(c, 's:x')).toEqual({ ns: 'urn:s', local: 'x' });
    expect(resolveQNameValue(c, ' t:y ')).toEqual({ ns: 'urn:t', local: 'y' });
    expect(resolveQNameValue(c, 'plain')).toEqual({ ns: '', local: 'plain' });
    expect(c.namespaces).toBe(first(root).namespaces);
    expect(root.namespaces.t).toBeUndefined();
  });

  it('resolves an unprefixed QName value to the default namespace, and xml: always', () => {
    const { root } = readXml(`<a xmlns="urn:d"/>`);
    expect(resolveQNameValue(root, 'x')).toEqual({ ns: 'urn:d', local: 'x' });
    expect(resolveQNameValue(root, 'xml:lang')).toEqual({ ns: 'http://www.w3.org/XML/1998/namespace', local: 'lang' });
  });

  it('refuses a QName value with an undeclared prefix, naming it', () => {
    const { root } = readXml(`<a>\n  <b type="q:x"/></a>`);
    const b = first(root);
    expect(() => resolveQNameValue(b, 'q:x')).toThrow(/QName "q:x" on <b>: the prefix "q" is not declared/);
    try {
      resolveQNameValue(b, 'q:x');
    } catch (error) {
      expect(error).toMatchObject({ code: 'XML_MALFORMED', line: 2, column: 3 });
    }
  });

  it('resolves attribute namespaces; unprefixed attributes have none', () => {
    const { root } = readXml(`<a xmlns="urn:d" xmlns:x="urn:x" plain="1" x:q="2"/>`);
    expect(root.attributes).toEqual([
      { ns: '', local: 'plain', prefix: '', value: '1' },
      { ns: 'urn:x', local: 'q', prefix: 'x', value: '2' },
    ]);
    expect(attr(root, 'plain')).toBe('1');
    expect(attr(root, 'q', 'urn:x')).toBe('2');
    expect(attr(root, 'q')).toBeUndefined();
  });
});

describe('readXml: text', () => {
  const cases: [string, { given: string; want: string }][] = [
    ['predefined entities', { given: '<a>&lt;&gt;&amp;&apos;&quot;</a>', want: `<>&'"` }],
    ['character references', { given: '<a>&#65;&#x42;&#x1F600;</a>', want: 'AB😀' }],
    ['CDATA merged with text', { given: '<a>x<![CDATA[<b>&amp;</b>]]>y</a>', want: 'x<b>&amp;</b>y' }],
    ['whitespace kept', { given: '<a>  \t two  spaces \n</a>', want: '  \t two  spaces \n' }],
    ['CRLF normalised to LF', { given: '<a>1\r\n2\r3</a>', want: '1\n2\n3' }],
    ['non-ASCII', { given: '<a>é 中文 🎉</a>', want: 'é 中文 🎉' }],
    ['text around a comment is one node', { given: '<a>x<!-- c -->y</a>', want: 'xy' }],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    const { root } = readXml(given);
    expect(root.children).toEqual([{ type: 'text', text: want }]);
    expect(textContent(root)).toBe(want);
  });

  it('keeps whitespace-only text between elements, and textContent concatenates descendants', () => {
    const { root } = readXml('<a> <b>1</b>\n<c>2</c></a>');
    expect(root.children.map((n) => n.type)).toEqual(['text', 'element', 'text', 'element']);
    expect(textContent(root)).toBe(' 1\n2');
    expect(childElements(root).map((e) => e.local)).toEqual(['b', 'c']);
  });

  it('reports the 1-based line and column of each start tag', () => {
    const { root } = readXml('<?xml version="1.0"?>\n<a>\n  <b\n    x="1"/><c/>\r\n\t<d/></a>');
    expect([root.line, root.column]).toEqual([2, 1]);
    expect(childElements(root).map((e) => [e.local, e.line, e.column])).toEqual([
      ['b', 3, 3],
      ['c', 4, 12],
      ['d', 5, 2],
    ]);
  });

  it('reports the line of the < for a start tag whose attributes span several lines', () => {
    const { root } = readXml('<a>\n  <b x="1"\n     y="2"\n     z="3"/>\n  <c\n x="1"\n y="2"></c></a>');
    expect(childElements(root).map((e) => [e.local, e.line, e.column])).toEqual([
      ['b', 2, 3],
      ['c', 5, 3],
    ]);
  });

  it('reports the XML declaration', () => {
    expect(readXml('<?xml version="1.0" encoding="UTF-8"?><a/>')).toMatchObject({
      hasDeclaration: true,
      declaredEncoding: 'utf-8',
    });
    const bare = readXml('<a/>');
    expect(bare.hasDeclaration).toBe(false);
    expect(bare.declaredEncoding).toBeUndefined();
  });
});

describe('readXml: bytes and encodings', () => {
  const enc = new TextEncoder();
  it('decodes UTF-8 bytes and strips a BOM', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...enc.encode('<a>é</a>')]);
    expect(textContent(readXml(bytes).root)).toBe('é');
    expect(readXml(Buffer.from('\ufeff<a/>')).root.local).toBe('a');
  });

  it('accepts utf-8 and us-ascii declarations in any case', () => {
    for (const name of ['utf-8', 'UTF-8', 'Utf-8', 'us-ascii', 'US-ASCII']) {
      expect(readXml(enc.encode(`<?xml version="1.0" encoding="${name}"?><a/>`)).declaredEncoding).toBe(
        name.toLowerCase(),
      );
    }
  });

  const bad: [string, { given: Uint8Array; want: { code: string; message: RegExp } }][] = [
    [
      'invalid UTF-8',
      {
        given: new Uint8Array([0x3c, 0x61, 0x3e, 0xc3, 0x28, 0x3c, 0x2f, 0x61, 0x3e]),
        want: { code: 'XML_ENCODING', message: /not valid UTF-8/ },
      },
    ],
    [
      'UTF-16 bytes',
      {
        given: new Uint8Array([0xff, 0xfe, 0x3c, 0x00, 0x61, 0x00, 0x2f, 0x00, 0x3e, 0x00]),
        want: { code: 'XML_ENCODING', message: /not valid UTF-8/ },
      },
    ],
    [
      'ISO-8859-1 declared',
      {
        given: enc.encode('<?xml version="1.0" encoding="ISO-8859-1"?><a/>'),
        want: { code: 'XML_ENCODING', message: /encoding "ISO-8859-1"/ },
      },
    ],
    [
      'UTF-16 declared',
      {
        given: enc.encode('<?xml version="1.0" encoding="utf-16"?><a/>'),
        want: { code: 'XML_ENCODING', message: /encoding "utf-16"/ },
      },
    ],
    [
      'US-ASCII declared, é sent',
      {
        given: enc.encode('<?xml version="1.0" encoding="us-ascii"?><a>é</a>'),
        want: { code: 'XML_ENCODING', message: /US-ASCII/ },
      },
    ],
  ];
  it.each(bad)('refuses %s', (_name, { given, want }) => {
    const error = readError(given);
    expect(error.code).toBe(want.code);
    expect(error.message).toMatch(want.message);
  });
});

describe('readXml: DOCTYPE is always refused, nothing expanded or fetched', () => {
  const cases: [string, string][] = [
    ['plain doctype', '<!DOCTYPE a><a/>'],
    [
      'XXE (external entity)',
      '<?xml version="1.0"?>\n<!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<a>&x;</a>',
    ],
    ['external DTD', '<!DOCTYPE a SYSTEM "http://example.invalid/a.dtd"><a/>'],
    [
      'billion laughs',
      '<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">\n <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">\n]>\n<lolz>&lol3;</lolz>',
    ],
  ];
  it.each(cases)('%s', (_name, given) => {
    const error = readError(given);
    expect(error.code).toBe('XML_DOCTYPE');
    expect(error.message).toMatch(/DOCTYPE declaration is not allowed/);
    expect(error.line).toBe(given.startsWith('<?xml') ? 2 : 1);
    expect(error.column).toBe(1);
  });

  it('refuses an undefined entity without a DOCTYPE', () => {
    expect(readError('<a>&nbsp;</a>')).toMatchObject({
      code: 'XML_MALFORMED',
      message: expect.stringMatching(/Undefined entity/),
    });
  });
});

describe('readXml: malformed XML reports what and where', () => {
  const cases: [string, { given: string; want: { line: number; column: number; message: RegExp } }][] = [
    ['mismatched end tag', { given: '<a>\n  <b></a>', want: { line: 2, column: 10, message: /close tag/i } }],
    ['unclosed root', { given: '<a><b/>', want: { line: 1, column: 8, message: /Unclosed tag: a/ } }],
    [
      'undeclared element prefix',
      { given: '<a>\n<p:b/></a>', want: { line: 2, column: 7, message: /Unbound namespace prefix: "p"/ } },
    ],
    [
      'undeclared attribute prefix',
      { given: '<a q:x="1"/>', want: { line: 1, column: 13, message: /Unbound namespace prefix: "q"/ } },
    ],
    [
      'duplicate attribute',
      { given: '<a x="1" x="2"/>', want: { line: 1, column: 17, message: /Duplicate attribute/ } },
    ],
    [
      'same attribute via two prefixes',
      {
        given: '<a xmlns:p="u" xmlns:q="u" p:x="1" q:x="2"/>',
        want: { line: 1, column: 45, message: /Duplicate attribute: \{u\}x/ },
      },
    ],
    ['two roots', { given: '<a/><b/>', want: { line: 1, column: 8, message: /only one root/ } }],
    ['text after root', { given: '<a/>x', want: { line: 1, column: 6, message: /outside of root/ } }],
    ['empty document', { given: '', want: { line: 1, column: 1, message: /root element/ } }],
    ['unquoted attribute', { given: '<a x=1/>', want: { line: 1, column: 7, message: /Unquoted attribute value/ } }],
    ['control character', { given: '<a>\u0001</a>', want: { line: 1, column: 5, message: /Disallowed character/ } }],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    const error = readError(given);
    expect(error).toBeInstanceOf(XmlReadError);
    expect(error.code).toBe('XML_MALFORMED');
    expect({ line: error.line, column: error.column }).toEqual({ line: want.line, column: want.column });
    expect(error.message).toMatch(want.message);
    expect(error.message).not.toMatch(/\bat .*\.js/);
  });

  it('names the file when given one', () => {
    try {
      readXml('<a>', { fileName: 'x.wsdl' });
    } catch (error) {
      expect((error as Error).message).toMatch(/^x\.wsdl:1:4: /);
      return;
    }
    throw new Error('expected a failure');
  });

  it('reads the next document correctly after a failed one', () => {
    readError('<a><b></a>');
    expect(readXml('<c><d/></c>').root.local).toBe('c');
  });
});

describe('readXml: limits', () => {
  const deep = (n: number) => '<a>'.repeat(n) + '</a>'.repeat(n);
  const cases: [string, { given: string; limits: XmlReadLimits; want: RegExp }][] = [
    ['depth', { given: deep(5), limits: { maxDepth: 4 }, want: /nested deeper than 4/ }],
    ['attributes', { given: '<a x="1" y="2" z="3"/>', limits: { maxAttributes: 2 }, want: /more than 2 attributes/ }],
    [
      'namespace declarations',
      {
        given: '<a xmlns:a="1" xmlns:b="2" xmlns="3"/>',
        limits: { maxNamespaceDeclarations: 2 },
        want: /more than 2 namespaces/,
      },
    ],
    [
      'element count',
      { given: `<a>${'<b/>'.repeat(10)}</a>`, limits: { maxElements: 10 }, want: /More than 10 elements/ },
    ],
  ];
  it.each(cases)('%s', (_name, { given, limits, want }) => {
    const error = readError(given, limits);
    expect(error.code).toBe('XML_LIMIT');
    expect(error.message).toMatch(want);
  });

  it('allows exactly the limit, and has a default depth of 256', () => {
    expect(() => readXml(deep(4), { limits: { maxDepth: 4 } })).not.toThrow();
    expect(() => readXml(deep(256))).not.toThrow();
    expect(readError(deep(257)).code).toBe('XML_LIMIT');
  });
});

describe('readXml: a SOAP envelope', () => {
  it('reads the body wrapper and its children by URI', () => {
    const envelope = `<?xml version="1.0" encoding="utf-8"?>
<soap:Envelope xmlns:soap="${SOAP11}"><soap:Body><SMSSend xmlns="${SVC}"><keyword>K</keyword><message>a &amp; b</message></SMSSend></soap:Body></soap:Envelope>`;
    const body = first(readXml(Buffer.from(envelope)).root);
    expect([body.ns, body.local]).toEqual([SOAP11, 'Body']);
    const wrapper = first(body);
    expect(childElements(wrapper).map((e) => [e.ns, e.local, textContent(e)])).toEqual([
      [SVC, 'keyword', 'K'],
      [SVC, 'message', 'a & b'],
    ]);
  });
});
