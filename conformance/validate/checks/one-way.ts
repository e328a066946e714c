/**
 * A one-way SOAP operation's answer (no wsdl:output). `soap.one-way-status` (MUST): 202 or 200,
 * the statuses WS-I BP R2750 has every client accept, and what JAX-WS and .NET clients take as
 * sent; anything else fails their call. `soap.one-way-no-envelope` (SHOULD): no body at all, as
 * R2714 says (an empty envelope with 200 is what SOAP itself allows, and some stacks answer so).
 */
import type { Case, Mismatch } from '../../types.js';
import { bodyText } from '../response-view.js';
import { defineCheck, judgedAsSuccess, mismatch, successShape, truncate } from './support.js';

const appliesToOneWay = (testCase: Case): boolean => successShape(testCase)?.kind === 'one-way';

export const oneWayStatusCheck = defineCheck({
  id: 'soap.one-way-status',
  level: 'must',
  source: 'WS-I BP 1.1 R2750 (a one-way request is answered 200 or 202)',
  title: 'A one-way operation is answered 202 or 200',
  applies: appliesToOneWay,
  run(exchange, testCase): Mismatch[] {
    if (!judgedAsSuccess(exchange, testCase)) return [];
    const { status } = exchange.response;
    return status === 202 || status === 200
      ? []
      : [mismatch('202 or 200', String(status), `a one-way call must be answered 202 or 200, got ${status}`)];
  },
});

export const oneWayNoEnvelopeCheck = defineCheck({
  id: 'soap.one-way-no-envelope',
  level: 'should',
  source: 'WS-I BP 1.1 R2714 (a one-way response carries no SOAP envelope)',
  title: 'A one-way operation is answered with no body',
  applies: appliesToOneWay,
  run(exchange, testCase): Mismatch[] {
    if (!judgedAsSuccess(exchange, testCase) || exchange.response.body.length === 0) return [];
    return [
      mismatch(
        'no body',
        truncate(bodyText(exchange), 120),
        'a one-way call is answered without a body: the 202 says the message arrived, and there is nothing to answer',
      ),
    ];
  },
});
