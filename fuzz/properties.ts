/**
 * The properties a run checks: for each operation on each binding it has, one for valid inputs
 * and one for invalid ones (a valid input with one mutation). Each holds its arbitrary and turns a
 * generated value into the conformance case to send: the request (encoded by the runtime through
 * conformance's request builder) and what the answer must be (conformance's expectations, judged
 * later by conformance's checks).
 */
import fc from 'fast-check';
import type { OperationContract } from '../conformance/catalogue/operation-contract.js';
import type { BuiltInput } from '../conformance/catalogue/operation-input.js';
import { successExpectation } from '../conformance/catalogue/positive.js';
import { positiveRequest, soapVersionOf } from '../conformance/catalogue/requests.js';
import type { SchemaFacts } from '../conformance/catalogue/schema-facts.js';
import type { Case, Expectation } from '../conformance/types.js';
import type { Protocol, ServiceDescriptor } from '../runtime/descriptor.js';
import { primitiveFacts } from '../runtime/primitives.js';
import { inputArbitrary } from './generate/inputs.js';
import type { ValueArbitraries } from './generate/values.js';
import { MUTATION_KINDS, type MutationChoice, mutate } from './mutate/mutations.js';
import { targetsOf, type Targets } from './mutate/targets.js';

export type FuzzMode = 'valid' | 'invalid';
export const FUZZ_MODES: readonly FuzzMode[] = ['valid', 'invalid'];

/** One generated input: the value, and for an invalid one the mutation applied to its request. */
export interface FuzzInput {
  readonly built: BuiltInput;
  readonly mutation?: MutationChoice;
}

export interface FuzzProperty {
  /** `Operation/binding/mode`: what --path and the baseline name. */
  readonly id: string;
  readonly operation: string;
  readonly binding: Protocol;
  readonly mode: FuzzMode;
  readonly contract: OperationContract;
  readonly arbitrary: fc.Arbitrary<FuzzInput>;
}

/** The case a generated input makes, or undefined when no mutation applies to it (the run skips it). */
export type CaseOf = (property: FuzzProperty, input: FuzzInput) => { testCase: Case; mutation?: string } | undefined;

const mutationChoice: fc.Arbitrary<MutationChoice> = fc.record({
  kind: fc.constantFrom(...MUTATION_KINDS),
  index: fc.nat({ max: 63 }),
  variant: fc.nat({ max: 7 }),
});

/** The properties of every usable contract, in descriptor order. */
export function fuzzProperties(
  contracts: readonly OperationContract[],
  values: ValueArbitraries,
  modes: readonly FuzzMode[],
): FuzzProperty[] {
  return contracts.flatMap((contract) => {
    if (contract.unusable !== undefined) return [];
    const input = inputArbitrary(values, contract).map((built) => ({ built }));
    // ASMX MessageName overloads: two operations of one name on a binding are told apart by method.
    const overloaded = contract.binding.operations.filter((o) => o.name === contract.operation.name).length > 1;
    const name = overloaded ? contract.operation.method : contract.operation.name;
    return modes
      .filter((mode) => mode === 'valid' || canMutate(contract))
      .map((mode) => ({
        id: `${name}/${contract.protocol}/${mode}`,
        operation: name,
        binding: contract.protocol,
        mode,
        contract,
        arbitrary:
          mode === 'valid'
            ? input
            : fc.tuple(input, mutationChoice).map(([{ built }, mutation]) => ({ built, mutation })),
      }));
  });
}

/**
 * Whether some mutation applies to every input of the contract: on SOAP a cut document always
 * does; over HTTP a required parameter, or one whose type has an invalid text (not free text).
 */
function canMutate(contract: OperationContract): boolean {
  if (contract.protocol === 'soap11' || contract.protocol === 'soap12') return true;
  return (contract.http?.params ?? []).some(
    (p) =>
      p.required ||
      ((p.form === 'xml' || p.form === 'boolean') &&
        (p.enumeration !== undefined || primitiveFacts(p.xsd).family !== 'text')),
  );
}

function invalidExpectation(contract: OperationContract): Expectation {
  if (contract.protocol === 'soap11' || contract.protocol === 'soap12')
    return {
      kind: 'fault',
      version: soapVersionOf(contract.protocol),
      family: 'client',
      acceptAnyVersion: false,
      // SOAP/HTTP allows a plain 400 for a request the server cannot read at all.
      acceptStatuses: [400],
    };
  // ASMX answers a bad parameter with 500 text/plain; 400 is the HTTP way.
  return { kind: 'http-error', acceptStatuses: [400, 500] };
}

/** Where the mutations may strike in an input (SOAP: along the input element; HTTP: the parameters). */
function targetsFor(d: ServiceDescriptor, facts: SchemaFacts, contract: OperationContract, built: BuiltInput): Targets {
  const op = contract.operation;
  const element = op.input.kind === 'element' ? d.elements[op.input.element] : undefined;
  if (element === undefined) return { leaves: [], required: [] };
  return targetsOf(d, facts, element.value, built.input, element.name.local);
}

/** Makes the `CaseOf` of one run: the target's base path, the descriptor and the facets. */
export function caseBuilder(d: ServiceDescriptor, facts: SchemaFacts, basePath: string): CaseOf {
  return (property, input) => {
    const { contract } = property;
    const plain = positiveRequest(d, contract, basePath, input.built);
    const base = { id: property.id, operation: property.operation, binding: property.binding, level: 'must' as const };
    if (input.mutation === undefined)
      return {
        testCase: {
          ...base,
          description: `a valid ${property.operation} request over ${property.binding}`,
          request: plain,
          expect: successExpectation({ contract, descriptor: d }, plain, true),
        },
      };
    const targets = targetsFor(d, facts, contract, input.built);
    const mutated = mutate(contract, basePath, input.built, plain, targets, input.mutation);
    if (mutated === undefined) return undefined;
    return {
      testCase: {
        ...base,
        description: `an invalid ${property.operation} request over ${property.binding} (${mutated.description})`,
        request: mutated.request,
        expect: invalidExpectation(contract),
      },
      mutation: mutated.description,
    };
  };
}
