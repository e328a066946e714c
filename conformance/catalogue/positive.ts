/**
 * The positive cases of one operation on one binding (the rows of TEXT_KINDS and
 * POSITIVE_KINDS): a correct request carrying one sample of the input, made when the input has
 * what the row needs (a free text, arrays, nillable elements, derived types, SOAP headers).
 */
import type { ServiceDescriptor } from '../../runtime/descriptor.js';
import { CodecError } from '../../runtime/index.js';
import type { Case, Expectation, RequestSpec } from '../types.js';
import { type CaseContext, isBuilt } from './case-context.js';
import { type CaseKind, fill, type InputNeed, POSITIVE_KINDS, TEXT_KINDS } from './case-kinds.js';
import { caseBase, kindsFor, positiveExpectation, unusableCase } from './kind-case.js';
import { positiveRequest } from './requests.js';
import { PLAIN_TEXT, type SampleFeatures, type SampleVariant } from './samples.js';
import { TEXT_VARIANTS } from './variants.js';

/** ASMX refuses a query string over 2048 characters (httpRuntime maxQueryStringLength) with a 400 HTML page. */
const ASMX_MAX_QUERY = 2048;

/** The samples the positive rows may name; `type` is the derived type's key. */
const SAMPLES: Readonly<Record<string, (type: string) => SampleVariant>> = {
  ...Object.fromEntries(TEXT_VARIANTS.map((v) => [`text:${v.name}`, () => ({ kind: 'typical', text: v.text })])),
  'sample:arrays-empty': () => ({ kind: 'arrays', count: 0 }),
  'sample:arrays-one': () => ({ kind: 'arrays', count: 1 }),
  'sample:arrays-many': () => ({ kind: 'arrays', count: 5 }),
  'sample:nil': () => ({ kind: 'nil' }),
  'sample:derived': (type) => ({ kind: 'derived', type }),
  'sample:must-understand': () => ({ kind: 'typical', text: PLAIN_TEXT }),
};

export function knowsSample(sends: string): boolean {
  return Object.hasOwn(SAMPLES, sends);
}

/** One positive case to make: its row, and the derived type a `derived` row is made for. */
interface Variant {
  readonly kind: CaseKind;
  readonly type?: string;
  readonly tag?: string;
}

function tagOf(d: ServiceDescriptor, key: string): string {
  const type = d.types[key];
  return (type?.kind === 'complex' ? type.tag : undefined) ?? key.slice(key.lastIndexOf('}') + 1);
}

function has(ctx: CaseContext, features: SampleFeatures, need: InputNeed | undefined): boolean {
  if (need === undefined) return true;
  if (need === 'free-text') return features.freeText;
  if (need === 'arrays') return features.arrays;
  if (need === 'nillable') return features.nillable;
  if (need === 'derived') return features.derived.size > 0;
  return ctx.contract.operation.inputHeaders.length > 0;
}

/** The rows worth a case for this operation on this binding, from what its input holds. */
function variantsOf(ctx: CaseContext): Variant[] {
  const soap = ctx.contract.protocol === 'soap11' || ctx.contract.protocol === 'soap12';
  const features = soap ? ctx.inputs.features : ctx.inputs.inputFeatures;
  return kindsFor(ctx, [...TEXT_KINDS, ...POSITIVE_KINDS])
    .filter((kind) => has(ctx, features, kind.needs))
    .flatMap((kind) =>
      kind.needs === 'derived'
        ? [...features.derived].map((type) => ({ kind, type, tag: tagOf(ctx.descriptor, type) }))
        : [{ kind }],
    );
}

/** GET query strings ASMX refuses for their length: a 400 (or 414) is then an accepted refusal. */
export function successExpectation(
  ctx: Pick<CaseContext, 'contract' | 'descriptor'>,
  request: RequestSpec,
  allowRefusal: boolean,
): Expectation {
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

function positiveCase(ctx: CaseContext, variant: Variant): Case {
  const { kind } = variant;
  const found = variant.tag === undefined ? {} : { type: variant.tag };
  const name = fill(kind.id, found).slice('ok/'.length);
  const description = `a correct ${ctx.contract.operation.name} request over ${ctx.contract.protocol} with ${fill(kind.description, found)}`;
  const built = ctx.inputs.build(SAMPLES[kind.sends]!(variant.type ?? ''));
  if (!isBuilt(built)) return unusableCase(ctx, 'ok', name, kind.level, description, built.unusable);
  let request: RequestSpec;
  try {
    const mustUnderstand =
      kind.sends === 'sample:must-understand' ? ctx.contract.operation.inputHeaders.map((h) => h.prop) : undefined;
    request = positiveRequest(ctx.descriptor, ctx.contract, ctx.basePath, built, mustUnderstand);
  } catch (error) {
    if (!(error instanceof CodecError)) throw error;
    const reason = `cannot be sent over ${ctx.contract.protocol}: ${error.message}`;
    return unusableCase(ctx, 'ok', name, kind.level, description, reason);
  }
  const mayBeRefused = kind.expects.kind === 'success' && kind.expects.mayBeRefused;
  return {
    ...caseBase(ctx, 'ok', name, kind.level, description),
    request,
    expect: successExpectation(ctx, request, mayBeRefused),
  };
}

export function positiveCases(ctx: CaseContext): Case[] {
  return variantsOf(ctx).map((variant) => positiveCase(ctx, variant));
}
