/**
 * `http.header-unsendable` (SHOULD): an operation that declares a SOAP header on its SOAP
 * bindings and is also offered over HTTP GET/POST, where no header can travel. A service that
 * needs the header (ASMX: the implementation reads it and throws) refuses every HTTP call, with
 * a 500 text/plain exception: that is the service behaving correctly for a contract that offers
 * what cannot work, so it is one finding naming the cause, not failures of the success checks.
 */
import type { Exchange } from '../../types.js';
import { answerKind, defineCheck, mismatch } from './support.js';

export const headerUnsendableCheck = defineCheck({
  id: 'http.header-unsendable',
  level: 'should',
  source: 'WSDL 1.1 §4 (HTTP GET/POST bindings carry no SOAP headers); ASMX (SoapHeader members are null over HTTP)',
  title: 'An operation that needs a SOAP header is not offered over HTTP GET/POST',
  applies: (testCase) => testCase.expect.kind === 'success' && (testCase.expect.soapHeadersOnly?.length ?? 0) > 0,
  run(exchange: Exchange, testCase) {
    if (testCase.expect.kind !== 'success' || answerKind(exchange, testCase) !== 'refusal') return [];
    const headers = testCase.expect.soapHeadersOnly ?? [];
    return [
      mismatch(
        'an answer, or the operation left out of the HTTP binding',
        `HTTP ${exchange.response.status} (refused)`,
        `${testCase.operation} cannot succeed over ${testCase.binding}: its header ${headers.join(', ')} cannot be sent (declared on the SOAP bindings only); the service refused the call`,
      ),
    ];
  },
});
