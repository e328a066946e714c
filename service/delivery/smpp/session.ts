/**
 * One SMPP session of a route: a transceiver bind (or a transmitter and a receiver) with its own
 * submit window. A route with `binds: N` keeps N of them to the same SMSC (SMSCs cap throughput
 * per bind, so operators open several); the route hands each message to one session, all its
 * parts on that session's window, and takes receipts from every session alike.
 */
import type smpp from 'smpp';
import type { BindStatus } from '../route.js';
import { Bind, type BindOwner, type Clock } from './bind.js';
import type { SmppRouteOptions } from './options.js';
import type { Pacer } from './pacing.js';
import { type PartOutcome, SubmitWindow } from './submit-window.js';

/** What a session needs of its route. */
export interface SessionOwner {
  log(line: string): void;
  deliver(pdu: smpp.PDU, reply: (options?: Record<string, unknown>) => void): void;
}

/** One session's state, for status, /metrics and /healthz. */
export type SessionStatus = BindStatus;

export class SmppSession implements BindOwner {
  private readonly transmitter: Bind;
  private readonly receiver: Bind | undefined;
  private readonly window: SubmitWindow;
  /** Messages (not parts) handed to this session and not yet answered. */
  messagesInFlight = 0;

  constructor(
    readonly number: number,
    private readonly label: string,
    private readonly options: SmppRouteOptions,
    private readonly owner: SessionOwner,
    pacer: Pacer,
    clock: Clock,
  ) {
    const split = options.bind === 'transmitter+receiver';
    this.transmitter = new Bind(split ? 'transmitter' : 'transceiver', options, this, clock);
    this.receiver = split ? new Bind('receiver', options, this, clock) : undefined;
    this.window = new SubmitWindow(this.transmitter, options, pacer, clock);
  }

  get isBound(): boolean {
    return this.transmitter.isBound;
  }

  start(): void {
    this.transmitter.start();
    this.receiver?.start();
  }

  submit(fields: Record<string, unknown>): Promise<PartOutcome> {
    return this.window.submit(fields);
  }

  status(): SessionStatus {
    const detail =
      this.receiver === undefined ? this.transmitter.detail : `${this.transmitter.detail}; ${this.receiver.detail}`;
    return {
      bind: this.number,
      up: this.isBound,
      inFlight: this.messagesInFlight,
      window: this.options.window,
      detail,
    };
  }

  /** Everything unanswered is lost, and nothing more is written; then unbinds. */
  async stop(waitMs: number): Promise<void> {
    this.window.abandon('SMSKIT_CLOSING', 'the route closed before the SMSC answered', true);
    await Promise.all([this.transmitter.stop(waitMs), this.receiver?.stop(waitMs)]);
  }

  // BindOwner

  log(line: string): void {
    this.owner.log(`${this.label}${line}`);
  }

  bound(bind: Bind): void {
    if (bind === this.transmitter) this.window.connected();
  }

  lost(bind: Bind): void {
    if (bind === this.transmitter)
      this.window.abandon('SMPP_CONNECTION_LOST', `connection to ${bind.peer} lost before the SMSC answered`);
  }

  deliver(pdu: smpp.PDU, reply: (options?: Record<string, unknown>) => void): void {
    this.owner.deliver(pdu, reply);
  }
}
