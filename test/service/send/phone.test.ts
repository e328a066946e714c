import { describe, expect, it } from 'vitest';
import { SmsRefusal } from '../../../service/errors.js';
import { normalizePhone, checkCountryCode, type PhoneOptions } from '../../../service/send/phone.js';

type Case = [string, { given: string; options?: PhoneOptions; want: string | { refused: RegExp } }];

const cases: Case[] = [
  ['plus E.164', { given: '+14155550123', want: '+14155550123' }],
  ['spaces', { given: '+44 7700 900123', want: '+447700900123' }],
  ['dashes dots parens', { given: '+1 (415) 555-01.23', want: '+14155550123' }],
  ['00 international prefix', { given: '0044 7700 900123', want: '+447700900123' }],
  ['shortest: 8 digits', { given: '+49301234', want: '+49301234' }],
  ['longest: 15 digits', { given: '+123456789012345', want: '+123456789012345' }],
  ['16 digits refused', { given: '+1234567890123456', want: { refused: /8 to 15 digits/ } }],
  ['7 digits refused', { given: '+4930123', want: { refused: /8 to 15 digits/ } }],
  ['country code 0 refused', { given: '+0441234567', want: { refused: /cannot start with 0/ } }],
  ['000 prefix refused', { given: '000441234567', want: { refused: /cannot start with 0/ } }],
  ['national without default refused', { given: '4155550123', want: { refused: /no country calling code/ } }],
  [
    'national with trunk 0 without default refused',
    { given: '07700 900123', want: { refused: /no country calling code/ } },
  ],
  ['national with default 1', { given: '(415) 555-0123', options: { defaultCountryCode: '1' }, want: '+14155550123' }],
  [
    'national with default 44 drops trunk 0',
    { given: '07700 900123', options: { defaultCountryCode: '44' }, want: '+447700900123' },
  ],
  [
    'international ignores default',
    { given: '+33 6 12 34 56 78', options: { defaultCountryCode: '44' }, want: '+33612345678' },
  ],
  ['letters refused', { given: '+1 415 CALL NOW', want: { refused: /only digits/ } }],
  ['plus in the middle refused', { given: '+1415+5550123', want: { refused: /only digits/ } }],
  ['extension refused', { given: '+14155550123 x12', want: { refused: /only digits/ } }],
  ['slash refused', { given: '+1415/5550123', want: { refused: /only digits/ } }],
  ['empty after separators refused', { given: ' - ', want: { refused: /no country calling code|only digits/ } }],
  ['plus alone refused', { given: '+', want: { refused: /only digits/ } }],
  ['full-width digits refused', { given: '+１４１５５５５０１２３', want: { refused: /only digits/ } }],
  ['tab refused', { given: '+1415\t5550123', want: { refused: /only digits/ } }],
  ['over-long input refused', { given: `+1${' '.repeat(40)}4155550123`, want: { refused: /longer than 40/ } }],
];

describe('normalizePhone', () => {
  it.each(cases)('%s', (_name, { given, options, want }) => {
    if (typeof want === 'string') {
      expect(normalizePhone(given, options)).toBe(want);
      return;
    }
    let caught: unknown;
    try {
      normalizePhone(given, options);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SmsRefusal);
    expect(caught).toMatchObject({ code: 'InvalidRecipient', field: 'smsto' });
    expect((caught as Error).message).toMatch(want.refused);
  });

  it.each([['1'], ['44'], ['358']])('accepts country code %s', (code) => expect(checkCountryCode(code)).toBe(code));
  it.each([['0'], ['1234'], ['+1'], ['']])('refuses country code %j', (code) =>
    expect(() => checkCountryCode(code)).toThrow(),
  );
});
