/**
 * A one-way SOAP operation's answer (no wsdl:output). `soap.one-way-status` (MUST): a 2xx, what
 * success is over HTTP (WS-I BP R1124, RFC 9110 §15.3): anything else fails a JAX-WS or .NET
 * client's call. `soap.one-way-no-envelope` (SHOULD): 202 or 200 (R1112) and no body at all
 * (R2714), a refusal included: an empty envelope with 200 is what SOAP alone allows and some
 * stacks answer, and a fault envelope is what R2714 forbids a one-way refusal.
 */
import type { Case, Mismatch } from '../../types.js';
import { bodyText } from '../response-view.js';
import { answerKind, defineCheck, judgedAsSuccess, mismatch, successShape, truncate } from './support.js';

const appliesToOneWay = (testCase: Case): boolean => successShape(testCase)?.kind === 'one-way';

export const oneWayStatusCheck = defineCheck({
  id: 'soap.one-way-status',
  level: 'must',
  source: 'WS-I BP 1.1 R1124; RFC 9110 §15.3 (success is a 2xx)',
  title: 'A one-way operation is answered with a 2xx status',
  applies: appliesToOneWay,
  run(exchange, testCase): Mismatch[] {
    if (!judgedAsSuccess(exchange, testCase)) return [];
    const { status } = exchange.response;
    return status >= 200 && status < 300
      ? []
      : [mismatch('2xx (202)', String(status), `a one-way call must be answered with a 2xx, got ${status}`)];
  },
});

export const oneWayNoEnvelopeCheck = defineCheck({
  id: 'soap.one-way-no-envelope',
  level: 'should',
  source: 'WS-I BP 1.1 R2714 (no envelope in a one-way response), R1112 (200 or 202 without one)',
  title: 'A one-way operation is answered 202 or 200 with no body',
  applies: appliesToOneWay,
  run(exchange, testCase): Mismatch[] {
    const answer = answerKind(exchange, testCase);
    const { status, body } = exchange.response;
    if (answer === 'refusal')
      return [
        mismatch(
          'no body',
          truncate(bodyText(exchange), 120),
          'a one-way call was refused with a fault envelope; a one-way response carries none, a refusal included',
        ),
      ];
    if (answer !== 'success' || status < 200 || status >= 300) return [];
    const found: Mismatch[] = [];
    if (status !== 200 && status !== 202)
      found.push(mismatch('202 or 200', String(status), `a one-way call is answered 202 or 200, got ${status}`));
    if (body.length > 0)
      found.push(
        mismatch(
          'no body',
          truncate(bodyText(exchange), 120),
          'a one-way call is answered without a body: the 202 says the message arrived, and there is nothing to answer',
        ),
      );
    return found;
  },
});
