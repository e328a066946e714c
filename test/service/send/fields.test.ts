import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createCarrierTable,
  DEFAULT_CARRIERS,
  loadCarrierTable,
  resolveCarrier,
} from '../../../service/delivery/carriers.js';
import { SmsRefusal } from '../../../service/errors.js';
import { canonicalKeyword, checkKeyword } from '../../../service/accounts/keyword.js';
import { parsePort } from '../../../service/send/port.js';

function refusalOf(run: () => unknown): { code: string; field: string | undefined } | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof SmsRefusal) return { code: error.code, field: error.field };
    throw error;
  }
  return undefined;
}

describe('carriers', () => {
  const table = createCarrierTable();
  const cases: Array<[string, { given: string; want: string | null }]> = [
    ['known code', { given: 'att', want: 'att' }],
    ['case-insensitive', { given: 'VeRiZoN', want: 'verizon' }],
    ['code with a dash', { given: 'Vodafone-UK', want: 'vodafone-uk' }],
    ['auto', { given: 'AUTO', want: 'auto' }],
    ['unknown', { given: 'sprint', want: null }],
    ['empty', { given: '', want: null }],
    ['surrounding space is not trimmed', { given: ' att', want: null }],
    ['Kelvin sign does not fold to k', { given: 'tmobil\u212A', want: null }],
    ['over 32 chars', { given: 'a'.repeat(33), want: null }],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    if (want === null)
      expect(refusalOf(() => resolveCarrier(table, given))).toEqual({ code: 'UnknownCarrier', field: 'carrierCode' });
    else expect(resolveCarrier(table, given)).toBe(want);
  });

  it('default table has names for every code', () => {
    expect(table.carriers.size).toBe(Object.keys(DEFAULT_CARRIERS).length);
    expect(table.carriers.get('att')).toBe('AT&T');
  });

  it('auto can be disabled', () => {
    expect(refusalOf(() => resolveCarrier(createCarrierTable({ att: 'AT&T' }, false), 'auto'))).toEqual({
      code: 'UnknownCarrier',
      field: 'carrierCode',
    });
  });

  const badTables: Array<[string, { given: Record<string, string>; want: RegExp }]> = [
    ['bad code characters', { given: { 'a b': 'X' }, want: /must be 1-32/ }],
    ['auto reserved', { given: { auto: 'X' }, want: /reserved/ }],
    ['duplicate by case', { given: { att: 'A', ATT: 'B' }, want: /twice/ }],
    ['empty name', { given: { att: ' ' }, want: /non-empty name/ }],
  ];
  it.each(badTables)('table refuses %s', (_name, { given, want }) =>
    expect(() => createCarrierTable(given)).toThrow(want),
  );

  const dir = mkdtempSync(join(tmpdir(), 'smskit-carriers-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const files: Array<[string, { given: string; want: RegExp | { codes: string[]; allowAuto: boolean } }]> = [
    [
      'valid file',
      {
        given: '{"allowAuto": false, "carriers": {"KDDI": "au by KDDI", "docomo": "NTT docomo"}}',
        want: { codes: ['kddi', 'docomo'], allowAuto: false },
      },
    ],
    [
      'allowAuto defaults to true',
      { given: '{"carriers": {"docomo": "NTT docomo"}}', want: { codes: ['docomo'], allowAuto: true } },
    ],
    ['unknown key', { given: '{"carriers": {}, "extra": 1}', want: /unknown key/ }],
    ['carriers not an object', { given: '{"carriers": ["att"]}', want: /must be an object/ }],
    ['name not a string', { given: '{"carriers": {"att": 1}}', want: /must be a string/ }],
    ['not JSON', { given: 'carriers: att', want: /JSON/ }],
  ];
  it.each(files)('load: %s', (name, { given, want }) => {
    const path = join(dir, `${name.replace(/\W/g, '_')}.json`);
    writeFileSync(path, given);
    if (want instanceof RegExp) {
      expect(() => loadCarrierTable(path)).toThrow(want);
      return;
    }
    const loaded = loadCarrierTable(path);
    expect([...loaded.carriers.keys()]).toEqual(want.codes);
    expect(loaded.allowAuto).toBe(want.allowAuto);
  });
});

describe('port', () => {
  const cases: Array<[string, { given: string; want: number | null }]> = [
    ['zero', { given: '0', want: 0 }],
    ['WAP push', { given: '2948', want: 2948 }],
    ['max', { given: '65535', want: 65535 }],
    ['over max', { given: '65536', want: null }],
    ['six digits', { given: '100000', want: null }],
    ['leading zero', { given: '080', want: null }],
    ['double zero', { given: '00', want: null }],
    ['plus sign', { given: '+80', want: null }],
    ['minus', { given: '-1', want: null }],
    ['leading space', { given: ' 80', want: null }],
    ['trailing space', { given: '80 ', want: null }],
    ['hex', { given: '0x50', want: null }],
    ['decimal point', { given: '80.0', want: null }],
    ['exponent', { given: '8e1', want: null }],
    ['Arabic-Indic digits', { given: '٨٠', want: null }],
    ['empty', { given: '', want: null }],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    if (want === null) expect(refusalOf(() => parsePort(given))).toEqual({ code: 'InvalidPort', field: 'port' });
    else expect(parsePort(given)).toBe(want);
  });
});

describe('keyword', () => {
  const registered = ['ACME', 'PROMO2024'];
  const cases: Array<[string, { given: string; want: string }]> = [
    ['registered', { given: 'ACME', want: 'ACME' }],
    ['case-insensitive', { given: 'acMe', want: 'ACME' }],
    ['digits', { given: 'promo2024', want: 'PROMO2024' }],
    ['well-formed but not registered', { given: 'OTHER', want: 'KeywordNotAllowed' }],
    ['11 chars not registered', { given: 'ABCDEFGHIJK', want: 'KeywordNotAllowed' }],
    ['12 chars', { given: 'ABCDEFGHIJKL', want: 'InvalidKeyword' }],
    ['space', { given: 'AC ME', want: 'InvalidKeyword' }],
    ['dash', { given: 'AC-ME', want: 'InvalidKeyword' }],
    ['non-ASCII letter', { given: 'ACMÉ', want: 'InvalidKeyword' }],
    ['empty', { given: '', want: 'InvalidKeyword' }],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    if (want.endsWith('Keyword') || want === 'KeywordNotAllowed') {
      expect(refusalOf(() => checkKeyword(given, registered))).toEqual({ code: want, field: 'keyword' });
    } else {
      expect(checkKeyword(given, registered)).toBe(want);
    }
  });
  it('canonical form is upper case', () => expect(canonicalKeyword('abc1')).toBe('ABC1'));
});
