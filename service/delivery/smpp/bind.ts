/**
 * One SMPP bind: a connection that binds (transceiver, transmitter or receiver), keeps itself
 * alive with enquire_link, answers what the SMSC sends that is not a receipt, and reconnects
 * with backoff when it is refused or lost. The route above it owns the submits and receipts.
 *
 * node-smpp frames the PDUs and matches responses to requests; a PDU it cannot parse stops
 * its reader, so the bind answers generic_nack and reconnects (the SMSC resends what it had
 * not had answered).
 */
import { isIP } from 'node:net';
import tls from 'node:tls';
import smpp from 'smpp';
import type { SmppRouteOptions } from './options.js';
import { backoffDelay } from './pacing.js';
import { statusCode, statusName } from './status-codes.js';
import { batchWrites } from './write-batch.js';
import './pdu-codec.js'; // node-smpp's PDU coding, faster (installed on import)

export type BindMode = 'transceiver' | 'transmitter' | 'receiver';

export interface Clock {
  now(): number;
  random(): number;
  /** Runs `callback` after `ms`; returns a function that cancels it. */
  setTimeout(callback: () => void, ms: number): () => void;
}

export interface BindOwner {
  log(line: string): void;
  bound(bind: Bind): void;
  /** The connection is gone; everything written on it and unanswered is lost. */
  lost(bind: Bind): void;
  /**
   * A deliver_sm (receipt or mobile-originated); the owner answers it through `reply`, which
   * writes on the connection it came in on (or nowhere, once that connection is gone: a
   * response on a newer connection would answer a sequence number the SMSC never sent there).
   */
  deliver(pdu: smpp.PDU, reply: (options?: Record<string, unknown>) => void): void;
}

/** Requests the SMSC may send an ESME (SMPP 3.4 §4): anything else gets ESME_RINVCMDID. */
const BIND_COMMANDS = {
  transceiver: 'bind_transceiver',
  transmitter: 'bind_transmitter',
  receiver: 'bind_receiver',
} as const;

export class Bind {
  private session: smpp.Session | undefined;
  private state: 'idle' | 'connecting' | 'bound' | 'stopped' = 'idle';
  private failures = 0;
  private lastReceivedAt = 0;
  private why = '';
  private cancelTimer: (() => void) | undefined;
  private cancelTick: (() => void) | undefined;
  private enquirySentAt: number | undefined;
  detail: string;

  constructor(
    readonly mode: BindMode,
    private readonly options: SmppRouteOptions,
    private readonly owner: BindOwner,
    private readonly clock: Clock,
  ) {
    this.detail = `not connected to ${this.peer}`;
  }

  get peer(): string {
    return `${this.options.host}:${this.options.port}`;
  }

  get isBound(): boolean {
    return this.state === 'bound';
  }

  start(): void {
    if (this.state === 'idle') this.connect();
  }

  /** Writes a request; `onResponse` gets its response (or generic_nack). False when the connection is not writable. */
  send(pdu: smpp.PDU, onResponse: (response: smpp.PDU) => void): boolean {
    if (this.state !== 'bound' || this.session === undefined) return false;
    batchWrites(this.session.socket);
    return this.session.send(pdu, onResponse);
  }

  /** Unbinds (waiting up to `waitMs` for unbind_resp) and stays down. */
  async stop(waitMs: number): Promise<void> {
    const wasBound = this.state === 'bound';
    this.state = 'stopped';
    this.cancelTimer?.();
    this.cancelTick?.();
    const session = this.session;
    if (session === undefined) return;
    if (wasBound) {
      await new Promise<void>((resolve) => {
        const cancel = this.clock.setTimeout(resolve, Math.max(0, waitMs));
        const sent = session.send(new smpp.PDU('unbind'), () => {
          cancel();
          resolve();
        });
        if (!sent) {
          cancel();
          resolve();
        }
      });
    }
    session.destroy();
    this.owner.lost(this);
  }

  private connect(): void {
    this.state = 'connecting';
    this.why = '';
    const { host, port } = this.options;
    const session = smpp.connect({
      host,
      port,
      noDelay: true,
      ...(this.options.tls
        ? {
            tls: true,
            // SNI carries host names only (RFC 6066); the certificate is checked against an address all the same.
            ...(isIP(host) === 0 ? { servername: host } : {}),
            ...(this.options.tlsCa === undefined ? {} : { ca: [...tls.rootCertificates, this.options.tlsCa] }),
          }
        : {}),
    });
    this.session = session;
    this.detail = `connecting to ${this.peer}`;
    this.cancelTimer = this.clock.setTimeout(
      () => this.drop(session, `no bind_resp within ${this.options.connectTimeoutMs} ms`),
      this.options.connectTimeoutMs,
    );
    session.on(this.options.tls ? 'secureConnect' : 'connect', () => this.sendBind(session));
    session.on('error', (error: Error & { code?: string }) => this.failed(session, error));
    session.on('close', () => this.closed(session));
    session.on('pdu', (pdu: smpp.PDU) => {
      try {
        this.received(session, pdu);
      } catch (error) {
        this.owner.log(`${this.mode} ${this.peer}: ${pdu.command} not handled: ${(error as Error).message}`);
      }
    });
  }

  private sendBind(session: smpp.Session): void {
    const bind = new smpp.PDU(BIND_COMMANDS[this.mode], {
      system_id: this.options.systemId,
      password: this.options.password,
      system_type: this.options.systemType,
      interface_version: 0x34,
    });
    session.send(bind, (response) => {
      if (session !== this.session || this.state !== 'connecting') return;
      if (response.command_status !== 0) {
        this.drop(session, `bind refused: ${statusName(response.command_status)}`);
        return;
      }
      this.cancelTimer?.();
      this.state = 'bound';
      this.failures = 0;
      this.lastReceivedAt = this.clock.now();
      this.detail = `bound ${this.mode === 'transceiver' ? 'trx' : this.mode} to ${this.peer}`;
      this.owner.log(`${this.detail} as ${this.options.systemId}`);
      this.scheduleTick(session);
      this.owner.bound(this);
    });
  }

  private received(session: smpp.Session, pdu: smpp.PDU): void {
    if (session !== this.session) return;
    const reply = (options: Record<string, unknown> = {}): void => {
      if (session.socket.destroyed) return;
      batchWrites(session.socket);
      session.send(pdu.response(options));
    };
    this.lastReceivedAt = this.clock.now();
    this.enquirySentAt = undefined;
    if (pdu.isResponse()) return; // node-smpp hands responses to the request's callback
    switch (pdu.command) {
      case 'deliver_sm':
        if (this.state === 'bound') this.owner.deliver(pdu, reply);
        else reply({ command_status: statusCode('ESME_RINVBNDSTS') });
        return;
      case 'enquire_link':
        reply();
        return;
      case 'unbind':
        reply();
        this.why ||= 'the SMSC unbound';
        session.close(); // after unbind_resp is written; then the usual backoff and a new bind
        return;
      case 'unknown':
        this.owner.log(
          `${this.mode} ${this.peer}: unknown command_id 0x${pdu.command_id.toString(16)} answered generic_nack`,
        );
        reply(); // node-smpp answers an unknown command with generic_nack ESME_RINVCMDID
        return;
      default:
        this.owner.log(`${this.mode} ${this.peer}: unexpected ${pdu.command} answered ESME_RINVCMDID`);
        reply({ command_status: statusCode('ESME_RINVCMDID') });
    }
  }

  /** Keep-alive and liveness: an enquire_link after the idle time, and a drop when it goes unanswered. */
  private scheduleTick(session: smpp.Session): void {
    const { enquireLinkMs, responseTimeoutMs } = this.options;
    const every = Math.max(10, Math.min(1_000, enquireLinkMs / 4, responseTimeoutMs / 4));
    this.cancelTick = this.clock.setTimeout(() => {
      if (session !== this.session || this.state !== 'bound') return;
      const now = this.clock.now();
      if (this.enquirySentAt !== undefined && now - this.enquirySentAt >= responseTimeoutMs) {
        this.drop(session, `enquire_link unanswered for ${responseTimeoutMs} ms`);
        return;
      }
      if (this.enquirySentAt === undefined && now - this.lastReceivedAt >= enquireLinkMs) {
        this.enquirySentAt = now;
        session.send(new smpp.PDU('enquire_link'), () => undefined);
      }
      this.scheduleTick(session);
    }, every);
  }

  private failed(session: smpp.Session, error: Error & { code?: string }): void {
    if (session !== this.session) return;
    if (isParseError(error)) {
      // node-smpp could not parse a PDU: its reader has stopped, so say so and start over.
      session.send(new smpp.PDU('generic_nack', { command_status: statusCode('ESME_RINVCMDLEN') }));
      this.drop(session, `malformed PDU from the SMSC (${error.message})`);
      return;
    }
    this.why ||= error.code ?? error.message;
    session.destroy();
  }

  private drop(session: smpp.Session, why: string): void {
    if (session !== this.session) return;
    this.why ||= why;
    session.destroy();
  }

  private closed(session: smpp.Session): void {
    if (session !== this.session) return;
    this.session = undefined;
    this.cancelTimer?.();
    this.cancelTick?.();
    this.enquirySentAt = undefined;
    const wasBound = this.state === 'bound';
    if (this.state === 'stopped') return;
    this.state = 'idle';
    if (wasBound) this.owner.lost(this);
    const delay = backoffDelay(
      this.failures++,
      this.options.reconnect.initialMs,
      this.options.reconnect.maxMs,
      this.clock.random,
    );
    const why = this.why || 'connection closed';
    const seconds = delay >= 1_000 ? `${(delay / 1_000).toFixed(1)} s` : `${delay} ms`;
    this.detail = `reconnecting in ${seconds}: ${why}`;
    this.owner.log(
      `${this.mode} ${this.peer}: ${wasBound ? 'connection lost' : 'cannot bind'}: ${why}; retrying in ${seconds}`,
    );
    this.cancelTimer = this.clock.setTimeout(() => {
      if (this.state === 'idle') this.connect();
    }, delay);
  }
}

/** node-smpp's own errors (a PDU it could not read) carry no code, or the Buffer range codes of a short PDU. */
function isParseError(error: Error & { code?: string }): boolean {
  return error.code === undefined || error.code === 'ERR_OUT_OF_RANGE' || error.code === 'ERR_BUFFER_OUT_OF_BOUNDS';
}
