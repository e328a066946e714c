/**
 * Negative cases per type: a correct request with one value its schema type does not allow,
 * or one required element left out. The expected answers are the ones genuine ASMX gives
 * (test/fixtures/asmx/captures/rich: Add.*.error-not-a-number, EchoColor.*.error-unknown-enum,
 * Add.soap11.missing-element):
 *
 * | Id                         | SOAP                                   | HTTP GET/POST          |
 * |----------------------------|----------------------------------------|------------------------|
 * | `invalid/not-a-number`     | Client/Sender fault                    | 500 (or 400)           |
 * | `invalid/unknown-enum`     | Client/Sender fault                    | 500 (or 400)           |
 * | `invalid/missing-element`  | success (ASMX reads the type's default) or a Client fault | — (error/missing-parameter) |
 *
 * Each is generated only when the operation's input has such a value.
 */
import type { CaseContext } from './case-context.js';
import {
  alterSoapValue,
  httpParams,
  httpRequestWithParams,
  positiveRequest,
  soapVersionOf,
  type WirePath,
} from './requests.js';
import { isNumeric } from './samples.js';
import { findLeaf, findRequired } from './value-paths.js';
import type { Case, Expectation, RequestSpec } from '../types.js';

const NOT_A_NUMBER = 'not-a-number';
const UNKNOWN_ENUM = 'NotAnEnumerationValue';

interface InvalidSpec {
  readonly name: string;
  readonly description: string;
  readonly request: RequestSpec;
  readonly expect: Expectation;
}

function invalidCase(ctx: CaseContext, spec: InvalidSpec): Case {
  return {
    id: `${ctx.prefix}/invalid/${spec.name}`,
    operation: ctx.caseName,
    binding: ctx.contract.protocol,
    level: 'should',
    description: spec.description,
    request: spec.request,
    expect: spec.expect,
  };
}

function wrapperName(ctx: CaseContext): string | undefined {
  const op = ctx.contract.operation;
  return op.input.kind === 'element' ? ctx.descriptor.elements[op.input.element]?.name.local : undefined;
}

function shown(path: WirePath): string {
  return path.slice(1).join('/');
}

function soapInvalidCases(ctx: CaseContext): InvalidSpec[] {
  const root = wrapperName(ctx);
  const op = ctx.contract.operation;
  if (root === undefined || op.input.kind !== 'element') return [];
  const value = ctx.descriptor.elements[op.input.element]!.value;
  const plain = positiveRequest(ctx.descriptor, ctx.contract, ctx.basePath, ctx.plain);
  const fault: Expectation = {
    kind: 'fault',
    version: soapVersionOf(ctx.contract.protocol),
    family: 'client',
    acceptAnyVersion: false,
    acceptStatuses: [400],
  };
  const specs: InvalidSpec[] = [];
  const number = findLeaf(
    ctx.descriptor,
    value,
    ctx.plain.json,
    (xsd, enumeration) => isNumeric(xsd) && enumeration === undefined,
    [root],
  );
  const numberRequest = number === undefined ? undefined : alterSoapValue(plain, number.path, NOT_A_NUMBER);
  if (number !== undefined && numberRequest !== undefined) {
    specs.push({
      name: 'not-a-number',
      description: `a request whose ${shown(number.path)} (xs:${number.xsd}) is "${NOT_A_NUMBER}"`,
      request: numberRequest,
      expect: fault,
    });
  }
  const enumerated = findLeaf(
    ctx.descriptor,
    value,
    ctx.plain.json,
    (_, enumeration) => enumeration !== undefined && enumeration.length > 0 && !enumeration.includes(UNKNOWN_ENUM),
    [root],
  );
  const enumRequest = enumerated === undefined ? undefined : alterSoapValue(plain, enumerated.path, UNKNOWN_ENUM);
  if (enumerated !== undefined && enumRequest !== undefined) {
    specs.push({
      name: 'unknown-enum',
      description: `a request whose ${shown(enumerated.path)} is "${UNKNOWN_ENUM}", not one of its enumeration values`,
      request: enumRequest,
      expect: fault,
    });
  }
  const required = findRequired(ctx.descriptor, value, ctx.plain.json, [root]);
  const missingRequest = required === undefined ? undefined : alterSoapValue(plain, required, undefined);
  if (required !== undefined && missingRequest !== undefined) {
    specs.push({
      name: 'missing-element',
      description: `a request without the required element ${shown(required)}`,
      request: missingRequest,
      // ASMX answers with the type's default value; a Client fault is as good an answer.
      expect: { kind: 'success', shape: ctx.contract.success, allowRefusal: true },
    });
  }
  return specs;
}

function httpInvalidCases(ctx: CaseContext): InvalidSpec[] {
  const http = ctx.contract.http;
  if (http === undefined) return [];
  const values = httpParams(ctx.contract, ctx.plain);
  const error: Expectation = { kind: 'http-error', acceptStatuses: [500, 400] };
  const replaceFirst = (name: string, text: string): RequestSpec => {
    let done = false;
    return httpRequestWithParams(
      ctx.contract,
      ctx.basePath,
      values.map(([n, v]) => {
        if (n !== name || done) return [n, v] as const;
        done = true;
        return [n, text] as const;
      }),
    );
  };
  const specs: InvalidSpec[] = [];
  // A char parameter is the character itself on HTTP (any text is one), so it is no number there.
  const number = http.params.find(
    (p) => p.form === 'xml' && isNumeric(p.xsd) && p.enumeration === undefined && values.some(([n]) => n === p.name),
  );
  if (number !== undefined)
    specs.push({
      name: 'not-a-number',
      description: `a request whose parameter ${number.name} (xs:${number.xsd}) is "${NOT_A_NUMBER}"`,
      request: replaceFirst(number.name, NOT_A_NUMBER),
      expect: error,
    });
  const enumerated = http.params.find(
    (p) =>
      p.form === 'xml' && p.enumeration !== undefined && p.enumeration.length > 0 && values.some(([n]) => n === p.name),
  );
  if (enumerated !== undefined)
    specs.push({
      name: 'unknown-enum',
      description: `a request whose parameter ${enumerated.name} is "${UNKNOWN_ENUM}", not one of its enumeration values`,
      request: replaceFirst(enumerated.name, UNKNOWN_ENUM),
      expect: error,
    });
  return specs;
}

export function invalidValueCases(ctx: CaseContext): Case[] {
  const soap = ctx.contract.protocol === 'soap11' || ctx.contract.protocol === 'soap12';
  return (soap ? soapInvalidCases(ctx) : httpInvalidCases(ctx)).map((spec) => invalidCase(ctx, spec));
}
