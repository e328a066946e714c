/**
 * Rules for the members of a type: elements added, removed, renamed or reordered, their
 * occurrences and nillability, and attributes.
 */
import type { Facts } from '../types.js';
import { both, fail, paramLevel, type Flow, type JudgeContext, type Judgement, ok, type Rule } from './flow.js';

const ASMX_UNKNOWN = 'genuine ASMX ignores unknown elements (no fault; the value is lost)';
const ASMX_MIN = 'genuine ASMX does not enforce minOccurs (the member arrives as its default)';
const ASMX_SILENT =
  'genuine ASMX skips elements it does not expect: no fault, but the value arrives empty (silent data loss)';
const MISSING_PARAMETER =
  "{receiver} answers `Missing parameter`: every HTTP GET/POST parameter is required (ASMX's rule, and smskit's default)";

function memberAdded(f: Facts, ctx: JudgeContext): Judgement | undefined {
  const level = paramLevel(ctx);
  if (level === 'root' || level === 'item') return undefined;
  if (level === 'param')
    return {
      forward: fail(`${MISSING_PARAMETER}: {sender} does not send ${f.name}`),
      backward: ok('{receiver} ignores parameters it does not know'),
    };
  const forward =
    f.required === true
      ? fail(`{sender} never writes <${f.name}>, which {receiver} requires`, ASMX_MIN)
      : ok(`<${f.name}> is optional: {receiver} does without it`);
  const backward =
    f.wildcard?.old === true
      ? ok('{receiver} collects unknown elements (xs:any)')
      : fail(`{receiver} rejects <${f.name}> as an unknown element whenever {sender} writes it`, ASMX_UNKNOWN);
  return { forward, backward };
}

function memberRemoved(f: Facts, ctx: JudgeContext): Judgement | undefined {
  const level = paramLevel(ctx);
  if (level === 'root' || level === 'item') return undefined;
  if (level === 'param')
    return {
      forward: ok('{receiver} ignores parameters it does not know'),
      backward: fail(`${MISSING_PARAMETER}: {sender} no longer sends ${f.name}`),
    };
  const forward =
    f.wildcard?.new === true
      ? ok('{receiver} collects unknown elements (xs:any)')
      : fail(`{receiver} rejects <${f.name}> as an unknown element whenever {sender} writes it`, ASMX_UNKNOWN);
  const backward =
    f.required === true
      ? fail(`{sender} no longer writes <${f.name}>, which {receiver} requires`, ASMX_MIN)
      : ok(`<${f.name}> was optional: {receiver} does without it`);
  return { forward, backward };
}

function memberRenamed(f: Facts, ctx: JudgeContext): Judgement | undefined {
  const level = paramLevel(ctx);
  if (level === 'root' || level === 'item') return undefined;
  if (level === 'param')
    return {
      forward: fail(`${MISSING_PARAMETER}: {sender} sends ${f.from}, not ${f.to}`),
      backward: fail(`${MISSING_PARAMETER}: {sender} sends ${f.to}, not ${f.from}`),
    };
  return {
    forward: fail(
      `{receiver} rejects <${f.from}> as an unknown element whenever {sender} writes it${f.required === true ? `, and misses the required <${f.to}>` : ''}`,
      ASMX_SILENT,
    ),
    backward: fail(
      `{receiver} rejects <${f.to}> as an unknown element whenever {sender} writes it${f.required === true ? `, and misses the required <${f.from}>` : ''}`,
      ASMX_SILENT,
    ),
  };
}

function occursChanged(f: Facts, ctx: JudgeContext): Judgement | undefined {
  const level = paramLevel(ctx);
  if (level === 'root' || level === 'item' || f.occurs === undefined) return undefined;
  const { old, new: now } = f.occurs;
  if (level === 'param') {
    const repeated = (o: readonly [number, number]): boolean => o[1] !== 1;
    const lost = fail(
      '{sender} repeats the parameter once per item; {receiver} expects one value and keeps only the first (the rest are lost)',
      'genuine ASMX reads the values joined with commas',
    );
    const same = ok(
      'on HTTP GET/POST a parameter is required whatever minOccurs says, and is repeated or not the same way in both versions',
    );
    return {
      forward: repeated(old) && !repeated(now) ? lost : same,
      backward: repeated(now) && !repeated(old) ? lost : same,
    };
  }
  return { forward: occursFlow(old, now), backward: occursFlow(now, old) };
}

function occursFlow(sender: readonly [number, number], receiver: readonly [number, number]): Flow {
  const max = (n: number): number => (n === -1 ? Infinity : n);
  if (sender[0] < receiver[0])
    return fail(
      `{sender} may write ${sender[0]} occurrence(s), fewer than the ${receiver[0]} {receiver} requires`,
      ASMX_MIN,
    );
  if (max(sender[1]) > max(receiver[1])) {
    return fail(
      `{sender} may write ${sender[1] === -1 ? 'any number of' : sender[1]} occurrences, more than the ${receiver[1]} {receiver} accepts`,
      'genuine ASMX does not fault, but keeps only one value of a single-valued member',
    );
  }
  return ok('{receiver} accepts every number of occurrences {sender} writes');
}

function nillableChanged(f: Facts, ctx: JudgeContext): Judgement | undefined {
  if (paramLevel(ctx) !== undefined || f.nillable === undefined) return undefined;
  const flow = (sender: boolean, receiver: boolean): Flow =>
    sender && !receiver
      ? fail(
          '{sender} may write xsi:nil="true", which {receiver} refuses on an element that is not nillable',
          'genuine ASMX reads xsi:nil as null wherever the .NET type allows null',
        )
      : ok('{receiver} accepts every nil {sender} may write');
  return { forward: flow(f.nillable.old, f.nillable.new), backward: flow(f.nillable.new, f.nillable.old) };
}

function attribute(f: Facts, ctx: JudgeContext, change: 'added' | 'removed' | 'required'): Judgement | undefined {
  if (paramLevel(ctx) !== undefined) return undefined;
  const ignores = ok('{receiver} ignores attributes it does not declare');
  const missing = fail(
    `{sender} does not write @${f.name}, which {receiver} requires`,
    'genuine ASMX does not enforce use="required"',
  );
  const fine = ok(`@${f.name} is optional for {receiver}`);
  if (change === 'added') return { forward: f.required === true ? missing : fine, backward: ignores };
  if (change === 'removed') return { forward: ignores, backward: f.required === true ? missing : fine };
  return f.required === true ? { forward: missing, backward: fine } : { forward: fine, backward: missing };
}

export const MEMBER_RULES: readonly Rule[] = [
  { id: 'member-added', title: 'member added', judge: memberAdded },
  { id: 'member-removed', title: 'member removed', judge: memberRemoved },
  { id: 'member-renamed', title: 'member renamed (same position and type)', judge: memberRenamed },
  {
    id: 'members-reordered',
    title: 'members reordered',
    judge: (_f, ctx) =>
      paramLevel(ctx) !== undefined
        ? undefined
        : both(
            ok(
              "{receiver} matches members by name, not position: smskit's decoder does not enforce sequence order, and neither does ASMX (a captured exchange with reordered members is answered normally); a schema-validating peer, or WCF's DataContractSerializer, would not accept it",
            ),
          ),
  },
  { id: 'occurs-changed', title: 'minOccurs / maxOccurs changed', judge: occursChanged },
  { id: 'nillable-changed', title: 'nillable changed', judge: nillableChanged },
  { id: 'attribute-added', title: 'attribute added', judge: (f, ctx) => attribute(f, ctx, 'added') },
  { id: 'attribute-removed', title: 'attribute removed', judge: (f, ctx) => attribute(f, ctx, 'removed') },
  {
    id: 'attribute-required-changed',
    title: 'attribute use changed',
    judge: (f, ctx) => attribute(f, ctx, 'required'),
  },
];
