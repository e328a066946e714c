/**
 * The fixed case kinds of the catalogue, as data: one row per kind of case — its id within an
 * operation (`<group>/<name>`), the bindings it is made for, its level, what it sends (a named
 * alteration of the operation's correct request, or a sample of its input), what it expects,
 * and the checks that judge the answer. The builders (positive.ts, soap-faults.ts,
 * http-errors.ts, invalid-values.ts) turn a row into a case per operation; they decide only
 * whether the operation has what the row needs (a number to spoil, a second parameter…).
 *
 * The rows are validated once, when the catalogue module loads (catalogue/build.ts): unique ids
 * per binding, known bindings and levels, a known alteration, known checks.
 */
import type { CaseBinding, FaultFamily, Level } from '../types.js';
import { TEXT_VARIANTS } from './variants.js';

export type CaseGroup = 'ok' | 'fault' | 'error' | 'invalid' | 'compat';

/** What a kind expects, as data; the builder turns it into the case's `Expectation`. */
export type ExpectedAnswer =
  /** The operation's success answer; `mayBeRefused`: a well-formed refusal is accepted too. */
  | { readonly kind: 'success'; readonly mayBeRefused: boolean }
  /** A SOAP fault of the family (in the request's SOAP version unless `acceptAnyVersion`). */
  | {
      readonly kind: 'fault';
      readonly family: FaultFamily;
      readonly acceptStatuses?: readonly number[];
      readonly acceptAnyVersion?: boolean;
    }
  /** A plain HTTP error; `message`: the one-line text ASMX gives (`{param}` is the parameter left out). */
  | { readonly kind: 'http-error'; readonly acceptStatuses: readonly number[]; readonly message?: string };

/** The part of an operation's input a positive kind needs before it is worth a case. */
export type InputNeed = 'free-text' | 'arrays' | 'nillable' | 'derived' | 'input-headers';

export interface CaseKind {
  /** `<group>/<name>`; ids are unique per binding. */
  readonly id: string;
  readonly bindings: readonly CaseBinding[];
  readonly level: Level;
  /** Shown in reports; `{name}` is filled from what the builder found (a parameter, a path, a limit). */
  readonly description: string;
  /** The alteration (or sample) the builder applies to the correct request; names one it knows. */
  readonly sends: string;
  readonly expects: ExpectedAnswer;
  /** The checks that judge this kind's answer (each applies to the cases it makes). */
  readonly checks: readonly string[];
  /** Positive kinds: made only when the operation's input has this. */
  readonly needs?: InputNeed;
  /** Made on the first operation of each binding only (the limit is the endpoint's, not the operation's). */
  readonly once?: 'per-binding';
}

const SOAP: readonly CaseBinding[] = ['soap11', 'soap12'];
const HTTP: readonly CaseBinding[] = ['http-get', 'http-post'];
const ALL: readonly CaseBinding[] = [...SOAP, ...HTTP];

/** Checks every answer of the kind meets, by binding family. */
const SOAP_SUCCESS = ['http.status-200', 'soap.envelope-version', 'soap.response-element'];
const HTTP_SUCCESS = ['http.status-200'];
const SOAP_FAULT = ['fault.answer', 'fault.code', 'fault.status', 'fault.no-stack-trace'];
const HTTP_ERROR = ['http.error-status', 'fault.no-stack-trace'];

function arraysKind(name: string, description: string, bindings: readonly CaseBinding[]): CaseKind {
  return {
    id: `ok/${name}`,
    bindings,
    level: 'must',
    description,
    sends: `sample:${name}`,
    expects: { kind: 'success', mayBeRefused: true },
    checks: HTTP_SUCCESS,
    needs: 'arrays',
  };
}

/** The text variants (variants.ts), one `ok/<name>` each; all but the first need a free text. */
export const TEXT_KINDS: readonly CaseKind[] = TEXT_VARIANTS.map((variant, index) => ({
  id: `ok/${variant.name}`,
  bindings: ALL,
  level: 'must',
  description: variant.description,
  sends: `text:${variant.name}`,
  expects: { kind: 'success', mayBeRefused: variant.mayBeRefused },
  checks: HTTP_SUCCESS,
  ...(index === 0 ? {} : { needs: 'free-text' as const }),
}));

/** The positive kinds beyond the texts: worth a case when the input has arrays, nils, derived types or headers. */
export const POSITIVE_KINDS: readonly CaseKind[] = [
  // An empty array has no form on HTTP GET/POST (an absent parameter, which ASMX refuses).
  arraysKind('arrays-empty', 'every array empty', SOAP),
  arraysKind('arrays-one', 'every array with one item', ALL),
  arraysKind('arrays-many', 'every array with five items', ALL),
  // xsi:nil and derived types travel only in XML: SOAP.
  {
    id: 'ok/nil',
    bindings: SOAP,
    level: 'must',
    description: 'xsi:nil in every nillable element',
    sends: 'sample:nil',
    expects: { kind: 'success', mayBeRefused: true },
    checks: SOAP_SUCCESS,
    needs: 'nillable',
  },
  {
    id: 'ok/derived-{type}',
    bindings: SOAP,
    level: 'must',
    description: 'the derived type {type} (xsi:type) wherever it is allowed',
    sends: 'sample:derived',
    expects: { kind: 'success', mayBeRefused: false },
    checks: SOAP_SUCCESS,
    needs: 'derived',
  },
  {
    id: 'ok/headers-must-understand',
    bindings: SOAP,
    level: 'should',
    description: 'the declared SOAP headers marked mustUnderstand',
    sends: 'sample:must-understand',
    expects: { kind: 'success', mayBeRefused: false },
    checks: SOAP_SUCCESS,
    needs: 'input-headers',
  },
];

/** SOAP: a correct request with one named alteration, and the answers SOAP allows for it. */
export const SOAP_NEGATIVE_KINDS: readonly CaseKind[] = [
  {
    id: 'fault/malformed-xml',
    bindings: SOAP,
    level: 'should',
    description: 'a request whose XML is not well-formed',
    sends: 'truncated-document',
    expects: { kind: 'fault', family: 'client', acceptStatuses: [400] },
    checks: SOAP_FAULT,
  },
  {
    id: 'fault/doctype',
    bindings: SOAP,
    level: 'should',
    description: 'a request with a DOCTYPE declaring an entity',
    sends: 'doctype',
    expects: { kind: 'fault', family: 'client', acceptStatuses: [400] },
    checks: SOAP_FAULT,
  },
  {
    id: 'fault/version-mismatch',
    bindings: SOAP,
    level: 'should',
    description: 'a request whose envelope is in an unknown namespace',
    sends: 'unknown-envelope',
    expects: { kind: 'fault', family: 'version-mismatch', acceptAnyVersion: true },
    checks: SOAP_FAULT,
  },
  {
    id: 'fault/must-understand',
    bindings: SOAP,
    level: 'should',
    description: 'a request with a mustUnderstand header block nobody understands',
    sends: 'must-understand-header',
    expects: { kind: 'fault', family: 'must-understand' },
    checks: SOAP_FAULT,
  },
  {
    id: 'fault/wrong-content-type',
    bindings: SOAP,
    level: 'should',
    description: 'a request sent as text/plain',
    sends: 'text-plain',
    expects: { kind: 'fault', family: 'client', acceptStatuses: [415, 400], acceptAnyVersion: true },
    checks: SOAP_FAULT,
  },
  {
    id: 'fault/unsupported-method',
    bindings: SOAP,
    level: 'should',
    description: 'a PUT request to the endpoint',
    sends: 'put',
    expects: { kind: 'fault', family: 'client', acceptStatuses: [405, 501], acceptAnyVersion: true },
    checks: SOAP_FAULT,
  },
  // One (expensive) over-size case per binding keeps a full run fast without losing the rule.
  {
    id: 'fault/over-size',
    bindings: SOAP,
    level: 'should',
    description: 'a request body over {limit} bytes',
    sends: 'over-size',
    expects: { kind: 'fault', family: 'client', acceptStatuses: [413] },
    checks: SOAP_FAULT,
    once: 'per-binding',
  },
  {
    id: 'fault/unknown-soapaction',
    bindings: ['soap11'],
    level: 'should',
    description: 'a request whose SOAPAction names no operation',
    sends: 'unknown-soapaction',
    expects: { kind: 'fault', family: 'client' },
    checks: SOAP_FAULT,
  },
  {
    id: 'compat/no-soapaction',
    bindings: ['soap11'],
    level: 'compat',
    description: 'a correct request without SOAPAction (routed by the Body element)',
    sends: 'no-soapaction',
    expects: { kind: 'success', mayBeRefused: false },
    checks: SOAP_SUCCESS,
  },
];

/** HTTP GET/POST: a missing parameter, an unsupported method, parameters in reverse order. */
export const HTTP_NEGATIVE_KINDS: readonly CaseKind[] = [
  {
    id: 'error/missing-parameter',
    bindings: HTTP,
    level: 'compat',
    description: 'a request without the parameter {param}',
    sends: 'without-last-parameter',
    expects: { kind: 'http-error', acceptStatuses: [500], message: 'Missing parameter: {param}.' },
    checks: [...HTTP_ERROR, 'http.error-text'],
  },
  {
    id: 'error/unsupported-method',
    bindings: HTTP,
    level: 'should',
    description: 'a PUT request to the operation path',
    sends: 'put-without-query',
    expects: { kind: 'http-error', acceptStatuses: [405, 501] },
    checks: HTTP_ERROR,
  },
  {
    id: 'compat/any-order',
    bindings: HTTP,
    level: 'compat',
    description: 'a correct request with the parameters in reverse order',
    sends: 'reversed-parameters',
    expects: { kind: 'success', mayBeRefused: false },
    checks: HTTP_SUCCESS,
  },
];

/**
 * Per type: a correct request with one value its schema type does not allow, or one required
 * element left out. The expected answers are the ones genuine ASMX gives
 * (test/fixtures/asmx/captures/rich: Add.*.error-not-a-number, EchoColor.*.error-unknown-enum,
 * Add.soap11.missing-element). Each is made only when the operation's input has such a value.
 */
export const INVALID_VALUE_KINDS: readonly CaseKind[] = [
  {
    id: 'invalid/not-a-number',
    bindings: SOAP,
    level: 'should',
    description: 'a request whose {path} (xs:{xsd}) is "not-a-number"',
    sends: 'not-a-number',
    expects: { kind: 'fault', family: 'client', acceptStatuses: [400] },
    checks: SOAP_FAULT,
  },
  {
    id: 'invalid/unknown-enum',
    bindings: SOAP,
    level: 'should',
    description: 'a request whose {path} is "NotAnEnumerationValue", not one of its enumeration values',
    sends: 'unknown-enum',
    expects: { kind: 'fault', family: 'client', acceptStatuses: [400] },
    checks: SOAP_FAULT,
  },
  // ASMX answers with the type's default value; a Client fault is as good an answer.
  {
    id: 'invalid/missing-element',
    bindings: SOAP,
    level: 'should',
    description: 'a request without the required element {path}',
    sends: 'without-required-element',
    expects: { kind: 'success', mayBeRefused: true },
    checks: [...SOAP_SUCCESS, 'fault.code'],
  },
  {
    id: 'invalid/not-a-number',
    bindings: HTTP,
    level: 'should',
    description: 'a request whose parameter {param} (xs:{xsd}) is "not-a-number"',
    sends: 'not-a-number',
    expects: { kind: 'http-error', acceptStatuses: [500, 400] },
    checks: HTTP_ERROR,
  },
  {
    id: 'invalid/unknown-enum',
    bindings: HTTP,
    level: 'should',
    description: 'a request whose parameter {param} is "NotAnEnumerationValue", not one of its enumeration values',
    sends: 'unknown-enum',
    expects: { kind: 'http-error', acceptStatuses: [500, 400] },
    checks: HTTP_ERROR,
  },
];

/** `{name}` placeholders of a row's text filled from what the builder found. */
export function fill(text: string, values: Readonly<Record<string, string | number>>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
