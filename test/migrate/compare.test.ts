/**
 * The replay's comparison: outline paths, differences by path (changed, missing, extra, order),
 * ignores by glob, canonical leaf texts. Each table row can fail: a SAME row that differed or a
 * DIFFERENT row that matched is reported by name.
 */
import { describe, expect, it } from 'vitest';
import { descriptorFromWsdlText } from '../../contract/descriptor/from-text.js';
import { canonicalText } from '../../migrate/canonical.js';
import { declaredPrimitives, declaredTypeNormaliser } from '../../migrate/declared-types.js';
import { compareOutlines, groupPath } from '../../migrate/compare.js';
import { pathIgnorer } from '../../migrate/ignore.js';
import { type Answer, outlineEntries } from '../../migrate/outline.js';
import { asmxWsdl } from '../helpers/smskit-peers.js';

const answer = (body: string, status = 200, contentType = 'text/xml; charset=utf-8'): Answer => ({
  status,
  headers: { 'content-type': contentType },
  body: Buffer.from(body),
});
const env = (inner: string): string =>
  `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><s:Body>${inner}</s:Body></s:Envelope>`;
const diff = (a: Answer, b: Answer, ignore: string[] = []) =>
  compareOutlines(outlineEntries(a, canonicalText), outlineEntries(b, canonicalText), pathIgnorer(ignore));

describe('outline paths', () => {
  it('names elements by local name, repeats from the second on with [n]', () => {
    const paths = outlineEntries(answer(env('<r xmlns="urn:x"><L><q>1</q></L><L><q>2</q></L><m/></r>'))).map(
      (e) => e.path,
    );
    expect(paths).toEqual([
      'status',
      'content-type',
      '/Envelope',
      '/Envelope/Body',
      '/Envelope/Body/r',
      '/Envelope/Body/r/L',
      '/Envelope/Body/r/L/q',
      '/Envelope/Body/r/L[2]',
      '/Envelope/Body/r/L[2]/q',
      '/Envelope/Body/r/m',
    ]);
    expect(groupPath('/Envelope/Body/r/L[2]/q')).toBe('/Envelope/Body/r/L/q');
  });
});

const SAME: [string, Answer, Answer][] = [
  ['prefixes', answer(env('<a:r xmlns:a="urn:x"><a:v>1</a:v></a:r>')), answer(env('<r xmlns="urn:x"><v>1</v></r>'))],
  [
    'a dateTime offset vs the same instant in UTC (.NET writes seven fraction digits)',
    answer(env('<r xmlns="urn:x"><t>2024-02-29T15:45:00+02:00</t></r>')),
    answer(env('<r xmlns="urn:x"><t>2024-02-29T13:45:00.0000000+00:00</t></r>')),
  ],
  [
    'Z vs +00:00',
    answer(env('<r xmlns="urn:x"><t>2024-01-01T00:00:00Z</t></r>')),
    answer(env('<r xmlns="urn:x"><t>2024-01-01T00:00:00.0000000+00:00</t></r>')),
  ],
  [
    'exponent spelling',
    answer(env('<r xmlns="urn:x"><d>1E+300</d></r>')),
    answer(env('<r xmlns="urn:x"><d>1e+300</d></r>')),
  ],
  [
    'GUID case',
    answer(env('<r xmlns="urn:x"><g>0F8FAD5B-D9CB-469F-A165-70867728950E</g></r>')),
    answer(env('<r xmlns="urn:x"><g>0f8fad5b-d9cb-469f-a165-70867728950e</g></r>')),
  ],
];

const DIFFERENT: [string, Answer, Answer, string[]][] = [
  [
    'a value',
    answer(env('<r xmlns="urn:x"><v>1</v></r>')),
    answer(env('<r xmlns="urn:x"><v>2</v></r>')),
    ['changed /Envelope/Body/r/v'],
  ],
  [
    'a missing element',
    answer(env('<r xmlns="urn:x"><v>1</v><w>2</w></r>')),
    answer(env('<r xmlns="urn:x"><v>1</v></r>')),
    ['missing /Envelope/Body/r/w'],
  ],
  [
    'an extra element',
    answer(env('<r xmlns="urn:x"/>')),
    answer(env('<r xmlns="urn:x"><v>1</v></r>')),
    ['changed /Envelope/Body/r', 'extra /Envelope/Body/r/v'],
  ],
  [
    'element order',
    answer(env('<r xmlns="urn:x"><a>1</a><b>2</b></r>')),
    answer(env('<r xmlns="urn:x"><b>2</b><a>1</a></r>')),
    ['order /Envelope/Body/r'],
  ],
  [
    'a namespace',
    answer(env('<r xmlns="urn:x"><v>1</v></r>')),
    answer(env('<r xmlns="urn:y"><v>1</v></r>')),
    ['changed /Envelope/Body/r', 'changed /Envelope/Body/r/v'],
  ],
  [
    'xsi:type',
    answer(env('<r xmlns="urn:x"><s xsi:type="Circle"/></r>')),
    answer(env('<r xmlns="urn:x"><s xsi:type="Square"/></r>')),
    ['changed /Envelope/Body/r/s'],
  ],
  [
    'nil',
    answer(env('<r xmlns="urn:x"><s xsi:nil="true"/></r>')),
    answer(env('<r xmlns="urn:x"><s/></r>')),
    ['changed /Envelope/Body/r/s'],
  ],
  [
    'a fault code',
    answer(env('<s:Fault><faultcode>s:Client</faultcode><faultstring>x</faultstring></s:Fault>'), 500),
    answer(env('<s:Fault><faultcode>s:Server</faultcode><faultstring>x</faultstring></s:Fault>'), 500),
    ['changed fault/code'],
  ],
  ['the status', answer('', 200), answer('', 500), ['changed status']],
  [
    'a string that looks like a number',
    answer(env('<r xmlns="urn:x"><v>007</v></r>')),
    answer(env('<r xmlns="urn:x"><v>7</v></r>')),
    ['changed /Envelope/Body/r/v'],
  ],
];

describe('compareOutlines', () => {
  it.each(SAME)('the same: %s', (_name, a, b) => {
    expect(diff(a, b)).toEqual([]);
  });
  it.each(DIFFERENT)('different: %s', (_name, a, b, want) => {
    expect(diff(a, b).map((d) => `${d.kind} ${d.path}`)).toEqual(want);
  });
  it('ignores by path take everything below along', () => {
    const a = answer(env('<r xmlns="urn:x"><Id>1</Id><At><x>1</x></At><v>1</v></r>'));
    const b = answer(env('<r xmlns="urn:x"><Id>2</Id><At><x>2</x></At><v>2</v></r>'));
    expect(diff(a, b, ['**/Id', '/Envelope/Body/*/At']).map((d) => d.path)).toEqual(['/Envelope/Body/r/v']);
  });
});

describe('ignore globs', () => {
  const cases: [string, string, boolean][] = [
    ['**/Id', '/Envelope/Body/R/Id', true],
    ['**/Id', '/Envelope/Body/R/Id[3]', true],
    ['**/Id', '/Envelope/Body/R/Idx', false],
    ['/Envelope/**/Id', '/Envelope/Id', true],
    ['/Envelope/Body/*Response/When', '/Envelope/Body/SubmitResponse/When', true],
    ['/Envelope/Body/*Response/When', '/Envelope/Body/Submit/When', false],
    ['/Envelope/Body/R/L[2]', '/Envelope/Body/R/L', false],
    ['status', 'status', true],
    ['status', 'statusx', false],
  ];
  it.each(cases)('%s on %s: %s', (glob, path, want) => {
    expect(pathIgnorer([glob])(path)).toBe(want);
  });
});

describe('canonicalText', () => {
  it.each([
    ['2024-02-29T15:45:00+02:00', '2024-02-29T13:45:00.0000000Z'],
    ['2024-02-29T13:45:00.5', '2024-02-29T13:45:00.5000000'],
    ['1.5E-7', '1.5e-7'],
    [' 12 ', ' 12 '],
    ['007', '007'],
    ['2024-02-29', '2024-02-29'],
  ])('%s -> %s', (text, want) => {
    expect(canonicalText(text)).toBe(want);
  });
});

describe('canonical parsing by declared type (the rich peer WSDL)', () => {
  const normalise = declaredTypeNormaliser(descriptorFromWsdlText(asmxWsdl('rich')));
  const R = 'http://smskit.dev/rich/';
  const same = (local: string, a: string, b: string): boolean =>
    normalise(a, { ns: R, local }) === normalise(b, { ns: R, local });
  it.each([
    ['Discount', 'decimal', '12.50', '12.5', true],
    ['Discount', 'decimal', '+012.50', '12.5', true],
    ['Discount', 'decimal', '12.51', '12.5', false],
    ['Priority', 'int', '007', '7', true],
    ['Note', 'string', '007', '7', false],
    ['Note', 'string', 'a ', 'a', false],
    ['Created', 'dateTime', '2024-02-29T15:45:00+02:00', '2024-02-29T13:45:00Z', true],
    // .NET writes a float's "R" form; JavaScript the double nearest to it: one xs:float either way.
    ['Single', 'float', '-1.401298E-45', '-1.401298464324817e-45', true],
    ['Single', 'float', '1.5', '1.50001', false],
    ['Double', 'double', '1.401298E-45', '1.401298464324817e-45', false],
    ['Reference', 'guid', '0F8FAD5B-D9CB-469F-A165-70867728950E', '0f8fad5b-d9cb-469f-a165-70867728950e', true],
  ])('%s (%s): %s vs %s same: %s', (local, _type, a, b, want) => {
    expect(same(local, a, b)).toBe(want);
  });
  it('finds the declared types of the rich service', () => {
    const types = declaredPrimitives(descriptorFromWsdlText(asmxWsdl('rich')));
    expect(types.get(`{${R}}Discount`)).toBe('decimal');
    expect(types.get(`{${R}}Note`)).toBe('string');
  });
});
