/**
 * The input of each operation (one object per method, the same on every binding, as the runtime
 * takes it) and its SOAP header blocks, for a sample variant: the schema's samples with the
 * user's values laid over them, converted by `valueFromJson` (runtime/codec/json.ts) so that
 * every value is checked against the descriptor.
 *
 * A conversion error in a value the user gave is the user's to fix: a CONFORMANCE_INPUTS error
 * naming the operation and the path (exit 2). One in a value the runner built is the runner's
 * limit: the operation's cases are skipped with the reason, and the run goes on.
 */
import type {
  ElementDescriptor,
  HeaderDescriptor,
  OperationDescriptor,
  ServiceDescriptor,
} from '../../runtime/descriptor.js';
import { CodecError, valueFromJson } from '../../runtime/index.js';
import { complexOf, type InputParam, type OperationContract } from './operation-contract.js';
import { ConformanceError } from '../errors.js';
import { bindInputs, type ConformanceInputs, type OperationInputs } from './inputs.js';
import { newFeatures, PLAIN_TEXT, sampleValue, type SampleFeatures, type SampleVariant } from './samples.js';
import { NO_FACTS, type SchemaFacts } from './schema-facts.js';

export interface BuiltInput {
  /** The runtime's input object. */
  readonly input: unknown;
  /** SOAP header blocks by header property (every declared input header). */
  readonly soapHeaders: Readonly<Record<string, unknown>>;
  /** The same as JSON (for the negative cases, which alter one value). */
  readonly json: unknown;
}

export type InputResult = BuiltInput | { readonly unusable: string };

/** What one method takes: its input value (the SOAP wrapper, or the HTTP parameters) and its headers. */
interface MethodShape {
  readonly method: string;
  /** The SOAP input element's value; undefined when the method has only HTTP bindings. */
  readonly element?: ElementDescriptor;
  readonly elementKey?: string;
  readonly params: readonly InputParam[];
  readonly headers: readonly { readonly header: HeaderDescriptor; readonly element: ElementDescriptor }[];
}

export interface MethodInputs {
  readonly method: string;
  /** What the typical sample holds, headers included (decides which variants get a case on SOAP). */
  readonly features: SampleFeatures;
  /** The same for the input alone (HTTP GET/POST carry no SOAP headers). */
  readonly inputFeatures: SampleFeatures;
  build(variant: SampleVariant): InputResult;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Deep merge: `over` wins; objects merge member by member; arrays and values replace. */
function mergeJson(base: unknown, over: unknown): unknown {
  if (over === undefined) return base;
  if (!isRecord(base) || !isRecord(over)) return over;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) out[key] = mergeJson(out[key], value);
  return out;
}

/** `{"a/b": 1}` -> `{a: {b: 1}}`, recursively: inputs may name values by path. */
function expandPaths(json: unknown): unknown {
  if (Array.isArray(json)) return json.map(expandPaths);
  if (!isRecord(json)) return json;
  let out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(json)) {
    const segments = key.split('/').filter((s) => s !== '');
    let nested: unknown = expandPaths(value);
    for (const segment of segments.slice(1).reverse()) nested = { [segment]: nested };
    out = mergeJson(out, { [segments[0] ?? key]: nested }) as Record<string, unknown>;
  }
  return out;
}

function methodShapes(d: ServiceDescriptor, contracts: readonly OperationContract[]): Map<string, MethodShape> {
  const shapes = new Map<string, MethodShape>();
  for (const contract of contracts) {
    if (contract.unusable !== undefined) continue;
    const op = contract.operation;
    const existing = shapes.get(op.method);
    if (existing?.element !== undefined) continue;
    const soap = op.input.kind === 'element' ? op : undefined;
    if (soap === undefined && existing !== undefined) continue;
    shapes.set(
      op.method,
      soap === undefined
        ? { method: op.method, params: contract.params, headers: [] }
        : soapShape(d, soap, contract.params),
    );
  }
  return shapes;
}

function soapShape(d: ServiceDescriptor, op: OperationDescriptor, params: readonly InputParam[]): MethodShape {
  const key = op.input.kind === 'element' ? op.input.element : '';
  const headers = op.inputHeaders.flatMap((header) => {
    const element = d.elements[header.element];
    return element === undefined ? [] : [{ header, element }];
  });
  return { method: op.method, element: d.elements[key]!, elementKey: `element:${key}`, params, headers };
}

/** Text from a flag, as the member's JSON: arrays and complex values may be given as JSON. */
function flagJson(d: ServiceDescriptor, param: InputParam | undefined, text: string, isPath: boolean): unknown {
  if (param === undefined || isPath) return text;
  const structured = param.maxOccurs !== 1 || complexOf(d, param.value) !== undefined;
  if (!structured) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text; // the conversion then says what was expected
  }
}

interface UserValues {
  readonly input: Record<string, unknown>;
  readonly headers: Record<string, unknown>;
}

function userValues(
  d: ServiceDescriptor,
  inputs: ConformanceInputs,
  shape: MethodShape,
  names: readonly string[],
  allParams: readonly string[],
): UserValues {
  const ops = inputs.operations ?? {};
  const own =
    ops[shape.method] ?? Object.entries(ops).find(([name]) => name === names[0])?.[1] ?? ({} as OperationInputs);
  const every = ops['*'] ?? {};
  const paramNames = shape.params.map((p) => p.name);
  // `*` applies to the operations that have the parameter (by name or property).
  const known = new Set([...paramNames, ...shape.params.map((p) => p.prop)]);
  const everyInput = Object.fromEntries(
    Object.entries(expandPaths(every.input ?? {}) as Record<string, unknown>).filter(([k]) => known.has(k)),
  );
  const headerNames = new Set(shape.headers.flatMap((h) => [h.header.prop, h.element.name.local]));
  const everyHeaders = Object.fromEntries(Object.entries(every.headers ?? {}).filter(([k]) => headerNames.has(k)));
  const flags: Record<string, unknown> = {};
  for (const [target, text] of bindInputs(inputs, paramNames, allParams)) {
    const isPath = target.includes('/');
    const param = shape.params.find((p) => p.name === (isPath ? target.slice(0, target.indexOf('/')) : target));
    const prop = param?.prop ?? target;
    Object.assign(
      flags,
      expandPaths({
        [isPath ? `${prop}${target.slice(target.indexOf('/'))}` : prop]: flagJson(d, param, text, isPath),
      }),
    );
  }
  const input = mergeJson(mergeJson(everyInput, expandPaths(own.input ?? {})), flags) as Record<string, unknown>;
  const headers = mergeJson(everyHeaders, own.headers ?? {}) as Record<string, unknown>;
  return { input, headers };
}

/** Builds every method's inputs for the catalogue; user mistakes throw, the runner's limits become `unusable`. */
export function methodInputs(
  d: ServiceDescriptor,
  contracts: readonly OperationContract[],
  inputs: ConformanceInputs,
  facts: SchemaFacts = NO_FACTS,
): Map<string, MethodInputs> {
  const shapes = methodShapes(d, contracts);
  const allParams = contracts.flatMap((p) => p.params.map((q) => q.name));
  checkOperationNames(inputs, contracts);
  const out = new Map<string, MethodInputs>();
  for (const shape of shapes.values()) {
    const names = [
      ...new Set(contracts.filter((p) => p.operation.method === shape.method).map((p) => p.operation.name)),
    ];
    const user = userValues(d, inputs, shape, names, allParams);
    out.set(shape.method, forMethod(d, facts, shape, user, inputs.source));
  }
  return out;
}

function checkOperationNames(inputs: ConformanceInputs, contracts: readonly OperationContract[]): void {
  const known = new Set(contracts.flatMap((p) => [p.operation.method, p.operation.name]));
  for (const [name, spec] of Object.entries(inputs.operations ?? {})) {
    if (name !== '*' && !known.has(name))
      refuse(
        inputs.source,
        `${name}: no such operation (operations: ${[...new Set(contracts.map((p) => p.operation.method))].join(', ')})`,
      );
    for (const key of Object.keys(spec as object)) {
      if (key !== 'input' && key !== 'headers')
        refuse(inputs.source, `${name}/${key}: unknown key (an operation takes "input" and "headers")`);
    }
  }
}

function refuse(source: string | undefined, message: string): never {
  throw new ConformanceError('CONFORMANCE_INPUTS', source === undefined ? message : `${source}: ${message}`);
}

function forMethod(
  d: ServiceDescriptor,
  facts: SchemaFacts,
  shape: MethodShape,
  user: UserValues,
  source: string | undefined,
): MethodInputs {
  const typical = sampleInput(d, facts, shape, { kind: 'typical', text: PLAIN_TEXT }, user);
  const cache = new Map<string, InputResult>();
  return {
    method: shape.method,
    features: typical.features,
    inputFeatures: typical.inputFeatures,
    build(variant) {
      const key = JSON.stringify(variant);
      let result = cache.get(key);
      if (result === undefined) {
        result = convert(d, facts, shape, variant, user, source);
        cache.set(key, result);
      }
      return result;
    },
  };
}

interface SampledInput {
  readonly input: unknown;
  readonly headers: Record<string, unknown>;
  readonly features: SampleFeatures;
  readonly inputFeatures: SampleFeatures;
  readonly problems: readonly string[];
}

function addFeatures(into: SampleFeatures, from: SampleFeatures): void {
  into.freeText ||= from.freeText;
  into.arrays ||= from.arrays;
  into.nillable ||= from.nillable;
  for (const k of from.derived) into.derived.add(k);
}

function sampleInput(
  d: ServiceDescriptor,
  facts: SchemaFacts,
  shape: MethodShape,
  variant: SampleVariant,
  user: UserValues,
): SampledInput {
  const features = newFeatures();
  const problems: string[] = [];
  const absorb = (result: ReturnType<typeof sampleValue>): unknown => {
    addFeatures(features, result.features);
    problems.push(...result.problems.map((p) => `${p.path}: ${p.reason}`));
    return result.json;
  };
  const input =
    shape.element !== undefined
      ? absorb(sampleValue(d, facts, variant, shape.element.value, user.input, shape.method))
      : paramsSample(d, facts, variant, shape, user, absorb);
  const inputFeatures = newFeatures();
  addFeatures(inputFeatures, features);
  const headers: Record<string, unknown> = {};
  for (const { header, element } of shape.headers) {
    const given = user.headers[header.prop] ?? user.headers[element.name.local];
    headers[header.prop] = absorb(
      sampleValue(d, facts, variant, element.value, given, `${shape.method}/Header/${element.name.local}`),
    );
  }
  return { input, headers, features, inputFeatures, problems };
}

/** HTTP-only methods: the parameters as a record (no SOAP wrapper to sample). */
function paramsSample(
  d: ServiceDescriptor,
  facts: SchemaFacts,
  variant: SampleVariant,
  shape: MethodShape,
  user: UserValues,
  absorb: (r: ReturnType<typeof sampleValue>) => unknown,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of shape.params)
    out[p.prop] = absorb(
      sampleValue(d, facts, variant, p.value, user.input[p.prop] ?? user.input[p.name], `${shape.method}/${p.name}`),
    );
  for (const [key, value] of Object.entries(user.input))
    if (!shape.params.some((p) => p.prop === key || p.name === key)) out[key] = value;
  return out;
}

function convertInput(d: ServiceDescriptor, shape: MethodShape, json: unknown): unknown {
  if (shape.element !== undefined)
    return valueFromJson(d, shape.element.value, json, shape.element.nillable, shape.method);
  const record = (json ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    const p = shape.params.find((q) => q.prop === key || q.name === key);
    if (p === undefined)
      throw new CodecError(
        'CODEC_UNEXPECTED',
        `${shape.method}/${key}`,
        `not a parameter (parameters: ${shape.params.map((q) => q.name).join(', ')})`,
      );
    out[p.prop] = valueFromJson(d, p.value, value, false, `${shape.method}/${p.name}`);
  }
  return out;
}

function convertHeaders(
  d: ServiceDescriptor,
  shape: MethodShape,
  json: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { header, element } of shape.headers) {
    out[header.prop] = valueFromJson(
      d,
      element.value,
      json[header.prop],
      element.nillable,
      `${shape.method}/Header/${element.name.local}`,
    );
  }
  return out;
}

function convert(
  d: ServiceDescriptor,
  facts: SchemaFacts,
  shape: MethodShape,
  variant: SampleVariant,
  user: UserValues,
  source: string | undefined,
): InputResult {
  const sampled = sampleInput(d, facts, shape, variant, user);
  const unknownHeaders = Object.keys(user.headers).filter(
    (k) => !shape.headers.some((h) => h.header.prop === k || h.element.name.local === k),
  );
  if (unknownHeaders.length > 0) {
    refuse(
      source,
      `${shape.method}/Header/${unknownHeaders[0]}: ${shape.method} declares no such SOAP header (${shape.headers.map((h) => h.header.prop).join(', ') || 'it declares none'})`,
    );
  }
  try {
    const input = convertInput(d, shape, sampled.input);
    const soapHeaders = convertHeaders(d, shape, sampled.headers);
    if (sampled.problems.length > 0)
      return { unusable: `cannot build a value: ${sampled.problems[0]} (give one with --inputs)` };
    return { input, soapHeaders, json: sampled.input };
  } catch (error) {
    if (!(error instanceof CodecError)) throw error;
    // Without the user's values, does the sample convert? Then the user's value is the mistake.
    const alone = sampleInput(d, facts, shape, variant, { input: {}, headers: {} });
    try {
      convertInput(d, shape, alone.input);
      convertHeaders(d, shape, alone.headers);
    } catch {
      return { unusable: `cannot build a value: ${error.message}` };
    }
    return refuse(source, error.message);
  }
}
