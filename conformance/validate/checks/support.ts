/**
 * Helpers the checks share: building mismatches, deciding which answer a response is (success,
 * refusal, fault) so that each check judges only the answer it is about.
 */
import { contentTypeOf, isFaultElement, soapViewOf } from '../response-view.js';
import type { Case, Check, Exchange, Mismatch, SuccessShape } from '../../types.js';

export function mismatch(expected: string, actual: string, message: string): Mismatch {
  return { expected, actual, message };
}

export function defineCheck(check: Check): Check {
  return Object.freeze(check);
}

export function successShape(testCase: Case): SuccessShape | undefined {
  return testCase.expect.kind === 'success' ? testCase.expect.shape : undefined;
}

/** A SOAP binding's success: an envelope with a result, or a one-way operation's empty answer; its refusal is a fault. */
export function isSoapShape(shape: SuccessShape): shape is Extract<SuccessShape, { kind: 'soap' | 'one-way' }> {
  return shape.kind === 'soap' || shape.kind === 'one-way';
}

/** The media types that mean "an XML document" on the wire. */
export function isXmlMediaType(type: string): boolean {
  return type === 'text/xml' || type === 'application/xml' || type === 'application/soap+xml' || type.endsWith('+xml');
}

/** HTTP GET/POST statuses that refuse a value (ASMX: 500 text/plain; others: 400). 404, 401, 403 refuse nothing of the sort. */
const REFUSAL_STATUSES: readonly number[] = [400, 500];

/** The plain HTTP answer the case accepts whatever its body (ASMX's 400 for a long query), with why. */
export function acceptedStatus(
  exchange: Exchange,
  testCase: Case,
): { readonly status: number; readonly why: string } | undefined {
  const expect = testCase.expect;
  if (expect.kind !== 'success' || expect.acceptStatuses === undefined) return undefined;
  return expect.acceptStatuses.find((a) => a.status === exchange.response.status);
}

/**
 * Which answer a positive case received. `refusal` only when the case allows one and the
 * response is one: a SOAP Fault as the Body child, or (GET/POST) a 400 or 500 with a non-XML
 * body; or a status the case accepts for a reason of its own. Everything else is judged as a
 * success answer, so a wrong one fails there.
 */
export function answerKind(exchange: Exchange, testCase: Case): 'success' | 'refusal' | undefined {
  const expect = testCase.expect;
  if (expect.kind !== 'success') return undefined;
  if (acceptedStatus(exchange, testCase) !== undefined) return 'refusal';
  if (!expect.allowRefusal) return 'success';
  if (isSoapShape(expect.shape)) {
    const view = soapViewOf(exchange);
    return view !== undefined && isFaultElement(view.bodyChildren[0]) ? 'refusal' : 'success';
  }
  const { status } = exchange.response;
  return REFUSAL_STATUSES.includes(status) && !isXmlMediaType(contentTypeOf(exchange.response.headers).type)
    ? 'refusal'
    : 'success';
}

/** True for a response that the success checks should judge. */
export function judgedAsSuccess(exchange: Exchange, testCase: Case): boolean {
  return answerKind(exchange, testCase) === 'success';
}

/** The SOAP version a fault is expected in: a negative case's, or a refused positive case's. */
export function expectedFaultVersion(exchange: Exchange, testCase: Case): '1.1' | '1.2' | undefined {
  const expect = testCase.expect;
  if (expect.kind === 'fault') return expect.version;
  if (answerKind(exchange, testCase) === 'refusal' && expect.kind === 'success' && isSoapShape(expect.shape))
    return expect.shape.version;
  return undefined;
}

/**
 * Accepted plain-HTTP answers of a negative SOAP case (415, 405, 413, 400) when the response is
 * one. A SOAP Fault is never a "plain" answer: it is judged as a fault, status included.
 */
export function acceptedPlainStatus(exchange: Exchange, testCase: Case): number | undefined {
  const expect = testCase.expect;
  if (expect.kind !== 'fault') return undefined;
  const status = exchange.response.status;
  if (!expect.acceptStatuses.includes(status)) return undefined;
  return isFaultElement(soapViewOf(exchange)?.bodyChildren[0]) ? undefined : status;
}

export function truncate(text: string, max = 200): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} chars)`;
}
