/**
 * Golden tests: wsdl/serviceapi.wsdl and every corpus WSDL, generated and compared with the
 * committed output under test/golden/generated/<stem>/. A WSDL the generator refuses has a
 * REFUSED.txt golden holding the error code and message instead.
 * Update on purpose only: `UPDATE_GOLDEN=1 npx vitest run test/generator/generate-golden`.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { GeneratorError } from '../../contract/errors.js';
import { generate, parseWsdl } from '../../generator/index.js';
import {
  goldenInputs,
  goldenRoot,
  readTree,
  REFUSED_FILE,
  repoRoot,
  writeTree,
} from '../fixtures/models/golden-inputs.js';
import { requireShared } from '../helpers/peers.js';

const UPDATE = process.env.UPDATE_GOLDEN === '1';
const TOOL_VERSION = '0.0.0-golden';
requireShared('wsdl-corpus', 'generate-golden (corpus inputs)').reason;

beforeAll(() => {
  process.chdir(repoRoot); // relative WSDL paths resolve, and headers stay machine-independent
});

/** Generated files, or the refusal as the single file REFUSED.txt. */
function outputFor(wsdl: string): Map<string, string> {
  try {
    return generate(parseWsdl(wsdl), { toolVersion: TOOL_VERSION });
  } catch (error) {
    if (!(error instanceof GeneratorError)) throw error;
    return new Map([[REFUSED_FILE, `${error.code}\n${error.message}\n`]]);
  }
}

describe('golden output', () => {
  it.each(goldenInputs())('$stem', ({ wsdl, stem }) => {
    const dir = join(goldenRoot, stem);
    const actual = outputFor(wsdl);
    if (UPDATE) writeTree(dir, actual);
    const golden = readTree(dir);
    expect([...actual.keys()].sort()).toEqual([...golden.keys()]);
    for (const [path, text] of actual) expect(text, `${stem}/${path}`).toBe(golden.get(path));
  });
});
