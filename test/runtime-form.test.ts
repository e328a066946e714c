/**
 * readForm (runtime/form.ts) against URLSearchParams, which it must equal on every input:
 * name -> first value. Hand cases, then 20,000 seeded random strings over the characters that
 * matter ('&', '=', '+', '%', hex digits, '?', non-ASCII, escapes of valid and invalid UTF-8).
 */
import { describe, expect, it } from 'vitest';
import { readForm } from '../runtime/form.js';

function reference(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(text)) if (!(name in out)) out[name] = value;
  return out;
}

const ours = (text: string): Record<string, string> => Object.fromEntries(readForm(text));

function seeded(start: number): (n: number) => number {
  let seed = start >>> 0;
  return (n) => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
}

describe('readForm reads forms exactly as URLSearchParams', () => {
  it.each([
    '', 'a=1', 'a=1&b=2', 'a=1&a=2', 'a', 'a=', '=x', '&&a=1&&', 'a=1=2', 'a+b=c+d', 'a=%20%2B%25', 'smsmsg=Gr%C3%BC%C3%9Fe+%F0%9F%93%B1',
    '?a=1', '??a=1', 'a=%zz', 'a=%', 'a=%C3%28', 'a=%ED%A0%80', 'a=é&b=%C3%A9', 'a=Ã%A9', '%EF%BB%BFa=1', 'a=%2', 'A=1&a=2',
  ])('%j', (text) => {
    expect(ours(text)).toEqual(reference(text));
  });

  it('20,000 random strings', () => {
    const random = seeded(0xf0f0);
    const pieces = ['a', 'b', 'keyword', 'smsto', '=', '&', '+', '%', '%2', '%20', '%25', '%3D', '%26', '%C3', '%A9', '%C3%A9', '%F0%9F%93%B1', '%ED%A0%80', '%zz', '?', 'é', '📱', ' ', '1', 'F'];
    for (let n = 0; n < 20_000; n++) {
      let text = '';
      const length = random(12);
      for (let i = 0; i < length; i++) text += pieces[random(pieces.length)]!;
      expect(ours(text), JSON.stringify(text)).toEqual(reference(text));
    }
  });
});
