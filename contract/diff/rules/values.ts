/**
 * Rules for types and their values: a type changed or renamed, enumeration values, array item
 * names, derived and abstract types, facets.
 */
import type { Facts } from '../types.js';
import { both, fail, paramLevel, type Flow, type JudgeContext, type Judgement, ok, type Rule } from './flow.js';

function typeChanged(f: Facts, ctx: JudgeContext): Judgement | undefined {
  const level = paramLevel(ctx);
  if (level === 'root') return undefined;
  const accepts = level === undefined ? f.accepts : f.acceptsAsParam;
  if (accepts === undefined) return undefined;
  const asmx = accepts.asmx === undefined || accepts.asmx === '' ? undefined : accepts.asmx;
  const flow = (reads: boolean, why: string | undefined): Flow =>
    reads
      ? ok('{receiver} reads every value {sender} writes')
      : fail(`{receiver} cannot read every value {sender} writes: ${why ?? 'the types differ'}`, asmx);
  return { forward: flow(accepts.forward, accepts.forwardWhy), backward: flow(accepts.backward, accepts.backwardWhy) };
}

function enumValues(f: Facts, ctx: JudgeContext, added: boolean): Judgement | undefined {
  if (paramLevel(ctx) === 'root') return undefined;
  const values = (f.values ?? []).join(', ');
  const rejects = fail(
    `{sender} may write ${values}, which {receiver} rejects (not one of its enumeration values; ASMX rejects it too)`,
  );
  const fine = ok('{receiver} accepts every value {sender} writes');
  return added ? { forward: fine, backward: rejects } : { forward: rejects, backward: fine };
}

export const VALUE_RULES: readonly Rule[] = [
  { id: 'type-changed', title: 'type changed (widened, narrowed, simple <-> complex)', judge: typeChanged },
  {
    id: 'type-renamed',
    title: 'complex type renamed (same content)',
    judge: (_f, ctx) =>
      paramLevel(ctx) === 'root'
        ? undefined
        : both(ok('type names are not on the wire (xsi:type names only derived types)')),
  },
  { id: 'enum-values-added', title: 'enumeration values added', judge: (f, ctx) => enumValues(f, ctx, true) },
  { id: 'enum-values-removed', title: 'enumeration values removed', judge: (f, ctx) => enumValues(f, ctx, false) },
  {
    id: 'array-item-renamed',
    title: 'array item element renamed',
    judge: (f, ctx) =>
      paramLevel(ctx) !== undefined
        ? undefined
        : both(
            fail(
              `{receiver} expects the items named <${f.to}>, not <${f.from}>, and rejects the others`,
              'genuine ASMX skips items it does not know: the array arrives empty (silent data loss)',
            ),
          ),
  },
  {
    id: 'derived-type-added',
    title: 'derived type added',
    judge: (f) => ({
      forward: ok('{receiver} knows every type {sender} writes'),
      backward: fail(
        `{sender} may write a ${f.name} value (xsi:type), a type {receiver} does not know (ASMX refuses it too)`,
      ),
    }),
  },
  {
    id: 'derived-type-removed',
    title: 'derived type removed',
    judge: (f) => ({
      forward: fail(
        `{sender} may write a ${f.name} value (xsi:type), a type {receiver} no longer knows (ASMX refuses it too)`,
      ),
      backward: ok('{receiver} knows every type {sender} writes'),
    }),
  },
  {
    id: 'abstract-changed',
    title: 'abstract changed',
    judge: (f) => {
      const refuses = fail('{sender} may write a value of the type itself, which {receiver} refuses as abstract');
      const fine = ok('{receiver} accepts every type {sender} writes');
      return f.to === 'abstract' ? { forward: refuses, backward: fine } : { forward: fine, backward: refuses };
    },
  },
  { id: 'facet-changed', title: 'facet changed (pattern, length, range)', judge: () => undefined },
];
