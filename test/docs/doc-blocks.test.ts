/** The doc-run markers, read strictly so a typo never turns an example off silently; the examples' npx shortcut. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docBlocks, MarkerError, outputMatches, parseMarker } from './doc-blocks.js';
import { needsNpmNpx, shortcutPath } from './npx-shortcut.js';

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

describe('the npx shortcut of the examples', () => {
  it('runs the installed smskit directly, with its arguments as given, and hands anything else to npm’s npx', () => {
    const work = mkdtempSync(join(tmpdir(), 'smskit-npx-shortcut-'));
    try {
      mkdirSync(join(work, 'node_modules', '.bin'), { recursive: true });
      writeFileSync(join(work, 'node_modules', '.bin', 'smskit'), '#!/bin/sh\necho "smskit pid $$: $*"\n', {
        mode: 0o755,
      });
      const env = { ...process.env, PATH: shortcutPath(work) };
      const run = (code: string) => execFileSync('bash', ['-c', code], { cwd: work, env, encoding: 'utf8' });
      // exec: the shell's `$!`/`$$` is smskit's own process, no wrapper in front.
      expect(run(`npx smskit outbox --id 'a b' & wait; echo "job $!"`)).toMatch(
        /^smskit pid (\d+): outbox --id a b\njob \1\n$/,
      );
      expect(run('npx --version')).toMatch(/^\d+\.\d+\.\d+\n$/);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it.each([
    ['a background job', 'npx smskit smsc > smsc.out &', true],
    ['a background job before a comment', 'npx smskit serve &   # the server', true],
    ['and', 'npx smskit outbox && echo done', false],
    ['a redirection', 'npx smskit outbox 2>&1 | head', false],
    ['a background job on a later line', 'echo a\nnpx smskit serve &\necho b', true],
  ])('meets npm’s npx where users would: %s', (_name, code, npm) => {
    expect(needsNpmNpx(code, false)).toBe(npm);
    expect(needsNpmNpx(code, true)).toBe(true);
  });
});
