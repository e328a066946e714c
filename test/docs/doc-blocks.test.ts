/** The doc-run markers: read strictly, so a typo never turns an example off silently. */
import { describe, expect, it } from 'vitest';
import { docBlocks, MarkerError, outputMatches, parseMarker } from './doc-blocks.js';

const fence = '```';

describe('doc-run markers', () => {
  it('reads words and quoted values', () => {
    expect(parseMarker(' file=src/app.ts run stdout="9 and more" port=8080 env=A:b:c ', 'x')).toEqual({
      run: true,
      exit: 0,
      background: false,
      env: { A: 'b:c' },
      unit: false,
      file: 'src/app.ts',
      stdout: '9 and more',
      port: 8080,
    });
    expect(parseMarker('unit port=8080', 'x')).toMatchObject({ unit: true, port: 8080 });
  });

  it.each([
    ['an unknown word', 'skipp=clone', 'x: unknown doc-run word "skipp"'],
    ['a skip without a known reason', 'skip=flaky', 'x: skip=flaky is not a reason an example may skip'],
    ['a skip without a reason', 'skip', 'x: skip needs a value'],
    ['a port that is not a number', 'port=eighty', 'x: port=eighty is not a number'],
    ['text that is not a word', 'run "', 'cannot read'],
  ])('refuses %s', (_name, text, message) => {
    expect(() => parseMarker(text, 'x')).toThrow(message);
  });

  it('pairs a marker with the fence right after it, and leaves other blocks unmarked', () => {
    const doc = [
      '<!-- doc-run: skip=clone -->',
      `${fence}sh`,
      'npm test',
      fence,
      '',
      `${fence}ts`,
      'const a = 1;',
      fence,
    ].join('\n');
    const blocks = docBlocks('d.md', doc);
    expect(blocks.map((b) => [b.line, b.lang, b.marked, b.marker.skip, b.code])).toEqual([
      [2, 'sh', true, 'clone', 'npm test'],
      [6, 'ts', false, undefined, 'const a = 1;'],
    ]);
  });

  it('refuses a marker that is not followed by a fence', () => {
    expect(() => docBlocks('d.md', '<!-- doc-run: run -->\nsome text\n')).toThrow(MarkerError);
    expect(() => docBlocks('d.md', 'text\n<!-- doc-run: run -->\n')).toThrow(
      'd.md:2: a doc-run marker must be followed by a fenced block',
    );
  });

  it('matches expected output lines in order, … standing for anything', () => {
    expect(outputMatches('a\nb\nc\n', 'a\n…\nc')).toBe(true);
    expect(outputMatches('a\nb\nc\n', 'c\na')).toBe(false);
    expect(outputMatches('sent 9 items', '9')).toBe(true);
    expect(outputMatches('sent 8 items', '9')).toBe(false);
  });
});
