/**
 * Differential test of the fast XML path against readXml: on every input the fast path either
 * gives up or returns exactly readXml's tree; it never accepts a document readXml refuses.
 * Inputs: hand-written cases and seeded mutations of real envelopes.
 */
import { describe, expect, it } from 'vitest';
import { plainTextEnd, TEXT_SPECIAL, tryFastRead } from '../../runtime/xml/fast-reader.js';
import { readXml } from '../../runtime/xml/reader.js';
import type { XmlDocument } from '../../runtime/xml/types.js';
import { comparable as doc, mutate } from '../helpers/xml-differential.js';

function compare(input: Buffer): 'fast' | 'gave-up' | 'both-refused' {
  let reference: XmlDocument | Error;
  try {
    reference = readXml(input);
  } catch (err) {
    reference = err as Error;
  }
  const fast = tryFastRead(input);
  if (fast === undefined) return reference instanceof Error ? 'both-refused' : 'gave-up';
  if (reference instanceof Error)
    throw new Error(
      `fast path accepted what readXml refuses (${reference.message}): ${JSON.stringify(input.toString('latin1'))}`,
    );
  expect(doc(fast)).toEqual(doc(reference));
  return 'fast';
}

const SOAP =
  '<?xml version="1.0" encoding="utf-8"?>\n<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n  <soap:Header><h:Auth xmlns:h="urn:h" soap:mustUnderstand="1">t</h:Auth></soap:Header>\n  <soap:Body>\n    <SMSSend xmlns="http://smskit.dev/serviceapi/"><keyword>K &amp; &lt;W&gt;</keyword><smsmsg>Grüße 📱 &#x1F600; &#65;</smsmsg><port xsi:nil="true"/><e/></SMSSend>\n  </soap:Body>\n</soap:Envelope>\n';

describe('the fast path agrees with readXml', () => {
  it.each([
    ['a SOAP envelope', SOAP],
    ['no declaration', '<a xmlns="urn:x"><b>t</b></a>'],
    ['single quotes and standalone', "<?xml version='1.0' encoding='UTF-8' standalone='yes'?><a b='1'/>"],
    ['attribute normalisation', '<a b="x\ty\nz &#x9;&#xA;"/>'],
    ['whitespace text kept', '<a>  <b> </b>\n\t</a>'],
    ['xml:lang', '<a xml:lang="en">x</a>'],
    ['default namespace undeclared', '<a xmlns="urn:x"><b xmlns=""><c/></b></a>'],
    ['prefix rebinding', '<p:a xmlns:p="urn:1"><p:b xmlns:p="urn:2"/></p:a>'],
    ['lines and columns', '<a>\n  <b>\n\n    <c x="1"\n       y="2"/></b>\n</a>'],
    ['a start tag over four lines', '<a>\n  <c x="1"\n     y="2"\n     z="3"\n     w="4"></c>\n</a>'],
  ])('%s is read by the fast path, identically', (_name, xml) => {
    expect(compare(Buffer.from(xml))).toBe('fast');
  });

  it.each([
    ['DOCTYPE', '<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>'],
    ['undefined entity', '<a>&nbsp;</a>'],
    ['undeclared prefix', '<p:a/>'],
    ['mismatched tags', '<a><b></a></b>'],
    ['unclosed', '<a><b>'],
    ['two roots', '<a/><b/>'],
    ['text after root', '<a/>x'],
    ['duplicate attribute', '<a x="1" x="2"/>'],
    ['duplicate expanded attribute', '<a xmlns:p="urn:1" xmlns:q="urn:1" p:x="1" q:x="2"/>'],
    ['< in attribute', '<a x="<"/>'],
    ['unquoted attribute', '<a x=1/>'],
    ['no space between attributes', '<a x="1"y="2"/>'],
    ['control character', '<a>\u0001</a>'],
    ['bad char reference', '<a>&#0;</a>'],
    [']]> in text', '<a>]]></a>'],
    ['xmlns:p=""', '<a xmlns:p=""/>'],
    ['binding xml wrongly', '<a xmlns:xml="urn:x"/>'],
    ['declaration not first', ' <?xml version="1.0"?><a/>'],
    ['latin-1 declared', '<?xml version="1.0" encoding="iso-8859-1"?><a/>'],
    ['invalid utf-8', Buffer.from([0x3c, 0x61, 0x3e, 0xc3, 0x28, 0x3c, 0x2f, 0x61, 0x3e])],
    ['empty', ''],
  ])('%s is refused by both', (_name, xml) => {
    expect(compare(Buffer.isBuffer(xml) ? xml : Buffer.from(xml))).toBe('both-refused');
  });

  it.each(['urn:x ', ' urn:x', 'urn:x\t', 'urn:x\n', 'urn:x&#9;'])(
    'a namespace URI with surrounding whitespace (%j) is left to readXml, which trims it',
    (uri) => {
      expect(compare(Buffer.from(`<a xmlns="${uri}" xmlns:p="${uri}"><p:b/></a>`))).toBe('gave-up');
    },
  );

  it('seeded mutations of envelopes: never more lenient, identical trees (20,000 cases)', () => {
    let seed = 0x5eed;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const counts = { fast: 0, 'gave-up': 0, 'both-refused': 0 };
    for (let n = 0; n < 20_000; n++) counts[compare(mutate(SOAP, random))]++;
    expect(counts.fast).toBeGreaterThan(500);
    expect(counts['both-refused']).toBeGreaterThan(5000);
  });
});

describe("plainTextEnd, the shape cache's one-pass text check", () => {
  it('agrees with TEXT_SPECIAL on every UTF-16 code unit, and on "]]>"', () => {
    for (let c = 0; c <= 0xffff; c++) {
      if (c === 0x3c) continue;
      const text = `a${String.fromCharCode(c)}b<`;
      expect(plainTextEnd(text, 0), `U+${c.toString(16)}`).toBe(TEXT_SPECIAL.test(text.slice(0, -1)) ? -1 : 3);
    }
    for (const text of ['x]]>y<', ']]<', ']>]<', 'a]]b<', ']]]>'])
      expect(plainTextEnd(text, 0), text).toBe(
        TEXT_SPECIAL.test(text.slice(0, text.indexOf('<') >>> 0)) ? -1 : text.indexOf('<'),
      );
  });

  it('finds the next "<" from where it starts, and -1 when there is none', () => {
    expect(plainTextEnd('<a>text</a>', 3)).toBe(7);
    expect(plainTextEnd('<a>text', 3)).toBe(-1);
    expect(plainTextEnd('<a><b>', 3)).toBe(3);
  });
});
