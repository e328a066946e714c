/** The catalogue as data: derived from the descriptor, validated, selectable by globs and level. */
import { describe, expect, it } from 'vitest';
import { buildCatalogue, validateCatalogue } from '../../conformance/catalogue/build.js';
import { bindInputs, secretValues } from '../../conformance/catalogue/inputs.js';
import { padToSize } from '../../conformance/catalogue/requests.js';
import { globToRegExp, selectCases } from '../../conformance/catalogue/select.js';
import type { Case } from '../../conformance/types.js';
import { contractDescriptor } from '../fixtures/conformance/contract.js';
import { twoResultsDescriptor } from '../fixtures/conformance/two-results-descriptor.js';
import { TEST_INPUTS } from '../fixtures/conformance/run.js';

const cases = buildCatalogue({ descriptor: contractDescriptor, inputs: TEST_INPUTS });
const ids = cases.map((c) => c.id);

describe('catalogue', () => {
  it('lays out every binding x operation, the negative and COMPAT cases, and the wsdl case', () => {
    expect(cases).toHaveLength(83);
    for (const op of ['SMSSend', 'SMSSendToPort']) {
      for (const b of ['soap11', 'soap12', 'http-get', 'http-post']) {
        for (const v of ['plain', 'non-ascii', 'xml-special', 'empty', 'long'])
          expect(ids).toContain(`${op}/${b}/ok/${v}`);
      }
      expect(ids).toContain(`${op}/soap11/fault/unknown-soapaction`);
      expect(ids).toContain(`${op}/soap11/compat/no-soapaction`);
      expect(ids).toContain(`${op}/http-get/error/missing-parameter`);
      expect(ids).toContain(`${op}/http-post/compat/any-order`);
    }
    expect(ids).toContain('SMSSend/soap12/fault/over-size');
    expect(ids).not.toContain('SMSSendToPort/soap12/fault/over-size');
    expect(ids[ids.length - 1]).toBe('wsdl/structure');
  });

  it('puts the bound inputs in the requests and the variant text in the free parameter', () => {
    const nonAscii = cases.find((c) => c.id === 'SMSSendToPort/http-get/ok/non-ascii')!;
    const query = new URLSearchParams(nonAscii.request.path.split('?')[1]);
    expect(query.get('emailAddress')).toBe('tester@example.com');
    expect(query.get('port')).toBe('5000');
    expect(query.get('smsmsg')).toBe('Grüße café naïve – 你好世界 🙂🚀');
    const missing = cases.find((c) => c.id === 'SMSSendToPort/http-post/error/missing-parameter')!;
    expect(missing.expect).toEqual({ kind: 'http-error', acceptStatuses: [500], message: 'Missing parameter: port.' });
  });

  it('derives everything from the descriptor: another contract gets its own cases', () => {
    const other = buildCatalogue({ descriptor: twoResultsDescriptor, inputs: { values: {} } }).map((c) => c.id);
    expect(other).toContain('Lookup/soap12/ok/xml-special');
    expect(other.some((id) => id.includes('SMSSend'))).toBe(false);
  });

  it('refuses duplicate and malformed ids', () => {
    const first = cases[0]!;
    expect(() => validateCatalogue([first, first])).toThrow(/used twice/);
    expect(() => validateCatalogue([{ ...first, id: 'no-slash' } as Case])).toThrow(/not a path/);
  });
});

describe('the over-size body', () => {
  it('is the body with a comment of padding at the start of its Body, over the limit', () => {
    const body =
      '<?xml version="1.0"?><s:Envelope xmlns:s="urn:e"><s:Body><m:Op xmlns:m="urn:m">é</m:Op></s:Body></s:Envelope>';
    const padded = Buffer.from(padToSize(body, 10_000));
    expect(padded.length).toBeGreaterThan(10_000);
    const text = padded.toString('utf8');
    const comment = /<s:Body><!--(x+)-->/.exec(text);
    expect(comment?.[1]?.length).toBe(padded.length - Buffer.byteLength(body) - '<!---->'.length);
    expect(text.replace(/<!--x+-->/, '')).toBe(body);
  });

  it("is the over-size case's body, made when first read and kept, so a listing never makes it", () => {
    const request = cases.find((c) => c.id === 'SMSSend/soap12/fault/over-size')!.request;
    const plain = cases.find((c) => c.id === 'SMSSend/soap12/ok/plain')!.request;
    const first = request.body;
    expect(first).toBeInstanceOf(Uint8Array);
    expect((first as Uint8Array).length).toBeGreaterThan(4 * 1024 * 1024);
    expect(request.body).toBe(first);
    // A copy (how the runner adds WS-Security) carries the same body.
    expect({ ...request }.body).toBe(first);
    expect(
      Buffer.from(first as Uint8Array)
        .toString('utf8')
        .replace(/<!--x+-->/, ''),
    ).toBe(plain.body);
  });
});

describe('inputs', () => {
  const params = ['keyword', 'emailAddress', 'password', 'smsto', 'carrierCode', 'smsmsg', 'port'];
  it.each([
    [{ email: 'e' }, 'emailAddress'],
    [{ to: 't' }, 'smsto'],
    [{ carrier: 'c' }, 'carrierCode'],
    [{ smsmsg: 'm' }, 'smsmsg'],
  ])('binds %j to %s', (values, param) => {
    expect([...bindInputs({ values }, params, params).keys()]).toEqual([param]);
  });
  it('refuses an input that matches no parameter, and an ambiguous one', () => {
    expect(() => bindInputs({ values: { nothing: 'x' } }, params, params)).toThrow(/matches no parameter/);
    expect(() => bindInputs({ values: { s: 'x' } }, params, params)).toThrow(/ambiguous/);
  });
  it('treats password-named inputs and declared secrets as secrets', () => {
    expect(
      secretValues({ values: { password: 'p', pin: '1234', email: 'e' }, secrets: ['pin'] }, [...params, 'pin']),
    ).toEqual(['p', '1234']);
  });
});

describe('selection', () => {
  it.each([
    ['SMSSend/soap11', 'SMSSend/soap11/ok/plain', true],
    ['*/soap1?/ok/*', 'SMSSendToPort/soap12/ok/empty', true],
    ['*/ok', 'SMSSend/soap11/ok/plain', false],
    ['**/ok/plain', 'SMSSend/http-get/ok/plain', true],
  ])('glob %s on %s: %s', (glob, id, want) => {
    expect(globToRegExp(glob).test(id)).toBe(want);
  });

  it('skips by binding, operation, glob and level, and says why', () => {
    const { run, skipped } = selectCases(cases, {
      bindings: ['soap12'],
      operations: ['SMSSend'],
      skip: ['**/over-size'],
      level: 'should',
    });
    expect(run.every((c) => c.binding === 'soap12' && c.operation === 'SMSSend' && c.level !== 'compat')).toBe(true);
    expect(run.length + skipped.length).toBe(cases.length);
    expect(skipped.find((s) => s.testCase.id === 'SMSSend/soap12/fault/over-size')!.reason).toMatch(/--skip/);
    expect(() => selectCases(cases, { operations: ['Nope'], level: 'compat' })).toThrow(/no such operation/);
  });
});

describe('documentation', () => {
  it('docs/conformance.md has a row for every check', async () => {
    const { readFileSync } = await import('node:fs');
    const { ALL_CHECKS } = await import('../../conformance/validate/checks/index.js');
    const docs = readFileSync('docs/conformance.md', 'utf8');
    // A row starts with the check's id in a code span; a Markdown formatter may pad the cell.
    const rows = new Set([...docs.matchAll(/^\| `([\w.-]+)` +\|/gm)].map((m) => m[1]));
    expect(ALL_CHECKS.map((c) => c.id).filter((id) => !rows.has(id))).toEqual([]);
  });
});
