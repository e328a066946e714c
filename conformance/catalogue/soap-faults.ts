/**
 * The negative and COMPAT cases of a SOAP binding, each a positive request with one named
 * alteration, and the answers SOAP allows for it.
 */
import type { CaseContext } from './case-context.js';
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
import type { Case, Expectation, FaultFamily, Level, RequestSpec } from '../types.js';

interface FaultCaseSpec {
  readonly name: string;
  readonly description: string;
  readonly request: RequestSpec;
  readonly family: FaultFamily;
  readonly acceptStatuses?: readonly number[];
  readonly acceptAnyVersion?: boolean;
}

function faultCase(ctx: CaseContext, spec: FaultCaseSpec): Case {
  const version = soapVersionOf(ctx.contract.protocol);
  const expect: Expectation = {
    kind: 'fault',
    version,
    family: spec.family,
    acceptAnyVersion: spec.acceptAnyVersion ?? false,
    acceptStatuses: spec.acceptStatuses ?? [],
  };
  return {
    id: `${ctx.prefix}/fault/${spec.name}`,
    operation: ctx.caseName,
    binding: ctx.contract.protocol,
    level: 'should',
    description: spec.description,
    request: spec.request,
    expect,
  };
}

function compatCase(ctx: CaseContext, name: string, level: Level, description: string, request: RequestSpec): Case {
  return {
    id: `${ctx.prefix}/compat/${name}`,
    operation: ctx.caseName,
    binding: ctx.contract.protocol,
    level,
    description,
    request,
    expect: { kind: 'success', shape: ctx.contract.success, allowRefusal: false },
  };
}

function withoutHeader(headers: Readonly<Record<string, string>>, name: string): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([key]) => key.toLowerCase() !== name));
}

export function soapNegativeCases(ctx: CaseContext): Case[] {
  const version = soapVersionOf(ctx.contract.protocol);
  const plain = positiveRequest(ctx.descriptor, ctx.contract, ctx.basePath, ctx.plain);
  const body = bodyString(plain);
  const bodyChild = bodyChildOf(plain);
  // The declared header blocks go along, so that only the alteration can explain a refusal.
  const declaredHeaders = headerBlocksOf(plain);
  const envNs = envelopeNamespace(version);
  const specs: FaultCaseSpec[] = [
    {
      name: 'malformed-xml',
      description: 'a request whose XML is not well-formed',
      request: { ...plain, body: truncateDocument(body) },
      family: 'client',
      acceptStatuses: [400],
    },
    {
      name: 'doctype',
      description: 'a request with a DOCTYPE declaring an entity',
      request: { ...plain, body: withDoctype(body) },
      family: 'client',
      acceptStatuses: [400],
    },
    {
      name: 'version-mismatch',
      description: 'a request whose envelope is in an unknown namespace',
      request: { ...plain, body: soapEnvelope(UNKNOWN_ENVELOPE_NS, bodyChild) },
      family: 'version-mismatch',
      acceptAnyVersion: true,
    },
    {
      name: 'must-understand',
      description: 'a request with a mustUnderstand header block nobody understands',
      request: { ...plain, body: soapEnvelope(envNs, bodyChild, declaredHeaders + mustUnderstandHeader(version)) },
      family: 'must-understand',
    },
    {
      name: 'wrong-content-type',
      description: 'a request sent as text/plain',
      request: {
        ...plain,
        headers: { ...withoutHeader(plain.headers, 'content-type'), 'content-type': 'text/plain; charset=utf-8' },
      },
      family: 'client',
      acceptStatuses: [415, 400],
      acceptAnyVersion: true,
    },
    {
      name: 'unsupported-method',
      description: 'a PUT request to the endpoint',
      request: { ...plain, method: 'PUT' },
      family: 'client',
      acceptStatuses: [405, 501],
      acceptAnyVersion: true,
    },
  ];
  // The body limit is the endpoint's, not the operation's: one (expensive) over-size case per
  // binding, on its first operation, keeps a full run fast without losing the rule.
  if (ctx.contract.binding.operations[0] === ctx.contract.operation) {
    specs.push({
      name: 'over-size',
      description: `a request body over ${ctx.maxBodyBytes} bytes`,
      request: { ...plain, body: padToSize(body, ctx.maxBodyBytes), mayAnswerEarly: true },
      family: 'client',
      acceptStatuses: [413],
    });
  }
  if (version === '1.1') {
    specs.push({
      name: 'unknown-soapaction',
      description: 'a request whose SOAPAction names no operation',
      request: {
        ...plain,
        headers: { ...withoutHeader(plain.headers, 'soapaction'), soapaction: `"${UNKNOWN_SOAP_ACTION}"` },
      },
      family: 'client',
    });
  }
  const cases = specs.map((spec) => faultCase(ctx, spec));
  if (version === '1.1') {
    cases.push(
      compatCase(ctx, 'no-soapaction', 'compat', 'a correct request without SOAPAction (routed by the Body element)', {
        ...plain,
        headers: withoutHeader(plain.headers, 'soapaction'),
      }),
    );
  }
  return cases;
}
