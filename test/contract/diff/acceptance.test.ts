/** Which value a receiver of one type reads from a sender of another (the smskit codecs' value spaces). */
import { describe, expect, it } from 'vitest';
import { paramAcceptance, valueAcceptance, type ValueSummary } from '../../../contract/diff/acceptance.js';
import type { PrimitiveName } from '../../../runtime/primitives.js';

const p = (xsd: PrimitiveName, enumeration?: string[]): ValueSummary =>
  enumeration === undefined ? { kind: 'primitive', xsd } : { kind: 'primitive', xsd, enumeration };

describe('value acceptance', () => {
  it.each([
    // [old, new, a NEW receiver reads every OLD value, an OLD receiver reads every NEW value]
    ['int -> long widens', p('int'), p('long'), true, false],
    ['short -> int widens', p('short'), p('int'), true, false],
    ['int -> unsignedInt neither', p('int'), p('unsignedInt'), false, false],
    ['unsignedShort -> int widens', p('unsignedShort'), p('int'), true, false],
    ['int -> decimal widens', p('int'), p('decimal'), true, false],
    ['int -> double widens', p('int'), p('double'), true, false],
    ['long -> double loses precision', p('long'), p('double'), false, false],
    ['float -> double (one JS number)', p('float'), p('double'), true, true],
    ['decimal -> double loses digits', p('decimal'), p('double'), false, false],
    ['anything -> string widens', p('boolean'), p('string'), true, false],
    [
      'dateTime -> string (any text reads as a string, not every string as a dateTime)',
      p('dateTime'),
      p('string'),
      true,
      false,
    ],
    ['date -> dateTime (a bare date reads as midnight)', p('date'), p('dateTime'), true, false],
    ['guid -> string', p('guid'), p('string'), true, false],
    ['boolean -> int', p('boolean'), p('int'), false, false],
    ['base64 -> hex', p('base64Binary'), p('hexBinary'), false, false],
    ['enum gains a value', p('string', ['A']), p('string', ['A', 'B']), true, false],
    ['enum facet added', p('string'), p('string', ['A']), false, true],
    ['string -> complex', p('string'), { kind: 'complex', key: '{x}T' }, false, false],
    [
      'complex -> anyType',
      { kind: 'complex', key: '{x}T' } as ValueSummary,
      { kind: 'xml' } as ValueSummary,
      true,
      false,
    ],
  ] as const)('%s', (_name, old, now, forward, backward) => {
    const a = valueAcceptance(old, now);
    expect([a.forward, a.backward]).toEqual([forward, backward]);
  });

  it('names what .NET parses and smskit does not', () => {
    expect(valueAcceptance(p('string'), p('QName')).asmx).toContain('genuine ASMX refuses text that is not one');
    expect(valueAcceptance(p('string'), p('dateTime')).asmx).toBe('');
    expect(valueAcceptance(p('int'), p('long')).asmx).toBe('');
  });

  it('reads a repeated HTTP parameter only where the receiver repeats it too', () => {
    const one = { xsd: 'string' as const, repeated: false };
    const many = { xsd: 'string' as const, repeated: true };
    expect(paramAcceptance(one, many)).toMatchObject({ forward: true, backward: false });
    expect(paramAcceptance(many, one)).toMatchObject({ forward: false, backward: true });
    expect(paramAcceptance(one, undefined)).toBeUndefined();
  });
});
