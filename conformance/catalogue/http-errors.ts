/**
 * The negative and COMPAT cases of an HTTP GET/POST binding (the rows of HTTP_NEGATIVE_KINDS):
 * a parameter left out, an unsupported method, the parameters in reverse order.
 */
import type { Case, RequestSpec } from '../types.js';
import type { CaseContext } from './case-context.js';
import { HTTP_NEGATIVE_KINDS } from './case-kinds.js';
import { caseOfKind, type Found, kindsFor } from './kind-case.js';
import { httpParams, httpRequestWithParams, type ParamValues, reverseParams } from './requests.js';

interface HttpSource {
  readonly ctx: CaseContext;
  readonly values: ParamValues;
  /** The parameter names, each once, in order. */
  readonly names: readonly string[];
}

type Alteration = (s: HttpSource) => { readonly request: RequestSpec; readonly found?: Found } | undefined;

const withValues = (s: HttpSource, values: ParamValues): RequestSpec =>
  httpRequestWithParams(s.ctx.contract, s.ctx.basePath, values);

const HTTP_ALTERATIONS: Readonly<Record<string, Alteration>> = {
  'without-last-parameter': (s) => {
    const last = s.names[s.names.length - 1];
    return last === undefined
      ? undefined
      : {
          request: withValues(
            s,
            s.values.filter(([name]) => name !== last),
          ),
          found: { param: last },
        };
  },
  'put-without-query': (s) => {
    const plain = withValues(s, s.values);
    return { request: { ...plain, method: 'PUT', path: plain.path.split('?')[0]!, body: plain.body ?? '' } };
  },
  // Only an operation with two parameters or more has another order.
  'reversed-parameters': (s) => (s.names.length > 1 ? { request: withValues(s, reverseParams(s.values)) } : undefined),
};

export function knowsHttpAlteration(sends: string): boolean {
  return Object.hasOwn(HTTP_ALTERATIONS, sends);
}

export function httpNegativeCases(ctx: CaseContext): Case[] {
  const values = httpParams(ctx.contract, ctx.plain);
  const source: HttpSource = { ctx, values, names: [...new Set(values.map(([name]) => name))] };
  return kindsFor(ctx, HTTP_NEGATIVE_KINDS).flatMap((kind) => {
    const altered = HTTP_ALTERATIONS[kind.sends]!(source);
    return altered === undefined ? [] : [caseOfKind(ctx, kind, altered.request, altered.found)];
  });
}
