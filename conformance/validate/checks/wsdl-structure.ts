/**
 * `wsdl.structure`: the server's `?wsdl` describes the contract the run uses: the same
 * bindings, operations, soapActions, HTTP paths, message elements and field order. Both sides
 * are read by the contract layer's parser and summarised the same way (wsdl-summary.ts); the
 * served one with the documents it imports, fetched by the runner (run/served-imports.ts).
 */
import { contentTypeOf } from '../response-view.js';
import { compareSummaries, summarizeDescriptor } from '../wsdl-summary.js';
import { descriptorFromWsdlText } from '../../../contract/descriptor/from-text.js';
import type { Mismatch } from '../../types.js';
import { defineCheck, isXmlMediaType, mismatch } from './support.js';

function describeFailure(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export const wsdlStructureCheck = defineCheck({
  id: 'wsdl.structure',
  level: 'should',
  source: 'WS-I BP R2001-R2028 (the description matches the service); ASMX (?wsdl)',
  title: "The server's ?wsdl is structurally equal to the contract",
  applies: (testCase) => testCase.expect.kind === 'wsdl',
  run(exchange, testCase) {
    if (testCase.expect.kind !== 'wsdl') return [];
    const { status, headers, body } = exchange.response;
    if (status !== 200)
      return [mismatch('200 with the WSDL', String(status), 'the server does not serve its WSDL at ?wsdl')];
    const found: Mismatch[] = [];
    const media = contentTypeOf(headers);
    if (!isXmlMediaType(media.type))
      found.push(mismatch('text/xml', media.raw || '(no Content-Type)', 'the WSDL must be served as XML'));
    let served: string[];
    try {
      served = summarizeDescriptor(descriptorFromWsdlText(body, exchange.request.url, exchange.imports));
    } catch (error) {
      return [
        ...found,
        mismatch(
          'a readable WSDL',
          describeFailure(error),
          `the served WSDL cannot be read: ${describeFailure(error)}`,
        ),
      ];
    }
    for (const d of compareSummaries(testCase.expect.contract, served)) {
      found.push(mismatch(d.expected, d.actual, `the served WSDL differs from the contract at ${d.key}`));
    }
    return found;
  },
});
