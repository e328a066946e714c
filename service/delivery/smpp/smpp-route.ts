/**
 * The SMPP 3.4 route: sends each stored message as submit_sm parts over one of its sessions
 * (./session.ts: a transceiver bind, or a transmitter + a receiver; `binds: N` keeps N), keeps
 * at most `window` submit_sm unanswered per session, paces them all to the route's one cap,
 * resends what the SMSC throttles, and passes delivery receipts from any session to the engine,
 * acknowledging each only after the engine recorded it.
 *
 * Order: messages come in acceptance order and each goes, whole, to the bound session with the
 * fewest messages in flight (ties: the next in turn), so each session writes its messages in
 * acceptance order; across sessions the SMSC may see them in either order.
 */
import type smpp from 'smpp';
import type { OutgoingMessage, Route, RouteEvents, RouteStatus, SubmitResult } from '../route.js';
import type { Clock } from './bind.js';
import type { SmppRouteOptions } from './options.js';
import { Pacer } from './pacing.js';
import { buildParts, type SubmitPart } from './parts.js';
import { fieldOctets } from './raw-octets.js';
import { isReceipt, parseReceipt } from './receipts.js';
import { receiptIdForms } from './receipt-ids.js';
import { relativeValidity } from './validity.js';
import { statusClass, statusCode, statusName } from './status-codes.js';
import type { PartOutcome } from './submit-window.js';
import { type SessionOwner, type SessionStatus, SmppSession } from './session.js';

export interface SmppRouteDeps {
  /** Milliseconds, for pacing, timeouts and keep-alive (default Date.now). */
  readonly clock?: () => number;
  /** [0, 1), for backoff jitter (default Math.random). */
  readonly random?: () => number;
  /** Runs `callback` after `ms` and returns a function that cancels it (default: the global timers). */
  readonly setTimeout?: (callback: () => void, ms: number) => () => void;
}

export function createSmppRoute(name: string, options: SmppRouteOptions, deps: SmppRouteDeps = {}): Route {
  const clock: Clock = {
    now: deps.clock ?? Date.now,
    random: deps.random ?? Math.random,
    setTimeout:
      deps.setTimeout ??
      ((callback, ms) => {
        const timer = setTimeout(callback, ms);
        return () => clearTimeout(timer);
      }),
  };
  return new SmppRoute(name, options, clock);
}

class SmppRoute implements Route, SessionOwner {
  readonly kind = 'smpp' as const;
  readonly receiptTimeoutMs: number | undefined;
  private events: RouteEvents | undefined;
  private readonly sessions: readonly SmppSession[];
  private turn = 0;
  private messagesInFlight = 0;
  private reference = 0;
  private closing = false;
  private readonly idleWaiters: Array<() => void> = [];

  constructor(
    readonly name: string,
    private readonly options: SmppRouteOptions,
    private readonly clock: Clock,
  ) {
    const pacer = new Pacer(options.throughputPerSecond, clock.now);
    const count = options.binds;
    this.sessions = Array.from(
      { length: count },
      (_, index) =>
        new SmppSession(index + 1, count === 1 ? '' : `bind ${index + 1}/${count}: `, options, this, pacer, clock),
    );
    this.reference = Math.floor(clock.random() * 0x10000);
    this.receiptTimeoutMs = options.receipts ? options.receiptTimeoutMs : undefined;
  }

  start(events: RouteEvents): void {
    this.events = events;
    for (const session of this.sessions) session.start();
  }

  status(): RouteStatus & { readonly binds: readonly SessionStatus[] } {
    const binds = this.sessions.map((session) => session.status());
    const bound = binds.filter((b) => b.up).length;
    const detail =
      binds.length === 1 ? (binds[0]?.detail ?? '') : binds.map((b) => `bind ${b.bind}: ${b.detail}`).join('; ');
    return {
      up: !this.closing && bound > 0,
      inFlight: this.messagesInFlight,
      // The lane fills what the bound sessions can take; a session that is down takes nothing.
      window: this.options.window * Math.max(1, bound),
      detail,
      binds,
    };
  }

  async submit(message: OutgoingMessage): Promise<SubmitResult> {
    this.messagesInFlight++;
    try {
      return await this.submitParts(message);
    } catch (error) {
      // A bug, not a peer's answer: the engine retries, and the line says what broke.
      this.log(`submit of ${message.id} failed: ${(error as Error).message}`);
      return { outcome: 'retry', code: 'SMSKIT_INTERNAL', text: (error as Error).message, maybeSent: true };
    } finally {
      this.messagesInFlight--;
      if (this.messagesInFlight === 0) for (const wake of this.idleWaiters.splice(0)) wake();
    }
  }

  private async submitParts(message: OutgoingMessage): Promise<SubmitResult> {
    this.reference = (this.reference + 1) & 0xffff;
    const built = buildParts(message, this.options, this.reference);
    if ('error' in built) return { outcome: 'rejected', code: 'SMSKIT_SEGMENTS', text: built.error };
    if (this.closing)
      return { outcome: 'retry', code: 'SMSKIT_CLOSING', text: 'the route is closing', maybeSent: false };
    const destination = message.smsto.startsWith('+') ? message.smsto.slice(1) : message.smsto;
    const session = this.pickSession();
    session.messagesInFlight++;
    const validity = message.validUntil === undefined ? '' : relativeValidity(message.validUntil - this.clock.now());
    try {
      const outcomes = await Promise.all(
        built.parts.map((part) => session.submit(this.submitFields(part, destination, validity))),
      );
      return combine(outcomes);
    } finally {
      session.messagesInFlight--;
    }
  }

  /** The bound session with the fewest messages in flight; ties go to the next in turn (all down: the next in turn). */
  private pickSession(): SmppSession {
    const count = this.sessions.length;
    let best: SmppSession | undefined;
    for (let i = 0; i < count; i++) {
      const session = this.sessions[(this.turn + i) % count] as SmppSession;
      if (!session.isBound) continue;
      if (best === undefined || session.messagesInFlight < best.messagesInFlight) best = session;
    }
    const chosen = best ?? (this.sessions[this.turn % count] as SmppSession);
    this.turn = chosen.number % count;
    return chosen;
  }

  /** One part's submit_sm: delivery now (schedule_delivery_time empty), valid for `validity` (relative, or empty). */
  private submitFields(part: SubmitPart, destination: string, validity: string): Record<string, unknown> {
    const { source, destination: to } = this.options;
    return {
      source_addr_ton: source.ton,
      source_addr_npi: source.npi,
      source_addr: source.address,
      dest_addr_ton: to.ton,
      dest_addr_npi: to.npi,
      destination_addr: destination,
      esm_class: part.esm_class,
      schedule_delivery_time: '',
      validity_period: validity,
      registered_delivery: this.options.receipts ? 1 : 0,
      data_coding: part.data_coding,
      short_message: part.short_message,
      ...part.tlvs,
    };
  }

  async close(deadlineMs: number): Promise<void> {
    this.closing = true;
    const deadline = this.clock.now() + deadlineMs;
    if (this.messagesInFlight > 0) {
      await new Promise<void>((resolve) => {
        const cancel = this.clock.setTimeout(resolve, Math.max(0, deadlineMs));
        this.idleWaiters.push(() => {
          cancel();
          resolve();
        });
      });
    }
    const left = Math.max(0, deadline - this.clock.now());
    await Promise.all(this.sessions.map((session) => session.stop(left)));
  }

  // SessionOwner

  log(line: string): void {
    this.events?.log(line); // the engine puts the route's name in front
  }

  deliver(pdu: smpp.PDU, reply: (options?: Record<string, unknown>) => void): void {
    const esmClass = typeof pdu.esm_class === 'number' ? pdu.esm_class : 0;
    if (!isReceipt(esmClass)) {
      reply();
      this.log(`mobile-originated message from ${String(pdu.source_addr ?? '?')} answered and ignored`);
      return;
    }
    const octets = fieldOctets(pdu, 'short_message');
    const text = (octets.length > 0 ? octets : fieldOctets(pdu, 'message_payload')).toString('latin1');
    const parsed = parseReceipt({ receiptedId: pdu.receipted_message_id, messageState: pdu.message_state, text });
    if (parsed.kind === 'malformed') {
      this.log(`receipt not understood (${parsed.why}); answered ESME_RX_P_APPN`);
      reply({ command_status: statusCode('ESME_RX_P_APPN') });
      return;
    }
    if (parsed.kind === 'not-final') {
      this.log(`receipt for ${parsed.peerId}: ${parsed.word} is not final; ignored`);
      reply();
      return;
    }
    const receipt = {
      ...receiptIdForms(parsed.peerId, this.options.receiptIds),
      state: parsed.state,
      code: parsed.word,
      text: `stat:${parsed.word} err:${parsed.err || '-'}`,
    };
    const events = this.events;
    if (events === undefined) return;
    events.receipt(receipt).then(
      (matched) => {
        if (!matched)
          this.log(`receipt for an id no message has (yet): ${parsed.peerId} (${parsed.word}), acknowledged`);
        reply();
      },
      (error: Error) => {
        // Not recorded: a temporary error makes the SMSC send it again later.
        this.log(`receipt for ${parsed.peerId} not recorded (${error.message}); answered ESME_RX_T_APPN`);
        reply({ command_status: statusCode('ESME_RX_T_APPN') });
      },
    );
  }
}

/** One answer for the message from its parts' answers: any refusal rejects it, any loss retries it. */
function combine(outcomes: readonly PartOutcome[]): SubmitResult {
  const refused = outcomes.find((o) => o.kind === 'refused');
  if (refused !== undefined) {
    const name = statusName(refused.status);
    if (statusClass(refused.status) === 'permanent')
      return { outcome: 'rejected', code: name, text: `the SMSC refused it: ${name}` };
    const maybeSent = outcomes.some((o) => o.kind === 'accepted' || (o.kind === 'lost' && o.written));
    return { outcome: 'retry', code: name, text: `the SMSC could not take it now: ${name}`, maybeSent };
  }
  const lost = outcomes.find((o) => o.kind === 'lost');
  if (lost !== undefined) {
    const maybeSent = outcomes.some((o) => o.kind === 'accepted' || (o.kind === 'lost' && o.written));
    return { outcome: 'retry', code: lost.code, text: lost.text, maybeSent };
  }
  return { outcome: 'accepted', peerIds: outcomes.map((o) => (o as { peerId: string }).peerId) };
}
