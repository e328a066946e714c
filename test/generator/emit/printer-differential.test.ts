/**
 * Our structure printer against ts-morph's own printing of the same structures, for the
 * contract, the project's own fixture WSDLs and every corpus WSDL the parser accepts: identical
 * bytes, file by file. Without ../shared the corpus is left out (one line says so).
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generate, generateWith } from '../../../generator/generate.js';
import { parseWsdl } from '../../../contract/parse/index.js';
import { goldenInputs } from '../../fixtures/models/golden-inputs.js';
import { SHARED_FROM_ROOT } from '../../helpers/shared-dir.js';
import { requireShared } from '../../helpers/peers.js';
import { createReferenceProject, tsMorphFilePrinter } from '../../helpers/ts-morph-printer.js';

const CORPUS = `${SHARED_FROM_ROOT}/wsdl-corpus`;
const SKIP = requireShared('wsdl-corpus', 'emit-printer-differential').reason;
const REFUSED = new Set([
  'europepmc-jaxws-xsd-import.wsdl',
  'portaplusapi-servicestack-soap12.wsdl',
  'tradetracker-affiliate-rpc-encoded.wsdl',
]);
const corpus = SKIP !== undefined ? [] : readdirSync(CORPUS);
const ownFixtures = goldenInputs()
  .map((g) => g.wsdl)
  // The fixtures that are refused on purpose (their goldens are REFUSED.txt) have nothing to print.
  .filter((f) => f.startsWith('test/fixtures/') && !/\/(nothing-left|obsolete-xsd)\.wsdl$/.test(f));
const inputs = [
  'wsdl/serviceapi.wsdl',
  ...ownFixtures,
  ...corpus
    .filter((f) => f.endsWith('.wsdl') && !REFUSED.has(f))
    .sort()
    .map((f) => `${CORPUS}/${f}`),
];
const options = { toolVersion: '0.0.0-test' };

describe('printer equals ts-morph', () => {
  const project = createReferenceProject();
  it.each(inputs)('%s', (file) => {
    const model = parseWsdl(file);
    const ours = generate(model, options);
    const reference = generateWith(model, options, tsMorphFilePrinter(project)).files;
    expect([...ours.keys()]).toEqual([...reference.keys()]);
    for (const [path, text] of reference) expect({ path, text: ours.get(path) }).toEqual({ path, text });
  });
});
