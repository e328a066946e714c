/**
 * Reading committed descriptors back (for `generate --check`): what emit prints, the reader
 * returns, for the contract, the ASMX fixtures and every corpus WSDL the generator accepts; and
 * anything that is not a literal or an earlier constant is refused with its line, never run.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GeneratorError } from '../../../contract/errors.js';
import { generate, parseWsdl, toDescriptor } from '../../../generator/index.js';
import { readCommittedDescriptors } from '../../../contract/diff/committed.js';
import { DiffError } from '../../../contract/diff/errors.js';
import { SHARED_FROM_ROOT } from '../../helpers/shared-dir.js';
import { requireShared } from '../../helpers/peers.js';

const SKIP = requireShared('wsdl-corpus', 'diff committed-descriptor corpus cases').reason;
const CORPUS =
  SKIP === undefined
    ? readdirSync(`${SHARED_FROM_ROOT}/wsdl-corpus`)
        .filter((f) => f.endsWith('.wsdl'))
        .map((f) => `${SHARED_FROM_ROOT}/wsdl-corpus/${f}`)
    : [];

const INPUTS = [
  'wsdl/serviceapi.wsdl',
  'test/fixtures/asmx/echo.wsdl',
  'test/fixtures/asmx/rich.wsdl',
  'test/fixtures/diff/multi--shop-v2/new.wsdl',
  ...CORPUS,
];

describe('reading committed descriptors back', () => {
  it.each(INPUTS)('%s: the generated descriptor.ts reads back as toDescriptor built it', (wsdl) => {
    let model: ReturnType<typeof parseWsdl>;
    try {
      model = parseWsdl(wsdl);
      generate(model, { toolVersion: 'test' });
    } catch (error) {
      if (error instanceof GeneratorError) return; // refused by the generator: nothing is committed
      throw error;
    }
    const read = readCommittedDescriptors(generate(model, { toolVersion: 'test' }));
    const want = model.services.map((s) => toDescriptor(model, s.name));
    const byName = (list: readonly { name: string }[]) => [...list].sort((a, b) => (a.name < b.name ? -1 : 1));
    expect(JSON.parse(JSON.stringify(byName(read)))).toEqual(JSON.parse(JSON.stringify(byName(want))));
  });

  it.each([
    [
      'a call',
      "export const D: ServiceDescriptor = { name: 'x', bindings: run(), types: {} };",
      1,
      '"run" is not a literal or an earlier constant',
    ],
    ['a statement', 'const a = 1;\nconsole.log(a);', 2, 'unexpected "console"'],
    [
      'an unknown constant',
      'export const D = { bindings: ops, types: {} };',
      1,
      '"ops" is not a literal or an earlier constant',
    ],
    ['no descriptor', "export const D = { name: 'x' };", 1, 'no service descriptor constant in this file'],
    ['an unterminated string', "const a = 'x;\n", 1, 'a line break inside a string'],
  ])('refuses %s', (_what, text, line, message) => {
    const read = () => readCommittedDescriptors(new Map([['svc/descriptor.ts', text]]));
    expect(read).toThrow(DiffError);
    expect(read).toThrow(`svc/descriptor.ts:${line}: ${message}`);
  });
});
