/**
 * Rules for a message's elements: the element name and namespace a message travels under, an
 * empty body, SOAP header blocks and declared faults.
 */
import type { Facts, MessageRole } from '../types.js';
import {
  both,
  fail,
  isHeaderBlock,
  isHttp,
  paramLevel,
  type Flow,
  type JudgeContext,
  type Judgement,
  ok,
  type Rule,
} from './flow.js';

const ASMX_SILENT_MEMBERS =
  'genuine ASMX skips member elements it does not expect: no fault, but their values arrive empty (silent data loss)';

/** A header block one side declares and the other does not: unknown blocks are ignored unless marked mustUnderstand. */
function headerBlockFlows(role: MessageRole, added: boolean): Judgement {
  const unknown = fail(
    '{receiver} does not declare the block: it ignores it, unless {sender} marks it mustUnderstand, when it answers a MustUnderstand fault',
  );
  const absent = ok(
    '{receiver} reads a missing header block as absent (the contract cannot make a header required; a handler that needs it must answer its own fault)',
  );
  if (role === 'output-header') {
    const ignored = ok(
      '{receiver} ignores a response header block it does not declare (servers never mark response blocks mustUnderstand), and a declared one may be absent',
    );
    return both(ignored);
  }
  return added ? { forward: absent, backward: unknown } : { forward: unknown, backward: absent };
}

/** An element on the wire under another name or namespace: unknown to the receiver, and a required one missing. */
function renamedElement(ctx: JudgeContext, what: string): Judgement | undefined {
  if (paramLevel(ctx) !== undefined) return undefined;
  if (isHeaderBlock(ctx)) return mergeHeader(ctx);
  if (ctx.role === 'call')
    return isHttp(ctx) ? undefined : both(fail(`{receiver} does not know the SOAPAction {sender} sends (${what})`));
  return both(
    fail(
      `{receiver} matches elements by namespace and name: it rejects ${what} as unknown (and misses a required member)`,
      ASMX_SILENT_MEMBERS,
    ),
  );
}

/** A header block renamed: removed under its old name and added under its new one. */
function mergeHeader(ctx: JudgeContext): Judgement {
  const removed = headerBlockFlows(ctx.role, false);
  const added = headerBlockFlows(ctx.role, true);
  return { forward: removed.forward, backward: added.backward };
}

function bodyChanged(f: Facts): Judgement | undefined {
  if (f.body === undefined) return undefined;
  const flow = (sender: string, receiver: string): Flow =>
    receiver === 'element' && sender === 'empty'
      ? fail('{sender} writes an empty message where {receiver} expects an element')
      : ok('{receiver} does not read the message body');
  return { forward: flow(f.body.old, f.body.new), backward: flow(f.body.new, f.body.old) };
}

function faultJudge(_f: Facts, ctx: JudgeContext): Judgement | undefined {
  if (isHttp(ctx)) return undefined;
  return both(
    ok(
      'smskit reads every fault as a SoapFaultError (its detail as text entries) whatever the WSDL declares; ASMX never declares wsdl:fault',
    ),
  );
}

const call = (ctx: JudgeContext): boolean => ctx.role === 'call';

export const MESSAGE_RULES: readonly Rule[] = [
  {
    id: 'namespace-changed',
    title: 'element namespace changed (targetNamespace)',
    judge: (f, ctx) => renamedElement(ctx, `elements in the other version's namespace (old: ${f.from}, new: ${f.to})`),
  },
  {
    id: 'element-form-changed',
    title: 'elementFormDefault / form changed',
    judge: (f, ctx) => renamedElement(ctx, `members qualified the other version's way (old: ${f.from}, new: ${f.to})`),
  },
  {
    id: 'message-element-renamed',
    title: 'message element renamed',
    judge: (f, ctx) =>
      call(ctx) ? undefined : renamedElement(ctx, `the other version's element (old: <${f.from}>, new: <${f.to}>)`),
  },
  { id: 'message-body-changed', title: 'message added or removed (empty body)', judge: (f) => bodyChanged(f) },
  {
    id: 'header-added',
    title: 'SOAP header added',
    judge: (_f, ctx) => (isHttp(ctx) ? undefined : headerBlockFlows(ctx.role, true)),
  },
  {
    id: 'header-removed',
    title: 'SOAP header removed',
    judge: (_f, ctx) => (isHttp(ctx) ? undefined : headerBlockFlows(ctx.role, false)),
  },
  { id: 'fault-added', title: 'fault added', judge: faultJudge },
  { id: 'fault-removed', title: 'fault removed', judge: faultJudge },
];
