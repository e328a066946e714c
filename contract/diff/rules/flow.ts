/**
 * What every rule family shares: a flow's verdict, the context a rule judges in, and where an
 * HTTP GET/POST request carries a value (a parameter is not an XML element, so most rules read
 * differently there).
 */
import type { Facts, MessageRole, Protocol, RuleId } from '../types.js';

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

export const ok = (because: string, asmx?: string): Flow =>
  asmx === undefined ? { fails: false, because } : { fails: false, because, asmx };
export const fail = (because: string, asmx?: string): Flow =>
  asmx === undefined ? { fails: true, because } : { fails: true, because, asmx };
export const both = (flow: Flow): Judgement => ({ forward: flow, backward: flow });

export const isHttp = (ctx: JudgeContext): boolean => ctx.protocol === 'http-get' || ctx.protocol === 'http-post';

/**
 * Where an HTTP GET/POST request's value sits: the input's root element is not on the wire
 * (`root`), its members are the parameters (`param`), a parameter's array items are repeated
 * parameters (`item`). undefined for everything else, which travels as XML.
 */
export function paramLevel(ctx: JudgeContext): 'root' | 'param' | 'item' | undefined {
  if (!isHttp(ctx) || ctx.role !== 'input') return undefined;
  return ctx.depth === 0 ? 'root' : ctx.depth === 1 ? 'param' : 'item';
}

export const isHeaderBlock = (ctx: JudgeContext): boolean =>
  (ctx.role === 'input-header' || ctx.role === 'output-header') && ctx.depth === 0;
