/**
 * The generated client's options are typed by its WSDL: `binding` accepts only the protocols the
 * service has a binding for, and `url` may be left out only where the WSDL gives the port an
 * http(s) address (which the runtime then uses). Checked by compiling user code against the
 * generated files under the repo's strict options, with `@ts-expect-error` on what must not
 * compile (an unused directive is itself an error, so each expectation can fail).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, parseWsdl } from '../../generator/index.js';
import { repoRoot } from '../fixtures/models/golden-inputs.js';
import { compileBeside } from '../helpers/compile-beside.js';

const CONTRACT = readFileSync(join(repoRoot, 'wsdl/serviceapi.wsdl'), 'utf8');
let work: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'smskit-client-options-'));
});
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

/** The contract without its HTTP GET binding and port, and with no address on the SOAP 1.2 port. */
function narrowedContract(): string {
  const withoutGet = CONTRACT.replace(/<wsdl:binding name="ServiceAPIHttpGet"[\s\S]*?<\/wsdl:binding>/, '').replace(
    /<wsdl:port name="ServiceAPIHttpGet"[\s\S]*?<\/wsdl:port>/,
    '',
  );
  const text = withoutGet.replace(
    /(<wsdl:port name="ServiceAPISoap12"[^>]*>\s*)<soap12:address location="[^"]*"\s*\/>/,
    '$1',
  );
  expect(text).not.toMatch(/<wsdl:binding name="ServiceAPIHttpGet"|<wsdl:port name="ServiceAPIHttpGet"/);
  expect(text).toMatch(/<wsdl:port name="ServiceAPISoap12"[^>]*>\s*<\/wsdl:port>/);
  return text;
}

function generated(wsdlText: string): Map<string, string> {
  const file = join(work, `contract-${Math.random().toString(36).slice(2)}.wsdl`);
  writeFileSync(file, wsdlText);
  return generate(parseWsdl(file), { toolVersion: '0.0.0-test' });
}

describe('generated client options', () => {
  it('names the bindings and the default addresses in the options type', () => {
    const client = generated(CONTRACT).get('service-api/client.ts')!;
    expect(client).toContain(
      "export type ServiceAPIClientOptions = ClientOptions<'soap11' | 'soap12' | 'http-get' | 'http-post'>;",
    );
    expect(client).toContain('constructor(options: ServiceAPIClientOptions)');
    const narrowed = generated(narrowedContract()).get('service-api/client.ts')!;
    expect(narrowed).toContain(
      "export type ServiceAPIClientOptions = ClientOptions<'soap11' | 'http-post'> | (ClientOptions<'soap12'> & { url: string });",
    );
  });

  it('allows only the bindings of the WSDL, and leaving out url only where the WSDL has an address', () => {
    const user = `import { ServiceAPIClient } from './gen/service-api/index.js';
new ServiceAPIClient({ binding: 'soap11' });
new ServiceAPIClient({ binding: 'http-post', timeoutMs: 5 });
new ServiceAPIClient({ binding: 'soap12', url: 'http://127.0.0.1:1/serviceapi.asmx' });
// @ts-expect-error the WSDL has no HTTP GET binding
new ServiceAPIClient({ binding: 'http-get', url: 'http://127.0.0.1:1/serviceapi.asmx' });
// @ts-expect-error the WSDL gives the SOAP 1.2 port no address
new ServiceAPIClient({ binding: 'soap12' });
// @ts-expect-error not a binding at all
new ServiceAPIClient({ binding: 'soap13' });
`;
    expect(compileBeside(generated(narrowedContract()), user, 'test/golden/.client-options')).toEqual([]);
  });

  it('a @ts-expect-error that nothing violates is reported (the check above can fail)', () => {
    const user = `import { ServiceAPIClient } from './gen/service-api/index.js';
// @ts-expect-error the full contract has HTTP GET
new ServiceAPIClient({ binding: 'http-get' });
`;
    expect(compileBeside(generated(CONTRACT), user, 'test/golden/.client-options')).toEqual([
      "2: Unused '@ts-expect-error' directive.",
    ]);
  });
});
