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
import { addressPath } from '../../runtime/wire.js';
import { isBuilt, type CaseContext } from './case-context.js';
import { operationContracts, type OperationContract } from './operation-contract.js';
import { ConformanceError } from '../errors.js';
import type { ConformanceInputs } from './inputs.js';
import { methodInputs } from './operation-input.js';
import { invalidValueCases, knowsInvalidValueAlteration } from './invalid-values.js';
import { knowsSoapAlteration, soapNegativeCases } from './soap-faults.js';
import { httpNegativeCases, knowsHttpAlteration } from './http-errors.js';
import { knowsSample, positiveCases } from './positive.js';
import {
  HTTP_NEGATIVE_KINDS,
  INVALID_VALUE_KINDS,
  POSITIVE_KINDS,
  SOAP_NEGATIVE_KINDS,
  TEXT_KINDS,
} from './case-kinds.js';
import { assertCaseKinds, type KindTable } from './kind-check.js';
import { unusableCase } from './kind-case.js';
import { ALL_CHECKS } from '../validate/checks/index.js';
import { isSoapShape } from '../validate/checks/support.js';
import { PLAIN_TEXT } from './samples.js';
import { NO_FACTS, type SchemaFacts } from './schema-facts.js';
import { summarizeDescriptor } from '../validate/wsdl-summary.js';
import type { Case } from '../types.js';

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

const SOAP_BINDINGS: readonly string[] = ['soap11', 'soap12'];

/** The case-kind tables with the alterations their builders know: checked once, here, at load. */
export const KIND_TABLES: readonly KindTable[] = [
  { name: 'positive', kinds: [...TEXT_KINDS, ...POSITIVE_KINDS], knows: (_, sends) => knowsSample(sends) },
  { name: 'soap-negative', kinds: SOAP_NEGATIVE_KINDS, knows: (_, sends) => knowsSoapAlteration(sends) },
  { name: 'http-negative', kinds: HTTP_NEGATIVE_KINDS, knows: (_, sends) => knowsHttpAlteration(sends) },
  {
    name: 'invalid-value',
    kinds: INVALID_VALUE_KINDS,
    knows: (binding, sends) => knowsInvalidValueAlteration(SOAP_BINDINGS.includes(binding), sends),
  },
];
assertCaseKinds(KIND_TABLES, new Set(ALL_CHECKS.map((check) => check.id)));

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
  const cases = positiveCases(full);
  if (cases[0]!.unusable !== undefined) return cases; // nothing can be sent: the negative cases would not either
  const soap = SOAP_BINDINGS.includes(ctx.contract.protocol);
  cases.push(...(soap ? soapNegativeCases(full) : httpNegativeCases(full)));
  cases.push(...invalidValueCases(full));
  return ctx.contract.success.kind === 'one-way' ? cases.map(oneWayNegative) : cases;
}

/**
 * A one-way operation's negative case also accepts 202 or 200 with no envelope: WS-I BP R2714
 * forbids a one-way response any envelope, a fault too, so WCF `IsOneWay` and a JAX-WS service
 * that acknowledges first answer 202 whatever they later make of the message. A fault stays
 * right (smskit and JAX-WS fault a request they cannot read); only what was posted qualifies.
 */
function oneWayNegative(c: Case): Case {
  if (c.expect.kind !== 'fault' || c.request.method !== 'POST') return c;
  return { ...c, expect: { ...c.expect, acceptStatuses: [...c.expect.acceptStatuses, 202, 200] } };
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
                isSoapShape(c.expect.shape) &&
                c.binding !== 'soap11' &&
                c.binding !== 'soap12'
              ? 'the success shape does not match the binding'
              : c.unusable === undefined &&
                  c.expect.kind === 'success' &&
                  !isSoapShape(c.expect.shape) &&
                  (c.binding === 'soap11' || c.binding === 'soap12')
                ? 'the success shape does not match the binding'
                : undefined;
    if (problem !== undefined) throw new ConformanceError('CONFORMANCE_CATALOGUE', `case ${c.id}: ${problem}`);
    seen.add(c.id);
  }
}
