/**
 * Findings -> changes with verdicts. For every usage that reaches a finding, its rule says how
 * each flow goes; a flow is turned into a direction by the message it is in:
 *
 *   request or call:  forward = old client -> new server (breaks existing clients)
 *                     backward = new client -> old server (breaks existing servers)
 *   response:         forward = old server -> new client (breaks existing servers)
 *                     backward = new server -> old client (breaks existing clients)
 */
import { DOCUMENTATION_RULES, ruleOf, type Flow } from './rules.js';
import {
  PROTOCOLS,
  type Change,
  type Effect,
  type Finding,
  type MessageRole,
  type Protocol,
  type Reach,
} from './types.js';

const RESPONSE_ROLES: ReadonlySet<MessageRole> = new Set(['output', 'output-header']);

interface Outcome {
  readonly protocol: Protocol;
  readonly exchange: 'clients' | 'servers';
  readonly message: string;
  readonly flow: Flow;
  /** Who writes and who reads, for the text. */
  readonly sender: string;
  readonly receiver: string;
}

/** The two flows of one usage as exchanges between deployed peers. */
function outcomes(finding: Finding, reach: Reach): Outcome[] {
  const { usage, depth } = reach;
  const judgement = ruleOf(finding.rule).judge(finding.facts, { protocol: usage.protocol, role: usage.role, depth });
  if (judgement === undefined) return [];
  const response = RESPONSE_ROLES.has(usage.role);
  const message = usage.role === 'call' ? 'call' : usage.role.replace('input', 'request').replace('output', 'response');
  const forward: Outcome = response
    ? {
        protocol: usage.protocol,
        exchange: 'servers',
        message,
        flow: judgement.forward,
        sender: 'the old server',
        receiver: 'a new client',
      }
    : {
        protocol: usage.protocol,
        exchange: 'clients',
        message,
        flow: judgement.forward,
        sender: 'an old client',
        receiver: 'the new server',
      };
  const backward: Outcome = response
    ? {
        protocol: usage.protocol,
        exchange: 'clients',
        message,
        flow: judgement.backward,
        sender: 'the new server',
        receiver: 'an old client',
      }
    : {
        protocol: usage.protocol,
        exchange: 'servers',
        message,
        flow: judgement.backward,
        sender: 'a new client',
        receiver: 'the old server',
      };
  return [forward, backward];
}

export function judgeFinding(finding: Finding, reaches: readonly Reach[]): Change {
  const effects = new Map<string, Effect>();
  const all: Outcome[] = [];
  for (const reach of reaches) {
    const found = outcomes(finding, reach);
    if (found.length === 0) continue;
    all.push(...found);
    const { usage } = reach;
    const key = `${usage.service}|${usage.protocol}|${usage.operation}|${usage.role}`;
    const prev = effects.get(key);
    const clients = found.some((o) => o.exchange === 'clients' && o.flow.fails);
    const servers = found.some((o) => o.exchange === 'servers' && o.flow.fails);
    effects.set(key, {
      ...usage,
      breaksClients: (prev?.breaksClients ?? false) || clients,
      breaksServers: (prev?.breaksServers ?? false) || servers,
    });
  }
  const list = [...effects.values()];
  const pick = (f: (e: Effect) => boolean): Protocol[] =>
    PROTOCOLS.filter((p) => list.some((e) => e.protocol === p && f(e)));
  const breaksClients = pick((e) => e.breaksClients);
  const breaksServers = pick((e) => e.breaksServers);
  const verdict = DOCUMENTATION_RULES.has(finding.rule)
    ? 'documentation'
    : breaksClients.length + breaksServers.length > 0
      ? 'breaking'
      : 'compatible';
  return {
    rule: finding.rule,
    verdict,
    subject: finding.subject,
    what: finding.what,
    breaksClients,
    breaksServers,
    bindings: pick(() => true),
    why: explain(all),
    ...(finding.old === undefined ? {} : { old: finding.old }),
    ...(finding.new === undefined ? {} : { new: finding.new }),
    effects: list,
  };
}

/** One line per exchange and explanation, naming the bindings it holds for. */
function explain(all: readonly Outcome[]): string[] {
  const lines = new Map<string, { head: string; text: string; protocols: Set<Protocol> }>();
  for (const o of all) {
    const text =
      o.flow.because.replaceAll('{sender}', o.sender).replaceAll('{receiver}', o.receiver) +
      (o.flow.asmx === undefined ? '' : `; ${o.flow.asmx}`);
    const head = `${o.exchange === 'clients' ? 'old client -> new server' : 'new client -> old server'}${o.message === 'call' ? '' : ` (${o.message})`}: ${o.flow.fails ? 'fails' : 'works'}`;
    const key = `${head}|${text}`;
    const line = lines.get(key) ?? { head, text, protocols: new Set<Protocol>() };
    line.protocols.add(o.protocol);
    lines.set(key, line);
  }
  return [...lines.values()]
    .sort((a, b) => order(a.head) - order(b.head))
    .map((l) => `${l.head} on ${PROTOCOLS.filter((p) => l.protocols.has(p)).join(', ')}: ${l.text}`);
}

/** Failures first, clients before servers. */
function order(head: string): number {
  return (head.endsWith('fails') ? 0 : 2) + (head.startsWith('old client') ? 0 : 1);
}
