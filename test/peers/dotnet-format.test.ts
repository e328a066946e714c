/**
 * The mirrors' .NET number text against what Mono's `ToString("R")` writes for the same values
 * (checked on Mono 6.8, as the ASMX peers run): the exponent form starts at 1E-05, not below it.
 */
import { describe, expect, it } from 'vitest';
import { formatRoundTrip } from './dotnet-format.js';

describe('formatRoundTrip: .NET\'s "R" text', () => {
  it.each([
    [0.0001, 'double', '0.0001'],
    [0.00001, 'double', '1E-05'],
    [0.000012345, 'double', '1.2345E-05'],
    [123456789012345680000, 'double', '1.2345678901234568E+20'],
    [0.1, 'double', '0.1'],
    [1e-5, 'float', '1E-05'],
    [0.0001, 'float', '0.0001'],
    [1.1, 'float', '1.1'],
  ] as const)('%s as %s -> %s', (value, type, want) => {
    expect(formatRoundTrip(value, type)).toBe(want);
  });
});
