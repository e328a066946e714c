/**
 * The largest corpus WSDL against itself with one change: the diff finds that one change, and
 * every corpus WSDL diffed against itself finds none. The time bound is a generous sanity check
 * (a runaway comparison), not a performance claim: the CLI figure is in docs/diff.md.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GeneratorError } from '../../../contract/errors.js';
import { parseWsdl } from '../../../generator/index.js';
import { diffSides } from '../../../contract/diff/compare.js';
import { sideFromModel } from '../../../contract/diff/source.js';
import { SHARED_FROM_ROOT } from '../../helpers/shared-dir.js';
import { requireShared } from '../../helpers/peers.js';

const SKIP = requireShared('wsdl-corpus', 'diff corpus').reason;
const CORPUS = `${SHARED_FROM_ROOT}/wsdl-corpus`;
const LARGEST = `${CORPUS}/properties-multischema-asmx.wsdl`;

describe.skipIf(SKIP !== undefined)('diff on the real-world corpus', () => {
  it('finds the one change made to the largest corpus WSDL', () => {
    const text = readFileSync(LARGEST, 'utf8');
    const first = 'minOccurs="0" maxOccurs="1" name="User_ID"';
    expect(text).toContain(first);
    const changed = text.replace(first, 'minOccurs="1" maxOccurs="1" name="User_ID"');
    const started = performance.now();
    const old = sideFromModel(LARGEST, parseWsdl(LARGEST));
    const now = sideFromModel(
      'changed.wsdl',
      parseWsdl('changed.wsdl', {
        readFile: (abs) => (abs === path.resolve('changed.wsdl') ? changed : readFileSync(abs)),
      }),
    );
    const report = diffSides(old, now);
    const elapsed = performance.now() - started;
    expect(report.changes.map((c) => [c.rule, c.subject, c.breaksClients, c.breaksServers])).toEqual([
      ['occurs-changed', 'element ReturnProperties › User_ID', ['soap11', 'soap12'], []],
    ]);
    expect(elapsed).toBeLessThan(10_000);
  });

  it('finds nothing between two reads of the same WSDL', () => {
    for (const file of readdirSync(CORPUS).filter((f) => f.endsWith('.wsdl'))) {
      let model: ReturnType<typeof parseWsdl>;
      try {
        model = parseWsdl(`${CORPUS}/${file}`);
        expect(
          diffSides(sideFromModel(file, model), sideFromModel(file, parseWsdl(`${CORPUS}/${file}`))).changes,
          file,
        ).toEqual([]);
      } catch (error) {
        if (!(error instanceof GeneratorError)) throw error; // the generator refuses it: nothing to diff
      }
    }
  });
});
