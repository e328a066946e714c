/**
 * A case from a case-kind row: the row's id, level, description and expected answer filled in
 * for one operation on one binding, around the request the row's builder made.
 */
import type { Case, Expectation, Level, RequestSpec } from '../types.js';
import type { CaseContext } from './case-context.js';
import { type CaseKind, type ExpectedAnswer, fill } from './case-kinds.js';
import { soapVersionOf } from './requests.js';

/** What a builder found in the operation, for the row's `{name}` placeholders. */
export type Found = Readonly<Record<string, string | number>>;

export function caseBase(
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
export function unusableCase(
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
function unsendableHeaders(ctx: Pick<CaseContext, 'contract' | 'descriptor'>): readonly string[] {
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
export function positiveExpectation(
  ctx: Pick<CaseContext, 'contract' | 'descriptor'>,
  allowRefusal: boolean,
): Extract<Expectation, { kind: 'success' }> {
  const headers = unsendableHeaders(ctx);
  return headers.length === 0
    ? { kind: 'success', shape: ctx.contract.success, allowRefusal }
    : { kind: 'success', shape: ctx.contract.success, allowRefusal: true, soapHeadersOnly: headers };
}

export function expectationOf(ctx: CaseContext, answer: ExpectedAnswer, found: Found): Expectation {
  if (answer.kind === 'success') return positiveExpectation(ctx, answer.mayBeRefused);
  if (answer.kind === 'http-error')
    return {
      kind: 'http-error',
      acceptStatuses: answer.acceptStatuses,
      ...(answer.message === undefined ? {} : { message: fill(answer.message, found) }),
    };
  return {
    kind: 'fault',
    version: soapVersionOf(ctx.contract.protocol),
    family: answer.family,
    acceptAnyVersion: answer.acceptAnyVersion ?? false,
    acceptStatuses: answer.acceptStatuses ?? [],
  };
}

/** The case `kind` makes for this operation, sending `request`. */
export function caseOfKind(ctx: CaseContext, kind: CaseKind, request: RequestSpec, found: Found = {}): Case {
  const [group, name] = fill(kind.id, found).split('/') as [string, string];
  return {
    ...caseBase(ctx, group, name, kind.level, fill(kind.description, found)),
    request,
    expect: expectationOf(ctx, kind.expects, found),
  };
}

/** The rows of `kinds` made for this operation's binding. */
export function kindsFor(ctx: Pick<CaseContext, 'contract'>, kinds: readonly CaseKind[]): CaseKind[] {
  return kinds.filter((kind) => kind.bindings.includes(ctx.contract.protocol));
}
