/**
 * A one-way operation (no wsdl:output) in generated code: the descriptor marks it `oneWay`, the
 * client's method resolves to void, and the JSDoc of both sides says what its 202 means; an
 * operation with an output has neither. A wsdl:fault it declares anyway is left untyped.
 */
import { beforeAll, expect, it } from 'vitest';
import { generate, parseWsdl } from '../../generator/index.js';
import { repoRoot } from '../fixtures/models/golden-inputs.js';

beforeAll(() => {
  process.chdir(repoRoot);
});

it('marks a one-way operation in the descriptor and says what its answer means', () => {
  const files = generate(parseWsdl('test/fixtures/runtime/one-way.wsdl'), { toolVersion: '0.0.0-test' });
  const file = (suffix: string) => [...files].find(([name]) => name.endsWith(suffix))![1];
  // Log only; its SOAP 1.1 and 1.2 bindings share one operation constant.
  expect(file('descriptor.ts').match(/oneWay: true/g)).toHaveLength(1);
  const client = file('client.ts');
  expect(client).toContain('Log(input: Log, options?: CallOptions): Promise<void>');
  for (const side of [client, file('server.ts')]) {
    const logDoc = side.slice(side.indexOf('Operation `Log`'), side.indexOf('Operation `Echo`'));
    const echoDoc = side.slice(side.indexOf('Operation `Echo`'));
    expect(logDoc).toContain('One-way (no output message): over SOAP the service answers 202 (or 200) with no body.');
    expect(echoDoc).not.toContain('One-way');
    // Its wsdl:fault (which WSDL 1.1 §2.4.1 gives a one-way operation none of) is not typed.
    expect(logDoc).toContain('- `LogRefused`: a one-way operation answers no fault (WSDL 1.1 §2.4.1)');
  }
  expect(file('descriptor.ts')).not.toContain('faults:');
});
