/**
 * The outline the differential test compares (test/helpers/answer-structure.ts): equal for
 * answers that differ only in spelling, different for answers a client would read differently.
 */
import { describe, expect, it } from 'vitest';
import { outline, type Answer } from '../helpers/answer-structure.js';

const XML = 'text/xml; charset=utf-8';
const answer = (body: string, contentType = XML, status = 200): Answer => ({
  status,
  headers: { 'content-type': contentType },
  body: Buffer.from(body),
});
const env = (body: string, ns = 'http://schemas.xmlsoap.org/soap/envelope/'): string =>
  `<soap:Envelope xmlns:soap="${ns}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soap:Body>${body}</soap:Body></soap:Envelope>`;
const SHAPE = (type: string, decl = 'xmlns:t="urn:r"') =>
  `<r xmlns="urn:r" ${decl}><Shape xsi:type="${type}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><Label>c</Label></Shape></r>`;
const fault11 = (code: string, detail: string) =>
  env(`<soap:Fault><faultcode>${code}</faultcode><faultstring>any text</faultstring>${detail}</soap:Fault>`);
const fault12 = (code: string, sub = '') =>
  env(
    `<soap:Fault><soap:Code><soap:Value>${code}</soap:Value>${sub}</soap:Code><soap:Reason><soap:Text xml:lang="en">x</soap:Text></soap:Reason></soap:Fault>`,
    'http://www.w3.org/2003/05/soap-envelope',
  );

const SAME: [string, Answer, Answer][] = [
  [
    'prefixes and namespace declarations',
    answer('<a:r xmlns:a="urn:r"><a:x>1</a:x></a:r>'),
    answer('<r xmlns="urn:r"><x>1</x></r>'),
  ],
  ['attribute order', answer('<r xmlns="urn:r" a="1" b="2"/>'), answer('<r xmlns="urn:r" b="2" a="1"/>')],
  ['empty element forms', answer('<r xmlns="urn:r"><x/></r>'), answer('<r xmlns="urn:r"><x></x></r>')],
  [
    'indentation between elements',
    answer('<r xmlns="urn:r">\n  <x>1</x>\n</r>'),
    answer('<r xmlns="urn:r"><x>1</x></r>'),
  ],
  ['xsi:type spelt with another prefix', answer(SHAPE('t:Circle')), answer(SHAPE('Circle', ''))],
  [
    'fault text and detail content',
    answer(fault11('soap:Client', '<detail/>'), XML, 500),
    answer(
      fault11('s:Client', '<detail><code>X</code></detail>').replace(
        '<faultcode>',
        '<faultcode xmlns:s="http://schemas.xmlsoap.org/soap/envelope/">',
      ),
      XML,
      500,
    ),
  ],
  [
    'text/plain error text',
    answer('stack trace...', 'text/plain; charset=utf-8', 500),
    answer('Missing parameter: x.', 'text/plain; charset=UTF-8', 500),
  ],
  [
    'content-type parameters other than charset',
    answer('<r xmlns="urn:r"/>', 'text/xml; charset=utf-8; action="x"'),
    answer('<r xmlns="urn:r"/>'),
  ],
];

const DIFFERENT: [string, Answer, Answer][] = [
  ['status', answer('<r xmlns="urn:r"/>', XML, 200), answer('<r xmlns="urn:r"/>', XML, 500)],
  [
    'charset',
    answer('<r xmlns="urn:r"/>', 'text/xml; charset=utf-8'),
    answer('<r xmlns="urn:r"/>', 'text/xml; charset=utf-16'),
  ],
  ['no content type', answer(''), { status: 200, headers: {}, body: Buffer.alloc(0) }],
  ['element namespace', answer('<r xmlns="urn:r"><x/></r>'), answer('<r xmlns="urn:r"><x xmlns="urn:other"/></r>')],
  ['element order', answer('<r xmlns="urn:r"><x/><y/></r>'), answer('<r xmlns="urn:r"><y/><x/></r>')],
  ['leaf text', answer('<r xmlns="urn:r"><x>1</x></r>'), answer('<r xmlns="urn:r"><x>2</x></r>')],
  ['xsi:type', answer(SHAPE('t:Circle')), answer(SHAPE('t:Square'))],
  [
    'xsi:nil',
    answer('<r xmlns="urn:r" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><x xsi:nil="true"/></r>'),
    answer('<r xmlns="urn:r"><x/></r>'),
  ],
  ['fault code', answer(fault11('soap:Client', ''), XML, 500), answer(fault11('soap:Server', ''), XML, 500)],
  [
    'fault detail present or not',
    answer(fault11('soap:Client', '<detail/>'), XML, 500),
    answer(fault11('soap:Client', ''), XML, 500),
  ],
  [
    'SOAP 1.2 subcode',
    answer(fault12('soap:Sender'), XML, 500),
    answer(
      fault12('soap:Sender', '<soap:Subcode><soap:Value xmlns:e="urn:e">e:X</soap:Value></soap:Subcode>'),
      XML,
      500,
    ),
  ],
  ['empty body and XML', answer(''), answer('<r xmlns="urn:r"/>')],
];

describe('answer outline', () => {
  it.each(SAME)('ignores %s', (_name, a, b) => expect(outline(a)).toEqual(outline(b)));
  it.each(DIFFERENT)('tells apart %s', (_name, a, b) => expect(outline(a)).not.toEqual(outline(b)));
  it('applies the text normaliser to leaf texts only', () => {
    const got = outline(answer('<r xmlns="urn:r" a="x"><x>1E+300</x></r>'), (t) => t.toLowerCase());
    expect(got.at(-1)).toBe('  {urn:r}x = "1e+300"');
    expect(got.at(-2)).toBe('{urn:r}r @{}a="x"');
  });
});
