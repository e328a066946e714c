/**
 * The id forms a receipt is matched under (service/delivery/smpp/receipt-ids.ts), as a table:
 * the configured translation first, the id as written next, the other translation last; hex in
 * both cases and the widths SMSCs pad to; nothing for ids that are not numbers. The values are
 * worked out by hand (0xA1B2C3D4 = 2712847316), not by the code under test.
 */
import { describe, expect, it } from 'vitest';
import { receiptIdForms } from '../../../../service/delivery/smpp/receipt-ids.js';

describe('receipt id forms', () => {
  it.each([
    [
      'decimal receipt, hex answers',
      '2712847316',
      'hex-to-decimal',
      'a1b2c3d4',
      ['a1b2c3d4', 'A1B2C3D4', '2712847316'],
    ],
    ['hex receipt, decimal answers', 'a1b2c3d4', 'decimal-to-hex', '2712847316', ['2712847316', 'a1b2c3d4']],
    ['as-is, decimal id', '2712847316', 'as-is', '2712847316', ['2712847316', 'a1b2c3d4', 'A1B2C3D4']],
    ['as-is, hex id', 'A1B2C3D4', 'as-is', 'A1B2C3D4', ['A1B2C3D4', '2712847316']],
    ['as-is, a name', 'perl-000001', 'as-is', 'perl-000001', ['perl-000001']],
    [
      'padding: 255 as hex',
      '255',
      'hex-to-decimal',
      'ff',
      ['ff', '000000ff', '00000000000000ff', 'FF', '000000FF', '255'],
    ],
  ] as const)('%s', (_, id, format, first, contains) => {
    const forms = receiptIdForms(id, format);
    expect(forms.peerId).toBe(first);
    const all = [forms.peerId, ...forms.alsoTry];
    for (const form of contains) expect(all).toContain(form);
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBeLessThanOrEqual(12);
    // The translated forms come before the other base's.
    if (format === 'hex-to-decimal') expect(all.indexOf(id)).toBeGreaterThan(all.indexOf(first));
  });

  it('leaves a name that is not a number as it is', () => {
    expect(receiptIdForms('perl-000001', 'hex-to-decimal')).toEqual({ peerId: 'perl-000001', alsoTry: [] });
  });
});
