/**
 * Golden models: the contract WSDL and every real-world WSDL in ../shared/wsdl-corpus parse to
 * the committed model JSON (UPDATE_GOLDEN=1 rewrites them), or are refused with a known code
 * and message. Paths are passed relative to the repository root so the goldens are the same on
 * every machine. Without ../shared only the contract WSDL is checked (one line says so).
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { GeneratorError } from '../../../contract/errors.js';
import { parseWsdl } from '../../../contract/parse/index.js';
import { toDescriptor } from '../../../contract/descriptor/index.js';
import { SHARED_FROM_ROOT, sharedDir } from '../../helpers/shared-dir.js';
import { requireShared } from '../../helpers/peers.js';
import { repoRoot } from '../../fixtures/models/golden-inputs.js';

const CORPUS = `${SHARED_FROM_ROOT}/wsdl-corpus`;
const corpusDir = path.join(sharedDir, 'wsdl-corpus');
const SKIP = requireShared('wsdl-corpus', 'parse-corpus').reason;
const goldenDir = path.join(repoRoot, 'test/golden/models');
const update = process.env.UPDATE_GOLDEN === '1';

beforeAll(() => {
  // parseWsdl resolves relative paths against the working directory; goldens store them as given.
  process.chdir(repoRoot);
});

/** The corpus files that are refused, and why. Every other corpus file must parse. */
const REFUSED: Record<string, { code: string; message: string }> = {
  'europepmc-jaxws-xsd-import.wsdl': {
    code: 'WSDL_IMPORT_UNRESOLVED',
    message:
      '../shared/wsdl-corpus/europepmc-jaxws-xsd-import.wsdl:12: <xsd:import> location "url/europepmc/webservices/soap?xsd=1" cannot be read from ../shared/wsdl-corpus/url/europepmc/webservices/soap?xsd=1 (ENOENT)',
  },
  'portaplusapi-servicestack-soap12.wsdl': {
    code: 'WSDL_UNRESOLVED_REFERENCE',
    message:
      '../shared/wsdl-corpus/portaplusapi-servicestack-soap12.wsdl:67: <wsdl:part element="tns:AuthenticateAccount">: element {http://schemas.servicestack.net/types}AuthenticateAccount is not defined (no schema for namespace "http://schemas.servicestack.net/types" was read)',
  },
  'tradetracker-affiliate-rpc-encoded.wsdl': {
    code: 'UNSUPPORTED_CONSTRUCT',
    message:
      '../shared/wsdl-corpus/tradetracker-affiliate-rpc-encoded.wsdl:1026: no operation can be generated: operation authenticate is left out of binding AffiliateBinding (soap11): use="encoded" (rpc/encoded, operation authenticate of binding AffiliateBinding) is not supported; only literal messages can be modelled faithfully; no other binding carries it, so the generated code has no method for it',
  },
};

const corpusFiles =
  SKIP !== undefined
    ? []
    : readdirSync(corpusDir)
        .filter((f) => f.endsWith('.wsdl'))
        .sort();
const parsed = corpusFiles.filter((f) => !(f in REFUSED));

function checkGolden(relativeFile: string, goldenName: string): void {
  const model = parseWsdl(relativeFile);
  const text = `${JSON.stringify(model, null, 2)}\n`;
  const golden = path.join(goldenDir, `${goldenName}.json`);
  if (update || !existsSync(golden)) {
    if (!update) throw new Error(`missing golden ${golden}: run with UPDATE_GOLDEN=1 and review the result`);
    mkdirSync(goldenDir, { recursive: true });
    writeFileSync(golden, text);
    return;
  }
  expect(text).toBe(readFileSync(golden, 'utf8'));
}

describe('parse: golden models', () => {
  it.skipIf(SKIP !== undefined)('the corpus is where the tests expect it', () => {
    expect(corpusFiles.length).toBe(19);
  });

  it('wsdl/serviceapi.wsdl', () => checkGolden('wsdl/serviceapi.wsdl', 'serviceapi'));

  it.each(parsed)('%s', (file) => checkGolden(`${CORPUS}/${file}`, file.replace(/\.wsdl$/, '')));
});

describe.skipIf(SKIP !== undefined)('parse: refused corpus files', () => {
  it.each(Object.entries(REFUSED))('%s', (file, want) => {
    let caught: unknown;
    try {
      // A definition that cannot be read is left out by the parser and refused when needed (parse + plan).
      toDescriptor(parseWsdl(`${CORPUS}/${file}`));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(GeneratorError);
    expect({ code: (caught as GeneratorError).code, message: (caught as GeneratorError).message }).toEqual(want);
  });
});
