/**
 * The case catalogue: data derived from a `ServiceDescriptor` (which is derived from the WSDL
 * model), validated when built. Nothing names a service, an operation or a namespace: for every
 * binding × operation it lays out the positive cases (one per text variant), the negative cases
 * that binding's protocol defines, and the COMPAT cases; plus one `wsdl/structure` case.
 *
 * Ids are paths: `<Operation>/<binding>/<group>/<name>`, group ∈ ok | fault | error | compat.
 */
import type { ServiceDescriptor } from '../runtime/descriptor.js';
import { addressPath } from '../runtime/wire.js';
import { planOperations, type OperationPlan } from './contract.js';
import { ConformanceError } from './errors.js';
import { bindInputs, type ConformanceInputs } from './inputs.js';
import { httpRequestWithParams, positiveRequest } from './requests.js';
import { soapNegativeCases } from './catalogue-soap.js';
import { TEXT_VARIANTS, type TextVariant } from './variants.js';
import { plainValues, valuesFor, type CaseContext } from './case-context.js';
import { summarizeDescriptor } from './wsdl-summary.js';
import type { Case, Level } from './types.js';

export interface CatalogueOptions {
  readonly descriptor: ServiceDescriptor;
  readonly inputs: ConformanceInputs;
  /** Endpoint path on the target (e.g. `/serviceapi.asmx`); default: the WSDL address's path. */
  readonly basePath?: string;
  /** The server's body limit the over-size cases exceed (default 4 MiB). */
  readonly maxBodyBytes?: number;
}

export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

function positiveCase(ctx: CaseContext, variant: TextVariant): Case {
  return {
    id: `${ctx.prefix}/ok/${variant.name}`,
    operation: ctx.plan.operation.name,
    binding: ctx.plan.protocol,
    level: 'must',
    description: `a correct ${ctx.plan.operation.name} request over ${ctx.plan.protocol} with ${variant.description}`,
    request: positiveRequest(ctx.descriptor, ctx.plan, ctx.basePath, valuesFor(ctx, variant.text)),
    expect: { kind: 'success', shape: ctx.plan.success, allowRefusal: variant.mayBeRefused },
  };
}

function httpCase(ctx: CaseContext, group: string, name: string, level: Level, description: string, fields: Omit<Case, 'id' | 'operation' | 'binding' | 'level' | 'description'>): Case {
  return { id: `${ctx.prefix}/${group}/${name}`, operation: ctx.plan.operation.name, binding: ctx.plan.protocol, level, description, ...fields };
}

/** GET/POST: a missing parameter, an unsupported method, parameters in reverse order. */
function httpNegativeCases(ctx: CaseContext): Case[] {
  const values = plainValues(ctx);
  const cases: Case[] = [];
  const last = values[values.length - 1];
  if (last !== undefined) {
    cases.push(
      httpCase(ctx, 'error', 'missing-parameter', 'compat', `a request without the parameter ${last[0]}`, {
        request: httpRequestWithParams(ctx.plan, ctx.basePath, values.slice(0, -1)),
        expect: { kind: 'http-error', acceptStatuses: [500], message: `Missing parameter: ${last[0]}.` },
      }),
    );
  }
  const plain = positiveRequest(ctx.descriptor, ctx.plan, ctx.basePath, values);
  cases.push(
    httpCase(ctx, 'error', 'unsupported-method', 'should', 'a PUT request to the operation path', {
      request: { ...plain, method: 'PUT', path: plain.path.split('?')[0]!, body: plain.body ?? '' },
      expect: { kind: 'http-error', acceptStatuses: [405, 501] },
    }),
  );
  if (values.length > 1) {
    cases.push(
      httpCase(ctx, 'compat', 'any-order', 'compat', 'a correct request with the parameters in reverse order', {
        request: httpRequestWithParams(ctx.plan, ctx.basePath, [...values].reverse()),
        expect: { kind: 'success', shape: ctx.plan.success, allowRefusal: false },
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
    request: { method: 'GET', path: `${basePath}?wsdl`, headers: {} },
    expect: { kind: 'wsdl', contract: summarizeDescriptor(descriptor) },
  };
}

/** The endpoint path: the one given, else the path of the first binding address in the WSDL. */
export function endpointPath(descriptor: ServiceDescriptor, basePath: string | undefined): string {
  if (basePath !== undefined && basePath !== '' && basePath !== '/') return basePath.replace(/\/+$/, '');
  const address = descriptor.bindings.find((b) => b.address !== undefined)?.address;
  return address === undefined ? '' : addressPath(address);
}

export function buildCatalogue(options: CatalogueOptions): Case[] {
  const { descriptor } = options;
  const basePath = endpointPath(descriptor, options.basePath);
  const plans = planOperations(descriptor);
  const allParams = plans.flatMap((p) => p.params.map((q) => q.name));
  const cases: Case[] = [];
  for (const plan of plans) {
    const ctx: CaseContext = {
      descriptor,
      plan,
      basePath,
      bound: bindInputs(options.inputs, plan.params.map((p) => p.name), allParams),
      maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      prefix: `${plan.operation.name}/${plan.protocol}`,
    };
    const hasFreeParam = plan.params.some((p) => !ctx.bound.has(p.name));
    // Without a free parameter every variant would send the plain request again.
    const variants = hasFreeParam ? TEXT_VARIANTS : TEXT_VARIANTS.slice(0, 1);
    for (const variant of variants) cases.push(positiveCase(ctx, variant));
    cases.push(...(plan.protocol === 'soap11' || plan.protocol === 'soap12' ? soapNegativeCases(ctx) : httpNegativeCases(ctx)));
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
    const problem =
      !ID_PATTERN.test(c.id) ? 'the id is not a path of [A-Za-z0-9_.-] segments' :
      seen.has(c.id) ? 'the id is used twice' :
      !c.request.path.startsWith('/') ? 'the request path must start with /' :
      c.expect.kind === 'fault' && c.binding !== 'soap11' && c.binding !== 'soap12' ? 'a fault is expected on a binding without SOAP' :
      c.expect.kind === 'success' && (c.expect.shape.kind === 'soap') !== (c.binding === 'soap11' || c.binding === 'soap12') ? 'the success shape does not match the binding' :
      undefined;
    if (problem !== undefined) throw new ConformanceError('CONFORMANCE_CATALOGUE', `case ${c.id}: ${problem}`);
    seen.add(c.id);
  }
}
