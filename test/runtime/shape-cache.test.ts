/**
 * Differential test of the shape cache against readXml: once a shape is learnt, every input
 * either misses (and is read as before) or gives exactly readXml's tree, lines and columns
 * included; an input readXml refuses fails with the same error. Inputs: envelopes whose texts
 * are replaced by seeded random text (the hits), seeded mutations of the markup (the misses),
 * and the bounds.
 */
import { describe, expect, it } from 'vitest';
import { ShapeCache } from '../../runtime/xml/shape-cache.js';
import { readXml } from '../../runtime/xml/reader.js';
import { XmlReadError } from '../../runtime/xml/errors.js';
import type { XmlDocument } from '../../runtime/xml/types.js';
import { comparable as doc, mutate, seeded } from '../helpers/xml-differential.js';

/** Reads through the cache and through readXml; they must agree. Returns whether it was a hit. */
function agree(cache: ShapeCache, input: Buffer): 'hit' | 'miss' | 'refused' {
  let reference: XmlDocument | XmlReadError;
  try {
    reference = readXml(input);
  } catch (err) {
    if (!(err instanceof XmlReadError)) throw err;
    reference = err;
  }
  const hitsBefore = cache.hits;
  let got: XmlDocument | XmlReadError;
  try {
    got = cache.read(input);
  } catch (err) {
    if (!(err instanceof XmlReadError)) throw err;
    got = err;
  }
  const hit = cache.hits > hitsBefore;
  if (reference instanceof XmlReadError) {
    if (hit)
      throw new Error(
        `a shape accepted what readXml refuses (${reference.message}): ${JSON.stringify(input.toString('latin1'))}`,
      );
    expect(got).toBeInstanceOf(XmlReadError);
    const e = got as XmlReadError;
    expect([e.code, e.line, e.column]).toEqual([reference.code, reference.line, reference.column]);
    return 'refused';
  }
  expect(got).not.toBeInstanceOf(XmlReadError);
  expect(doc(got as XmlDocument)).toEqual(doc(reference));
  return hit ? 'hit' : 'miss';
}

const PRETTY =
  '<?xml version="1.0" encoding="utf-8"?>\n<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n  <soap:Header><h:Auth xmlns:h="urn:h" soap:mustUnderstand="1">t</h:Auth></soap:Header>\n  <soap:Body>\n    <SMSSend xmlns="http://smskit.dev/serviceapi/"><keyword>KW</keyword><smsmsg>Hello</smsmsg><port xsi:nil="true"/><e/></SMSSend>\n  </soap:Body>\n</soap:Envelope>\n';
const COMPACT =
  '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><SMSSend xmlns="http://smskit.dev/serviceapi/"><keyword>KW</keyword><emailAddress>a@b.c</emailAddress><password>pw</password><smsto>+14155550123</smsto><carrierCode>ATT</carrierCode><smsmsg>Hello</smsmsg></SMSSend></soap:Body></soap:Envelope>';

/** Replaces the text between '>' and '<' at random places with random text. */
function newTexts(xml: string, random: (n: number) => number, alphabet: readonly string[]): string {
  return xml.replace(/>([^<]+)</g, (whole, _text: string) => {
    if (random(4) === 0) return whole;
    let text = '';
    const length = 1 + random(8);
    for (let i = 0; i < length; i++) text += alphabet[random(alphabet.length)]!;
    return `>${text}<`;
  });
}

describe('the shape cache agrees with readXml', () => {
  it.each([
    ['pretty-printed', PRETTY],
    ['compact', COMPACT],
  ])("%s envelope: new texts hit the learnt shape and give readXml's tree (5,000 cases)", (_name, base) => {
    const cache = new ShapeCache();
    expect(agree(cache, Buffer.from(base))).toBe('miss');
    expect(cache.size).toBe(1);
    // Plain text (hits), including line feeds and tabs that move later lines and columns,
    // '>' and non-ASCII; and what must miss: references, CR, controls, ']]>'.
    const plain = ['a', 'Z', '0', ' ', '\t', '\n', '>', 'é', '📱', '+', '\uFFFD', ']', '"'];
    const alphabet = [...Array.from({ length: 16 }, () => plain).flat(), '&amp;', '\r', '\u0001', ']]>', '\uFFFE'];
    const random = seeded(0xcafe);
    const counts = { hit: 0, miss: 0, refused: 0 };
    for (let n = 0; n < 5_000; n++) counts[agree(cache, Buffer.from(newTexts(base, random, alphabet)))]++;
    expect(counts.hit).toBeGreaterThan(500); // the pretty one also gets text before its root (refused)
    expect(counts.miss + counts.refused).toBeGreaterThan(500);
  });

  it('seeded mutations of the markup never hit wrongly (20,000 cases)', () => {
    const cache = new ShapeCache();
    agree(cache, Buffer.from(PRETTY));
    agree(cache, Buffer.from(COMPACT));
    const random = seeded(0x5eed);
    const counts = { hit: 0, miss: 0, refused: 0 };
    for (let n = 0; n < 20_000; n++) counts[agree(cache, mutate(random(2) === 0 ? PRETTY : COMPACT, random))]++;
    expect(counts.hit).toBeGreaterThan(50); // edits inside texts still fit a shape
    expect(counts.refused).toBeGreaterThan(5_000);
    expect(cache.size).toBeLessThanOrEqual(8);
  });

  it('keeps at most maxShapes shapes, most recently used first', () => {
    const cache = new ShapeCache({ maxShapes: 3 });
    for (let i = 0; i < 10; i++) agree(cache, Buffer.from(`<a${i}>x</a${i}>`));
    expect(cache.size).toBe(3);
    expect(agree(cache, Buffer.from('<a9>other</a9>'))).toBe('hit');
    expect(agree(cache, Buffer.from('<a0>other</a0>'))).toBe('miss'); // dropped long ago
  });

  it('learns nothing from a document over maxDocumentBytes, or one whose text held a reference', () => {
    const cache = new ShapeCache({ maxDocumentBytes: 64 });
    agree(cache, Buffer.from(`<a>${'x'.repeat(100)}</a>`));
    agree(cache, Buffer.from('<b>x &amp; y</b>'));
    expect(cache.size).toBe(0);
    agree(cache, Buffer.from('<b>x</b>'));
    expect(agree(cache, Buffer.from('<b>y</b>'))).toBe('hit');
  });

  it('keeps no text of the documents it learnt from (a password stays out of the cache)', () => {
    const cache = new ShapeCache();
    agree(cache, Buffer.from(COMPACT.replace('<password>pw</password>', '<password>s3cret-Pa55</password>')));
    const retained = (): string[] => {
      const seen = new Set<unknown>();
      const strings: string[] = [];
      const walk = (value: unknown): void => {
        if (typeof value === 'string') strings.push(value);
        if (typeof value !== 'object' || value === null || seen.has(value)) return;
        seen.add(value);
        for (const key of Object.getOwnPropertyNames(value)) walk((value as Record<string, unknown>)[key]);
      };
      walk(cache);
      return strings;
    };
    expect(retained().length).toBeGreaterThan(5);
    expect(retained().some((text) => text.includes('s3cret-Pa55'))).toBe(false);
    // A hit reads the next one, and leaves nothing of it behind either.
    expect(
      agree(cache, Buffer.from(COMPACT.replace('<password>pw</password>', '<password>0ther-Secret</password>'))),
    ).toBe('hit');
    expect(retained().some((text) => text.includes('0ther-Secret'))).toBe(false);
  });

  it('applies its limits on a miss, as readXml does', () => {
    const cache = new ShapeCache({ limits: { maxDepth: 2 } });
    expect(() => cache.read(Buffer.from('<a><b><c/></b></a>'))).toThrow(XmlReadError);
    expect(cache.size).toBe(0);
  });

  it('an empty text where the shape has one, or text where it has none, misses', () => {
    const cache = new ShapeCache();
    agree(cache, Buffer.from('<a><b>x</b><c/></a>'));
    expect(agree(cache, Buffer.from('<a><b></b><c/></a>'))).toBe('miss');
    expect(agree(cache, Buffer.from('<a><b>x</b> <c/></a>'))).toBe('miss');
  });
});
