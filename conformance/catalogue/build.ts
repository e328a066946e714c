/**
 * The case catalogue: data derived from a `ServiceDescriptor` (which is derived from the WSDL
 * model), validated when built. Nothing names a service, an operation or a namespace: for every
 * binding × operation it lays out the positive cases (one per variant of the input the
 * operation's schema makes worth sending), the negative cases that binding's protocol and the
 * input's types define, and the COMPAT cases; plus one `wsdl/structure` case.
 *
 * Ids are paths: `<method>/<binding>/<group>/<name>`, group ∈ ok | fault | error | invalid | compat.
 * An operation (or a variant) the runner cannot exercise keeps its id and is skipped with why.
 */
import type { ServiceDescriptor } from '../../runtime/descriptor.js';
import { CodecError } from '../../runtime/index.js';
import { addressPath } from '../../runtime/wire.js';
import { isBuilt, type CaseContext } from './case-context.js';
import { operationContracts, type OperationContract } from './operation-contract.js';
import { ConformanceError } from '../errors.js';
import type { ConformanceInputs } from './inputs.js';
import { methodInputs } from './operation-input.js';
import { httpParams, httpRequestWithParams, positiveRequest, reverseParams } from './requests.js';
import { invalidValueCases } from './invalid-values.js';
import { soapNegativeCases } from './soap-faults.js';
import { PLAIN_TEXT, type SampleVariant } from './samples.js';
import { NO_FACTS, type SchemaFacts } from './schema-facts.js';
import { TEXT_VARIANTS } from './variants.js';
import { summarizeDescriptor } from '../validate/wsdl-summary.js';
import type { Case, Expectation, Level, RequestSpec } from '../types.js';

export interface CatalogueOptions {
  readonly descriptor: ServiceDescriptor;
  readonly inputs: ConformanceInputs;
  /** Endpoint path on the target (e.g. `/service.asmx`); default: the WSDL address's path. */
  readonly basePath?: string;
  /** The server's body limit the over-size cases exceed (default 4 MiB). */
  readonly maxBodyBytes?: number;
  /** Facets and list items from the WSDL model, for sample values (default: none). */
  readonly facts?: SchemaFacts;
  /** Every result element is required in an answer (the built-in contract's rule; see operation-contract.ts). */
  readonly requireResults?: boolean;
}

const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** ASMX refuses a query string over 2048 characters (httpRuntime maxQueryStringLength) with a 400 HTML page. */
const ASMX_MAX_QUERY = 2048;

/** One positive variant: its id segment, what it sends, and whether the service may refuse it. */
interface PositiveVariant {
  readonly name: string;
  readonly description: string;
  readonly sample: SampleVariant;
  readonly mayBeRefused: boolean;
  readonly level: Level;
  /** Declared headers sent marked mustUnderstand. */
  readonly mustUnderstand?: boolean;
}

function isSoap(contract: OperationContract): boolean {
  return contract.protocol === 'soap11' || contract.protocol === 'soap12';
}

function tagOf(d: ServiceDescriptor, key: string): string {
  const type = d.types[key];
  return (type?.kind === 'complex' ? type.tag : undefined) ?? key.slice(key.lastIndexOf('}') + 1);
}

/** The variants worth a case for this operation on this binding, from what its input holds. */
function variantsOf(ctx: Pick<CaseContext, 'contract' | 'inputs' | 'descriptor'>): PositiveVariant[] {
  const soap = isSoap(ctx.contract);
  const features = soap ? ctx.inputs.features : ctx.inputs.inputFeatures;
  const out: PositiveVariant[] = TEXT_VARIANTS.filter((_, i) => i === 0 || features.freeText).map((v) => ({
    name: v.name,
    description: v.description,
    sample: { kind: 'typical', text: v.text },
    mayBeRefused: v.mayBeRefused,
    level: 'must',
  }));
  if (features.arrays) {
    // An empty array has no form on HTTP GET/POST (an absent parameter, which ASMX refuses).
    if (soap)
      out.push({
        name: 'arrays-empty',
        description: 'every array empty',
        sample: { kind: 'arrays', count: 0 },
        mayBeRefused: true,
        level: 'must',
      });
    out.push({
      name: 'arrays-one',
      description: 'every array with one item',
      sample: { kind: 'arrays', count: 1 },
      mayBeRefused: true,
      level: 'must',
    });
    out.push({
      name: 'arrays-many',
      description: 'every array with five items',
      sample: { kind: 'arrays', count: 5 },
      mayBeRefused: true,
      level: 'must',
    });
  }
  // xsi:nil and derived types travel only in XML: SOAP.
  if (soap && features.nillable)
    out.push({
      name: 'nil',
      description: 'xsi:nil in every nillable element',
      sample: { kind: 'nil' },
      mayBeRefused: true,
      level: 'must',
    });
  if (soap) {
    for (const key of features.derived) {
      out.push({
        name: `derived-${tagOf(ctx.descriptor, key)}`,
        description: `the derived type ${tagOf(ctx.descriptor, key)} (xsi:type) wherever it is allowed`,
        sample: { kind: 'derived', type: key },
        mayBeRefused: false,
        level: 'must',
      });
    }
  }
  if (soap && ctx.contract.operation.inputHeaders.length > 0) {
    out.push({
      name: 'headers-must-understand',
      description: 'the declared SOAP headers marked mustUnderstand',
      sample: { kind: 'typical', text: PLAIN_TEXT },
      mayBeRefused: false,
      level: 'should',
      mustUnderstand: true,
    });
  }
  return out;
}

function caseBase(
  ctx: Pick<CaseContext, 'contract' | 'prefix' | 'caseName'>,
  group: string,
  name: string,
  level: Level,
  description: string,
): Pick<Case, 'id' | 'operation' | 'binding' | 'level' | 'description'> {
  return {
    id: `${ctx.prefix}/${group}/${name}`,
    operation: ctx.caseName,
    binding: ctx.contract.protocol,
    level,
    description,
  };
}

/** A case that keeps its id and is reported as skipped with `reason`. */
function unusableCase(
  ctx: Pick<CaseContext, 'contract' | 'prefix' | 'basePath' | 'caseName'>,
  group: string,
  name: string,
  level: Level,
  description: string,
  reason: string,
): Case {
  return {
    ...caseBase(ctx, group, name, level, description),
    request: { method: 'GET', path: ctx.basePath.startsWith('/') ? ctx.basePath : `/${ctx.basePath}`, headers: {} },
    expect: { kind: 'success', shape: { kind: 'empty' }, allowRefusal: false },
    unusable: reason,
  };
}

/**
 * The SOAP headers an operation declares on the service's SOAP bindings, when `ctx` is its HTTP
 * GET/POST contract: none of them can be sent there.
 */
function unsendableHeaders(ctx: CaseContext): readonly string[] {
  if (ctx.contract.protocol !== 'http-get' && ctx.contract.protocol !== 'http-post') return [];
  const headers = new Set<string>();
  for (const binding of ctx.descriptor.bindings) {
    if (binding.protocol !== 'soap11' && binding.protocol !== 'soap12') continue;
    const same = binding.operations.find((op) => op.name === ctx.contract.operation.name);
    for (const header of same?.inputHeaders ?? []) headers.add(header.prop);
  }
  return [...headers];
}

/** A positive case's expectation; an operation with SOAP headers may be refused over HTTP. */
function positiveExpectation(ctx: CaseContext, allowRefusal: boolean): Extract<Expectation, { kind: 'success' }> {
  const headers = unsendableHeaders(ctx);
  return headers.length === 0
    ? { kind: 'success', shape: ctx.contract.success, allowRefusal }
    : { kind: 'success', shape: ctx.contract.success, allowRefusal: true, soapHeadersOnly: headers };
}

/** GET query strings ASMX refuses for their length: a 400 (or 414) is then an accepted refusal. */
function successExpectation(ctx: CaseContext, request: RequestSpec, allowRefusal: boolean): Expectation {
  const query = request.path.includes('?') ? request.path.slice(request.path.indexOf('?') + 1) : '';
  if (ctx.contract.protocol !== 'http-get' || query.length <= ASMX_MAX_QUERY)
    return positiveExpectation(ctx, allowRefusal);
  const why = `the query string (${query.length} characters) is over ASMX's ${ASMX_MAX_QUERY}-character limit`;
  return {
    ...positiveExpectation(ctx, allowRefusal),
    kind: 'success',
    acceptStatuses: [
      { status: 400, why },
      { status: 414, why },
    ],
  };
}

function positiveCase(ctx: CaseContext, variant: PositiveVariant): Case {
  const description = `a correct ${ctx.contract.operation.name} request over ${ctx.contract.protocol} with ${variant.description}`;
  const built = ctx.inputs.build(variant.sample);
  if (!isBuilt(built)) return unusableCase(ctx, 'ok', variant.name, variant.level, description, built.unusable);
  let request: RequestSpec;
  try {
    const mustUnderstand =
      variant.mustUnderstand === true ? ctx.contract.operation.inputHeaders.map((h) => h.prop) : undefined;
    request = positiveRequest(ctx.descriptor, ctx.contract, ctx.basePath, built, mustUnderstand);
  } catch (error) {
    if (!(error instanceof CodecError)) throw error;
    return unusableCase(
      ctx,
      'ok',
      variant.name,
      variant.level,
      description,
      `cannot be sent over ${ctx.contract.protocol}: ${error.message}`,
    );
  }
  return {
    ...caseBase(ctx, 'ok', variant.name, variant.level, description),
    request,
    expect: successExpectation(ctx, request, variant.mayBeRefused),
  };
}

function httpCase(
  ctx: CaseContext,
  group: string,
  name: string,
  level: Level,
  description: string,
  fields: Pick<Case, 'request' | 'expect'>,
): Case {
  return { ...caseBase(ctx, group, name, level, description), ...fields };
}

/** GET/POST: a missing parameter, an unsupported method, parameters in reverse order. */
function httpNegativeCases(ctx: CaseContext): Case[] {
  const values = httpParams(ctx.contract, ctx.plain);
  const names = [...new Set(values.map(([name]) => name))];
  const cases: Case[] = [];
  const last = names[names.length - 1];
  if (last !== undefined) {
    cases.push(
      httpCase(ctx, 'error', 'missing-parameter', 'compat', `a request without the parameter ${last}`, {
        request: httpRequestWithParams(
          ctx.contract,
          ctx.basePath,
          values.filter(([name]) => name !== last),
        ),
        expect: { kind: 'http-error', acceptStatuses: [500], message: `Missing parameter: ${last}.` },
      }),
    );
  }
  const plain = httpRequestWithParams(ctx.contract, ctx.basePath, values);
  cases.push(
    httpCase(ctx, 'error', 'unsupported-method', 'should', 'a PUT request to the operation path', {
      request: { ...plain, method: 'PUT', path: plain.path.split('?')[0]!, body: plain.body ?? '' },
      expect: { kind: 'http-error', acceptStatuses: [405, 501] },
    }),
  );
  if (names.length > 1) {
    cases.push(
      httpCase(ctx, 'compat', 'any-order', 'compat', 'a correct request with the parameters in reverse order', {
        request: httpRequestWithParams(ctx.contract, ctx.basePath, reverseParams(values)),
        expect: positiveExpectation(ctx, false),
      }),
    );
  }
  return cases;
}

function wsdlCase(descriptor: ServiceDescriptor, basePath: string): Case {
  return {
    id: 'wsdl/structure',
    operation: descriptor.name,
    binding: 'wsdl',
    level: 'should',
    description: `the server's ${basePath}?wsdl describes the same contract`,
    request: { method: 'GET', path: `${basePath === '' ? '/' : basePath}?wsdl`, headers: {} },
    expect: { kind: 'wsdl', contract: summarizeDescriptor(descriptor) },
  };
}

/** The endpoint path: the one given, else the path of the first binding address in the WSDL. */
export function endpointPath(descriptor: ServiceDescriptor, basePath: string | undefined): string {
  if (basePath !== undefined && basePath !== '' && basePath !== '/') return basePath.replace(/\/+$/, '');
  const address = descriptor.bindings.find((b) => b.address !== undefined)?.address;
  return address === undefined ? '' : addressPath(address);
}

function operationCases(ctx: Omit<CaseContext, 'plain'>): Case[] {
  const plainDescription = `a correct ${ctx.contract.operation.name} request over ${ctx.contract.protocol}`;
  const plain = ctx.inputs.build({ kind: 'typical', text: PLAIN_TEXT });
  if (!isBuilt(plain)) return [unusableCase(ctx, 'ok', 'plain', 'must', plainDescription, plain.unusable)];
  const full: CaseContext = { ...ctx, plain };
  const cases = variantsOf(full).map((variant) => positiveCase(full, variant));
  if (cases[0]!.unusable !== undefined) return cases; // nothing can be sent: the negative cases would not either
  cases.push(...(isSoap(ctx.contract) ? soapNegativeCases(full) : httpNegativeCases(full)));
  cases.push(...invalidValueCases(full));
  return cases;
}

/**
 * An operation's name in case ids: the WSDL name; the method name (unique per service) where the
 * binding has two operations of that name (ASMX MessageName overloads: Add and AddDoubles).
 */
function caseNameOf(contract: OperationContract): string {
  const op = contract.operation;
  const overloaded = contract.binding.operations.filter((o) => o.name === op.name).length > 1;
  return overloaded ? op.method : op.name;
}

export function buildCatalogue(options: CatalogueOptions): Case[] {
  const { descriptor } = options;
  const basePath = endpointPath(descriptor, options.basePath);
  const contracts = operationContracts(descriptor, { requireResults: options.requireResults ?? false });
  const inputs = methodInputs(descriptor, contracts, options.inputs, options.facts ?? NO_FACTS);
  const cases: Case[] = [];
  for (const contract of contracts) {
    const caseName = caseNameOf(contract);
    const prefix = `${caseName}/${contract.protocol}`;
    const method = inputs.get(contract.operation.method);
    if (contract.unusable !== undefined || method === undefined) {
      cases.push(
        unusableCase(
          { contract, prefix, basePath, caseName },
          'ok',
          'plain',
          'must',
          `a correct ${contract.operation.name} request over ${contract.protocol}`,
          contract.unusable ?? 'no input could be built',
        ),
      );
      continue;
    }
    const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    cases.push(...operationCases({ descriptor, contract, basePath, maxBodyBytes, caseName, prefix, inputs: method }));
  }
  cases.push(wsdlCase(descriptor, basePath));
  validateCatalogue(cases);
  return cases;
}

const ID_PATTERN = /^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)+$/;

/** Cases are data: refuse a catalogue with duplicate or malformed ids or inconsistent expectations. */
export function validateCatalogue(cases: readonly Case[]): void {
  const seen = new Set<string>();
  for (const c of cases) {
    const problem = !ID_PATTERN.test(c.id)
      ? 'the id is not a path of [A-Za-z0-9_.-] segments'
      : seen.has(c.id)
        ? 'the id is used twice'
        : !c.request.path.startsWith('/')
          ? 'the request path must start with /'
          : c.expect.kind === 'fault' && c.binding !== 'soap11' && c.binding !== 'soap12'
            ? 'a fault is expected on a binding without SOAP'
            : c.unusable === undefined &&
                c.expect.kind === 'success' &&
                c.expect.shape.kind === 'soap' &&
                c.binding !== 'soap11' &&
                c.binding !== 'soap12'
              ? 'the success shape does not match the binding'
              : c.unusable === undefined &&
                  c.expect.kind === 'success' &&
                  c.expect.shape.kind !== 'soap' &&
                  (c.binding === 'soap11' || c.binding === 'soap12')
                ? 'the success shape does not match the binding'
                : undefined;
    if (problem !== undefined) throw new ConformanceError('CONFORMANCE_CATALOGUE', `case ${c.id}: ${problem}`);
    seen.add(c.id);
  }
}
