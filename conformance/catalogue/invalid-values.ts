/**
 * The invalid-value cases (the rows of INVALID_VALUE_KINDS): a correct request with one value its
 * schema type does not allow, or one required element left out. Each alteration finds the value
 * it spoils in the operation's input; where there is none, the row makes no case.
 */
import type { Case, RequestSpec } from '../types.js';
import type { CaseContext } from './case-context.js';
import { INVALID_VALUE_KINDS } from './case-kinds.js';
import { caseOfKind, type Found, kindsFor } from './kind-case.js';
import {
  alterSoapValue,
  httpParams,
  httpRequestWithParams,
  type ParamValues,
  positiveRequest,
  type WirePath,
} from './requests.js';
import { isNumeric } from './samples.js';
import { findLeaf, findRequired } from './value-paths.js';

const NOT_A_NUMBER = 'not-a-number';
const UNKNOWN_ENUM = 'NotAnEnumerationValue';

/** The altered request and what the row's description names. */
interface Spoiled {
  readonly request: RequestSpec;
  readonly found: Found;
}

type Alteration<Source> = (source: Source) => Spoiled | undefined;

interface SoapSource {
  readonly ctx: CaseContext;
  readonly plain: RequestSpec;
  /** The input wrapper's name: the first step of every path. */
  readonly root: string;
  readonly value: NonNullable<CaseContext['descriptor']['elements'][string]>['value'];
}

function shown(path: WirePath): string {
  return path.slice(1).join('/');
}

function spoilLeaf(
  s: SoapSource,
  text: string,
  accept: (xsd: string, enumeration: readonly string[] | undefined) => boolean,
): Spoiled | undefined {
  const leaf = findLeaf(s.ctx.descriptor, s.value, s.ctx.plain.json, accept, [s.root]);
  const request = leaf === undefined ? undefined : alterSoapValue(s.plain, leaf.path, text);
  return leaf === undefined || request === undefined
    ? undefined
    : { request, found: { path: shown(leaf.path), xsd: leaf.xsd } };
}

const SOAP_ALTERATIONS: Readonly<Record<string, Alteration<SoapSource>>> = {
  'not-a-number': (s) => spoilLeaf(s, NOT_A_NUMBER, (xsd, enumeration) => isNumeric(xsd) && enumeration === undefined),
  'unknown-enum': (s) =>
    spoilLeaf(
      s,
      UNKNOWN_ENUM,
      (_, enumeration) => enumeration !== undefined && enumeration.length > 0 && !enumeration.includes(UNKNOWN_ENUM),
    ),
  'without-required-element': (s) => {
    const required = findRequired(s.ctx.descriptor, s.value, s.ctx.plain.json, [s.root]);
    const request = required === undefined ? undefined : alterSoapValue(s.plain, required, undefined);
    return required === undefined || request === undefined ? undefined : { request, found: { path: shown(required) } };
  },
};

interface HttpSource {
  readonly ctx: CaseContext;
  readonly http: NonNullable<CaseContext['contract']['http']>;
  readonly values: ParamValues;
}

/** The request with the first value of parameter `name` replaced by `text`. */
function replaceFirst(s: HttpSource, name: string, text: string): RequestSpec {
  let done = false;
  const values = s.values.map(([n, v]) => {
    if (n !== name || done) return [n, v] as const;
    done = true;
    return [n, text] as const;
  });
  return httpRequestWithParams(s.ctx.contract, s.ctx.basePath, values);
}

const HTTP_ALTERATIONS: Readonly<Record<string, Alteration<HttpSource>>> = {
  // A char parameter is the character itself on HTTP (any text is one), so it is no number there.
  'not-a-number': (s) => {
    const number = s.http.params.find(
      (p) =>
        p.form === 'xml' && isNumeric(p.xsd) && p.enumeration === undefined && s.values.some(([n]) => n === p.name),
    );
    return number === undefined
      ? undefined
      : { request: replaceFirst(s, number.name, NOT_A_NUMBER), found: { param: number.name, xsd: number.xsd } };
  },
  'unknown-enum': (s) => {
    const enumerated = s.http.params.find(
      (p) =>
        p.form === 'xml' &&
        p.enumeration !== undefined &&
        p.enumeration.length > 0 &&
        s.values.some(([n]) => n === p.name),
    );
    return enumerated === undefined
      ? undefined
      : { request: replaceFirst(s, enumerated.name, UNKNOWN_ENUM), found: { param: enumerated.name } };
  },
};

export function knowsInvalidValueAlteration(soap: boolean, sends: string): boolean {
  return Object.hasOwn(soap ? SOAP_ALTERATIONS : HTTP_ALTERATIONS, sends);
}

function soapSource(ctx: CaseContext): SoapSource | undefined {
  const op = ctx.contract.operation;
  if (op.input.kind !== 'element') return undefined;
  const element = ctx.descriptor.elements[op.input.element];
  if (element === undefined) return undefined;
  const plain = positiveRequest(ctx.descriptor, ctx.contract, ctx.basePath, ctx.plain);
  return { ctx, plain, root: element.name.local, value: element.value };
}

function spoiledCases<Source>(
  ctx: CaseContext,
  source: Source | undefined,
  alterations: Readonly<Record<string, Alteration<Source>>>,
): Case[] {
  if (source === undefined) return [];
  return kindsFor(ctx, INVALID_VALUE_KINDS).flatMap((kind) => {
    const spoiled = alterations[kind.sends]!(source);
    return spoiled === undefined ? [] : [caseOfKind(ctx, kind, spoiled.request, spoiled.found)];
  });
}

export function invalidValueCases(ctx: CaseContext): Case[] {
  const soap = ctx.contract.protocol === 'soap11' || ctx.contract.protocol === 'soap12';
  if (soap) return spoiledCases(ctx, soapSource(ctx), SOAP_ALTERATIONS);
  const http = ctx.contract.http;
  const source = http === undefined ? undefined : { ctx, http, values: httpParams(ctx.contract, ctx.plain) };
  return spoiledCases(ctx, source, HTTP_ALTERATIONS);
}
