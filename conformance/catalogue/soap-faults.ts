/**
 * The negative and COMPAT cases of a SOAP binding (the rows of SOAP_NEGATIVE_KINDS): each a
 * correct request with one named alteration, made here.
 */
import type { Case, RequestSpec } from '../types.js';
import type { CaseContext } from './case-context.js';
import { SOAP_NEGATIVE_KINDS } from './case-kinds.js';
import { caseOfKind, kindsFor } from './kind-case.js';
import {
  UNKNOWN_ENVELOPE_NS,
  UNKNOWN_SOAP_ACTION,
  bodyChildOf,
  bodyString,
  headerBlocksOf,
  mustUnderstandHeader,
  padToSize,
  positiveRequest,
  soapEnvelope,
  soapVersionOf,
  truncateDocument,
  withDoctype,
} from './requests.js';
import { envelopeNamespace } from '../validate/response-view.js';

/** The correct request an alteration starts from, taken apart once. */
interface SoapSource {
  readonly plain: RequestSpec;
  readonly body: string;
  readonly bodyChild: string;
  /** The declared header blocks go along, so that only the alteration can explain a refusal. */
  readonly declaredHeaders: string;
  readonly version: '1.1' | '1.2';
  readonly maxBodyBytes: number;
}

function withoutHeader(headers: Readonly<Record<string, string>>, name: string): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([key]) => key.toLowerCase() !== name));
}

/**
 * The request with a body made when it is first read: megabytes that `conformance --list`, a
 * `--skip`ped case and a catalogue built only to be counted never need (~40 ms of each start).
 */
function withBodyOnFirstRead(request: Omit<RequestSpec, 'body'>, make: () => Uint8Array): RequestSpec {
  let body: Uint8Array | undefined;
  return Object.defineProperty({ ...request }, 'body', { enumerable: true, get: () => (body ??= make()) });
}

/** The alterations SOAP_NEGATIVE_KINDS may name, by name. */
const SOAP_ALTERATIONS: Readonly<Record<string, (s: SoapSource) => RequestSpec>> = {
  'truncated-document': (s) => ({ ...s.plain, body: truncateDocument(s.body) }),
  doctype: (s) => ({ ...s.plain, body: withDoctype(s.body) }),
  'unknown-envelope': (s) => ({ ...s.plain, body: soapEnvelope(UNKNOWN_ENVELOPE_NS, s.bodyChild) }),
  'must-understand-header': (s) => ({
    ...s.plain,
    body: soapEnvelope(envelopeNamespace(s.version), s.bodyChild, s.declaredHeaders + mustUnderstandHeader(s.version)),
  }),
  'text-plain': (s) => ({
    ...s.plain,
    headers: { ...withoutHeader(s.plain.headers, 'content-type'), 'content-type': 'text/plain; charset=utf-8' },
  }),
  put: (s) => ({ ...s.plain, method: 'PUT' }),
  'over-size': (s) =>
    withBodyOnFirstRead({ ...s.plain, mayAnswerEarly: true }, () => padToSize(s.body, s.maxBodyBytes)),
  'unknown-soapaction': (s) => ({
    ...s.plain,
    headers: { ...withoutHeader(s.plain.headers, 'soapaction'), soapaction: `"${UNKNOWN_SOAP_ACTION}"` },
  }),
  'no-soapaction': (s) => ({ ...s.plain, headers: withoutHeader(s.plain.headers, 'soapaction') }),
};

export function knowsSoapAlteration(sends: string): boolean {
  return Object.hasOwn(SOAP_ALTERATIONS, sends);
}

export function soapNegativeCases(ctx: CaseContext): Case[] {
  const plain = positiveRequest(ctx.descriptor, ctx.contract, ctx.basePath, ctx.plain);
  const source: SoapSource = {
    plain,
    body: bodyString(plain),
    bodyChild: bodyChildOf(plain),
    declaredHeaders: headerBlocksOf(plain),
    version: soapVersionOf(ctx.contract.protocol),
    maxBodyBytes: ctx.maxBodyBytes,
  };
  const first = ctx.contract.binding.operations[0] === ctx.contract.operation;
  return kindsFor(ctx, SOAP_NEGATIVE_KINDS)
    .filter((kind) => kind.once !== 'per-binding' || first)
    .map((kind) => caseOfKind(ctx, kind, SOAP_ALTERATIONS[kind.sends]!(source), { limit: ctx.maxBodyBytes }));
}
