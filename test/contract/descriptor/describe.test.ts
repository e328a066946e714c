/**
 * `smskit inspect`'s description of declared faults: each with its detail, and why a fault's
 * detail is not typed when it is not (the plan's reason on SOAP; HTTP carries no detail).
 */
import { expect, it } from 'vitest';
import { describeContract, formatDescription } from '../../../contract/descriptor/describe.js';
import { parseWsdl } from '../../../contract/parse/index.js';

it('says which declared faults are typed and why the others are not', () => {
  const description = describeContract(parseWsdl('test/fixtures/runtime/declared-faults.wsdl'));
  const faultsOf = (port: string) => description.services[0]!.ports.find((p) => p.port === port)!.operations[0]!.faults;
  const untypedByType = 'its part fault names a type, not an element (WS-I BP R2205)';
  expect(faultsOf('OrdersSoap')).toEqual([
    { name: 'OrderRefused', detail: 'OrderRefused' },
    { name: 'Legacy', detail: 'LegacyFault', untyped: untypedByType },
  ]);
  expect(formatDescription(description)).toContain(
    `faults: OrderRefused, Legacy (LegacyFault) [untyped: ${untypedByType}]`,
  );
  // The one-way fixture's fault: WSDL 1.1 gives a one-way operation none.
  const oneWay = describeContract(parseWsdl('test/fixtures/runtime/one-way.wsdl'));
  const log = oneWay.services[0]!.ports[0]!.operations.find((o) => o.name === 'Log')!;
  expect(log.faults).toEqual([
    { name: 'LogRefused', detail: 'LogRefused', untyped: 'a one-way operation answers no fault (WSDL 1.1 §2.4.1)' },
  ]);
});
