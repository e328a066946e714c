/**
 * The rule catalogue: for each kind of difference, what happens on the wire when a message
 * built from one version is read by a peer built from the other, per binding.
 *
 * A rule judges one flow at a time. `forward` is a sender built from OLD writing to a receiver
 * built from NEW; `backward` the reverse. judge.ts turns flows into directions: for a request
 * (and for the call as a whole) forward is "old client -> new server", which breaks existing
 * clients; for a response, forward is "old server -> new client", which breaks existing servers.
 *
 * Every verdict follows the smskit runtime (runtime/codec/decode.ts, runtime/soap/envelope.ts,
 * runtime/http/binding.ts), which the execution proof in test/contract/diff exercises. Where genuine
 * ASMX (.NET's XmlSerializer) reads differently, `asmx` says how: it ignores unknown and
 * out-of-order elements (test/fixtures/asmx/captures/echo/SMSSend.soap11.unknown-element.txt,
 * .reordered.txt), does not enforce minOccurs, and routes a SOAP 1.2 request whose action it
 * does not know by its Body element. Texts name the peers `{sender}` and `{receiver}`.
 *
 * The rules live by family in rules/: contract.ts (services, bindings, operations), messages.ts
 * (message elements, headers, faults), members.ts (members and attributes), values.ts (types and
 * their values); this module assembles the catalogue.
 */
import type { RuleId } from './types.js';
import { CONTRACT_RULES } from './rules/contract.js';
import type { Rule } from './rules/flow.js';
import { MEMBER_RULES } from './rules/members.js';
import { MESSAGE_RULES } from './rules/messages.js';
import { VALUE_RULES } from './rules/values.js';

export type { Flow, JudgeContext, Judgement, Rule } from './rules/flow.js';

/** Differences that never reach the wire. */
const NON_WIRE_RULES: readonly Rule[] = [
  { id: 'documentation-changed', title: 'documentation changed', judge: () => undefined },
  { id: 'formatting-only', title: 'formatting only', judge: () => undefined },
];

const RULES: readonly Rule[] = [
  ...CONTRACT_RULES,
  ...MESSAGE_RULES,
  ...MEMBER_RULES,
  ...VALUE_RULES,
  ...NON_WIRE_RULES,
];

const BY_ID = new Map(RULES.map((r) => [r.id, r] as const));

export function ruleOf(id: RuleId): Rule {
  return BY_ID.get(id)!;
}

export const RULE_IDS: readonly RuleId[] = RULES.map((r) => r.id);

/** Rules that never reach the wire: reported, never breaking. */
export const DOCUMENTATION_RULES: ReadonlySet<RuleId> = new Set(['documentation-changed', 'formatting-only']);
