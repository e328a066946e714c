/**
 * The rule catalogue: for each kind of difference, what happens on the wire when a message
 * built from one version is read by a peer built from the other, per binding.
 *
 * A rule judges one flow at a time. `forward` is a sender built from OLD writing to a receiver
 * built from NEW; `backward` the reverse. judge.ts turns flows into directions: for a request
 * (and for the call as a whole) forward is "old client -> new server", which breaks existing
 * clients; for a response, forward is "old server -> new client", which breaks existing servers.
 *
 * Every verdict follows the smskit runtime (runtime/codec/decode.ts, runtime/soap/server.ts,
 * runtime/http-binding.ts), which the execution proof in test/generator/diff exercises. Where genuine
 * ASMX (.NET's XmlSerializer) reads differently, `asmx` says how: it ignores unknown and
 * out-of-order elements (test/fixtures/asmx/captures/echo/SMSSend.soap11.unknown-element.txt,
 * .reordered.txt), does not enforce minOccurs, and routes a SOAP 1.2 request whose action it
 * does not know by its Body element. Texts name the peers `{sender}` and `{receiver}`.
 */
import type { Facts, MessageRole, Protocol, RuleId } from './types.js';

export interface Flow {
  readonly fails: boolean;
  readonly because: string;
  /** How genuine ASMX differs from the smskit runtime here; absent when it behaves the same. */
  readonly asmx?: string;
}

export interface Judgement {
  readonly forward: Flow;
  readonly backward: Flow;
}

export interface JudgeContext {
  readonly protocol: Protocol;
  readonly role: MessageRole;
  readonly depth: number;
}

export interface Rule {
  readonly id: RuleId;
  readonly title: string;
  /** undefined: the difference is not on the wire of this binding and message. */
  readonly judge: (facts: Facts, ctx: JudgeContext) => Judgement | undefined;
}

const ok = (because: string, asmx?: string): Flow =>
  asmx === undefined ? { fails: false, because } : { fails: false, because, asmx };
const fail = (because: string, asmx?: string): Flow =>
  asmx === undefined ? { fails: true, because } : { fails: true, because, asmx };
const both = (flow: Flow): Judgement => ({ forward: flow, backward: flow });

const isHttp = (ctx: JudgeContext): boolean => ctx.protocol === 'http-get' || ctx.protocol === 'http-post';

/**
 * Where an HTTP GET/POST request's value sits: the input's root element is not on the wire
 * (`root`), its members are the parameters (`param`), a parameter's array items are repeated
 * parameters (`item`). undefined for everything else, which travels as XML.
 */
function paramLevel(ctx: JudgeContext): 'root' | 'param' | 'item' | undefined {
  if (!isHttp(ctx) || ctx.role !== 'input') return undefined;
  return ctx.depth === 0 ? 'root' : ctx.depth === 1 ? 'param' : 'item';
}

const isHeaderBlock = (ctx: JudgeContext): boolean =>
  (ctx.role === 'input-header' || ctx.role === 'output-header') && ctx.depth === 0;

const ASMX_UNKNOWN = 'genuine ASMX ignores unknown elements (no fault; the value is lost)';
const ASMX_MIN = 'genuine ASMX does not enforce minOccurs (the member arrives as its default)';
const ASMX_SILENT =
  'genuine ASMX skips elements it does not expect: no fault, but the value arrives empty (silent data loss)';
const ASMX_SILENT_MEMBERS =
  'genuine ASMX skips member elements it does not expect: no fault, but their values arrive empty (silent data loss)';
const MISSING_PARAMETER =
  "{receiver} answers `Missing parameter`: every HTTP GET/POST parameter is required (ASMX's rule, and smskit's default)";

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

function soapAction(f: Facts, ctx: JudgeContext): Judgement | undefined {
  if (isHttp(ctx)) return undefined;
  const asmx =
    ctx.protocol === 'soap12'
      ? 'genuine ASMX routes a SOAP 1.2 request whose action it does not know by its Body element, so it tolerates this'
      : undefined;
  const flow = (sent: string | undefined): Flow =>
    sent === undefined || sent === ''
      ? ok('{sender} names no action, so {receiver} routes by the Body element')
      : fail(`{receiver} does not know the action "${sent}" {sender} sends and answers a fault`, asmx);
  return { forward: flow(f.from), backward: flow(f.to) };
}

function bodyChanged(f: Facts): Judgement | undefined {
  if (f.body === undefined) return undefined;
  const flow = (sender: string, receiver: string): Flow =>
    receiver === 'element' && sender === 'empty'
      ? fail('{sender} writes an empty message where {receiver} expects an element')
      : ok('{receiver} does not read the message body');
  return { forward: flow(f.body.old, f.body.new), backward: flow(f.body.new, f.body.old) };
}

const call = (ctx: JudgeContext): boolean => ctx.role === 'call';

const RULES: readonly Rule[] = [
  {
    id: 'service-added',
    title: 'service added',
    judge: () => ({
      forward: ok('old clients do not know the service'),
      backward: fail('{receiver} does not serve it'),
    }),
  },
  {
    id: 'service-removed',
    title: 'service removed',
    judge: () => ({
      forward: fail('{receiver} no longer serves it'),
      backward: ok('new clients do not know the service'),
    }),
  },
  {
    id: 'binding-added',
    title: 'binding (port) added',
    judge: () => ({
      forward: ok('old clients do not use the binding'),
      backward: fail('{receiver} does not serve this binding'),
    }),
  },
  {
    id: 'binding-removed',
    title: 'binding (port) removed',
    judge: () => ({
      forward: fail('{receiver} no longer serves this binding'),
      backward: ok('new clients do not use the binding'),
    }),
  },
  {
    id: 'binding-renamed',
    title: 'binding or port renamed',
    judge: () => both(ok('binding and port names are not on the wire')),
  },
  {
    id: 'address-path-changed',
    title: 'port address path changed',
    judge: () => both(fail('{receiver} listens at another path (for clients that call the address in the WSDL)')),
  },
  {
    id: 'address-host-changed',
    title: 'port address host changed',
    judge: () =>
      both(
        ok(
          'host and port are deployment settings, not on the wire between peers that are configured to reach each other',
        ),
      ),
  },
  {
    id: 'operation-added',
    title: 'operation added',
    judge: () => ({
      forward: ok('old clients do not call it'),
      backward: fail(
        '{receiver} does not have the operation (an unknown SOAPAction or Body element, or 404 on HTTP GET/POST)',
      ),
    }),
  },
  {
    id: 'operation-removed',
    title: 'operation removed',
    judge: () => ({
      forward: fail(
        '{receiver} no longer has the operation (an unknown SOAPAction or Body element, or 404 on HTTP GET/POST)',
      ),
      backward: ok('new clients do not call it'),
    }),
  },
  {
    id: 'operation-renamed',
    title: 'operation renamed (same messages)',
    judge: () =>
      both(fail('{receiver} knows the operation only under its other name (SOAPAction, Body element, HTTP path)')),
  },
  { id: 'soap-action-changed', title: 'SOAPAction changed', judge: soapAction },
  {
    id: 'http-path-changed',
    title: 'HTTP operation location changed',
    judge: (_f, ctx) => (isHttp(ctx) ? both(fail('{receiver} serves the operation at another path (404)')) : undefined),
  },
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
  { id: 'attribute-added', title: 'attribute added', judge: (f, ctx) => attribute(f, ctx, 'added') },
  { id: 'attribute-removed', title: 'attribute removed', judge: (f, ctx) => attribute(f, ctx, 'removed') },
  {
    id: 'attribute-required-changed',
    title: 'attribute use changed',
    judge: (f, ctx) => attribute(f, ctx, 'required'),
  },
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
  { id: 'facet-changed', title: 'facet changed (pattern, length, range)', judge: () => undefined },
  { id: 'documentation-changed', title: 'documentation changed', judge: () => undefined },
  { id: 'formatting-only', title: 'formatting only', judge: () => undefined },
];

function faultJudge(_f: Facts, ctx: JudgeContext): Judgement | undefined {
  if (isHttp(ctx)) return undefined;
  return both(
    ok(
      'smskit reads every fault as a SoapFaultError (its detail as text entries) whatever the WSDL declares; ASMX never declares wsdl:fault',
    ),
  );
}

const BY_ID = new Map(RULES.map((r) => [r.id, r] as const));

export function ruleOf(id: RuleId): Rule {
  return BY_ID.get(id)!;
}

export const RULE_IDS: readonly RuleId[] = RULES.map((r) => r.id);

/** Rules that never reach the wire: reported, never breaking. */
export const DOCUMENTATION_RULES: ReadonlySet<RuleId> = new Set(['documentation-changed', 'formatting-only']);
