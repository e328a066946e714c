/**
 * A local SMSC for tests (what SMPPSim is to Java shops), on node-smpp's server: accepts binds
 * with one system_id/password, acknowledges submit_sm with ids, decodes what it received, sends
 * delivery receipts after a delay with a mix of outcomes (stored and resent when no receiver is
 * bound, like a real SMSC), throttles above a rate, and drops connections on demand.
 */
import type { AddressInfo, Server } from 'node:net';
import smpp from 'smpp';
import { statusCode } from '../smpp/status-codes.js';
import { batchWrites } from '../smpp/write-batch.js';
import '../smpp/pdu-codec.js'; // node-smpp's PDU coding, faster (installed on import)
import { decodeSubmit, type ReceivedMessage, type ReceivedPart, Reassembler } from './decode.js';
import { ALL_DELIVERED, OUTCOME_RECEIPTS, type OutcomeMix, pickOutcome } from './outcomes.js';

export interface SmscOptions {
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Default 0: a free port. */
  readonly port?: number;
  readonly systemId: string;
  readonly password: string;
  /** Delay before each part's receipt (ms, default 0). */
  readonly receiptDelayMs?: number;
  readonly outcomes?: OutcomeMix;
  /** Most submit_sm per second accepted; above it ESME_RTHROTTLED (0 = no limit). */
  readonly throttlePerSecond?: number;
  /** Drop every connection, unanswered, on the N-th submit_sm (once; 0 = never). */
  readonly dropAfter?: number;
  /** False: record submit_sm but never answer it (an SMSC that stalls; default true). */
  readonly answerSubmits?: boolean;
  /** Every PDU received, before it is handled: for tests that check what a client answered. */
  readonly onPdu?: (pdu: smpp.PDU) => void;
  /** How data_coding 0 arrives from the client (SMPP's default is unpacked). */
  readonly gsmPacking?: 'unpacked' | 'packed';
  /** How many whole messages `received` keeps (default 100 000; the oldest go). */
  readonly keep?: number;
  /** SMPP over TLS with this key and certificate (PEM). */
  readonly tls?: { readonly key: string; readonly cert: string };
  /** Each whole message as it completes. */
  readonly onMessage?: (message: ReceivedMessage) => void;
  /** One line per bind, refused bind, drop or odd PDU (never per message). */
  readonly onEvent?: (line: string) => void;
  readonly random?: () => number;
  /**
   * Numeric message ids, written in this base in submit_sm_resp (default: a hex id with a random
   * prefix, the same in the receipt).
   */
  readonly ids?: 'hex' | 'decimal';
  /** The base receipts write the id in (default: as `ids`): the other base mimics SMSCs that mix them. */
  readonly receiptIds?: 'hex' | 'decimal';
}

export interface SmscStats {
  binds: number;
  refusedBinds: number;
  submits: number;
  throttled: number;
  receiptsSent: number;
  receiptsAcknowledged: number;
}

export interface RunningSmsc {
  /** smpp://host:port (ssmpp:// with TLS). */
  readonly url: string;
  readonly port: number;
  /** Whole messages, oldest first. */
  readonly received: ReceivedMessage[];
  readonly stats: Readonly<SmscStats>;
  /** Closes every connection now, answering nothing (what a crashing SMSC does). */
  dropConnections(): void;
  /** Sends a raw PDU (bytes as given) to every bound client: for tests of malformed input. */
  sendRaw(bytes: Buffer): void;
  close(): Promise<void>;
}

interface Receipt {
  readonly systemId: string;
  readonly part: ReceivedPart;
  /** The id as the receipt writes it. */
  readonly id: string;
  readonly submittedAt: Date;
}

interface Client {
  readonly session: smpp.Session;
  mode: 'transceiver' | 'transmitter' | 'receiver' | undefined;
  systemId: string;
  readonly unacknowledged: Set<Receipt>;
}

const BIND_MODES: Readonly<Record<string, Client['mode']>> = {
  bind_transceiver: 'transceiver',
  bind_transmitter: 'transmitter',
  bind_receiver: 'receiver',
};

export async function startSmsc(options: SmscOptions): Promise<RunningSmsc> {
  const smsc = new Smsc(options);
  return smsc.listen();
}

class Smsc {
  private readonly clients = new Set<Client>();
  private readonly reassembler = new Reassembler();
  private readonly received: ReceivedMessage[] = [];
  private readonly waitingReceipts: Receipt[] = [];
  private readonly stats: SmscStats = {
    binds: 0,
    refusedBinds: 0,
    submits: 0,
    throttled: 0,
    receiptsSent: 0,
    receiptsAcknowledged: 0,
  };
  private readonly server: Server;
  private readonly idPrefix: string;
  private nextId = 0;
  private dropped = false;
  private tokens: number;
  private refilledAt = Date.now();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly random: () => number;

  constructor(private readonly options: SmscOptions) {
    this.random = options.random ?? Math.random;
    this.idPrefix = Math.floor(this.random() * 0xffff)
      .toString(16)
      .padStart(4, '0');
    this.tokens = this.burst;
    this.server = smpp.createServer(options.tls === undefined ? {} : { ...options.tls }, (session) =>
      this.accept(session),
    );
  }

  private get burst(): number {
    return Math.max(1, Math.ceil((this.options.throttlePerSecond ?? 0) / 5));
  }

  listen(): Promise<RunningSmsc> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.port ?? 0, this.options.host ?? '127.0.0.1', () => {
        this.server.off('error', reject);
        const { address, port } = this.server.address() as AddressInfo;
        const host = address.includes(':') ? `[${address}]` : address;
        resolve({
          url: `${this.options.tls === undefined ? 'smpp' : 'ssmpp'}://${host}:${port}`,
          port,
          received: this.received,
          stats: this.stats,
          dropConnections: () => this.dropConnections(),
          sendRaw: (bytes) => {
            for (const client of this.clients) if (client.mode !== undefined) client.session.socket.write(bytes);
          },
          close: () => this.close(),
        });
      });
    });
  }

  private event(line: string): void {
    this.options.onEvent?.(line);
  }

  private accept(session: smpp.Session): void {
    session.socket.setNoDelay(true);
    const client: Client = { session, mode: undefined, systemId: '', unacknowledged: new Set() };
    this.clients.add(client);
    session.on('error', (error: Error) => {
      this.event(`connection error: ${error.message}`);
      session.destroy();
    });
    session.on('close', () => {
      this.clients.delete(client);
      // Receipts written and not acknowledged go back to the store, as an SMSC keeps them.
      for (const receipt of client.unacknowledged) this.waitingReceipts.push(receipt);
      client.unacknowledged.clear();
      this.flushReceipts();
    });
    session.on('pdu', (pdu: smpp.PDU) => {
      batchWrites(session.socket);
      try {
        this.handle(client, pdu);
      } catch (error) {
        this.event(`${pdu.command} not handled: ${(error as Error).message}`);
        session.send(pdu.response({ command_status: statusCode('ESME_RSYSERR') }));
      }
    });
  }

  private handle(client: Client, pdu: smpp.PDU): void {
    this.options.onPdu?.(pdu);
    if (pdu.isResponse()) return;
    const mode = BIND_MODES[pdu.command];
    if (mode !== undefined) return this.bind(client, pdu, mode);
    switch (pdu.command) {
      case 'submit_sm':
        return this.submit(client, pdu);
      case 'enquire_link':
        return void client.session.send(pdu.response());
      case 'unbind':
        client.session.send(pdu.response(), () => client.session.close());
        return;
      case 'unknown':
        this.event(`unknown command_id 0x${pdu.command_id.toString(16)}: generic_nack`);
        return void client.session.send(pdu.response());
      default:
        return void client.session.send(pdu.response({ command_status: statusCode('ESME_RINVCMDID') }));
    }
  }

  private bind(client: Client, pdu: smpp.PDU, mode: NonNullable<Client['mode']>): void {
    if (client.mode !== undefined) {
      client.session.send(pdu.response({ command_status: statusCode('ESME_RALYBND') }));
      return;
    }
    const systemId = String(pdu.system_id ?? '');
    const refusal =
      systemId !== this.options.systemId
        ? 'ESME_RINVSYSID'
        : pdu.password !== this.options.password
          ? 'ESME_RINVPASWD'
          : undefined;
    if (refusal !== undefined) {
      this.stats.refusedBinds++;
      this.event(`${pdu.command} as "${systemId}" refused: ${refusal}`);
      client.session.send(pdu.response({ command_status: statusCode(refusal) }), () => client.session.close());
      return;
    }
    client.mode = mode;
    client.systemId = systemId;
    this.stats.binds++;
    this.event(`${pdu.command} as "${systemId}" accepted`);
    client.session.send(pdu.response({ system_id: 'smskit-smsc' }));
    if (mode !== 'transmitter') this.flushReceipts();
  }

  private submit(client: Client, pdu: smpp.PDU): void {
    if (client.mode === undefined || client.mode === 'receiver') {
      client.session.send(pdu.response({ command_status: statusCode('ESME_RINVBNDSTS') }));
      return;
    }
    this.stats.submits++;
    const dropAfter = this.options.dropAfter ?? 0;
    if (dropAfter > 0 && !this.dropped && this.stats.submits >= dropAfter) {
      this.dropped = true;
      this.event(`submit_sm number ${this.stats.submits}: dropping every connection (--drop-after)`);
      this.dropConnections();
      return;
    }
    if (!this.takeToken()) {
      this.stats.throttled++;
      client.session.send(pdu.response({ command_status: statusCode('ESME_RTHROTTLED') }));
      return;
    }
    const [messageId, receiptId] = this.newIds();
    if (this.options.answerSubmits === false) {
      this.record(decodeSubmit(pdu, messageId, client.systemId, this.options.gsmPacking === 'packed'));
      return;
    }
    client.session.send(pdu.response({ message_id: messageId }));
    const part = decodeSubmit(pdu, messageId, client.systemId, this.options.gsmPacking === 'packed');
    this.record(part);
    if ((part.registeredDelivery & 0x03) !== 0)
      this.scheduleReceipt({ systemId: client.systemId, part, id: receiptId, submittedAt: new Date() });
  }

  /** The id submit_sm_resp gives, and the same id as receipts write it. */
  private newIds(): [string, string] {
    const { ids, receiptIds = ids } = this.options;
    if (ids === undefined) {
      const id = `${this.idPrefix}${(++this.nextId).toString(16).padStart(8, '0')}`;
      return [id, id];
    }
    // Above 2^32 and with the prefix's hex letters, so a hex id never reads as a decimal one.
    const value = (Number.parseInt(`a${this.idPrefix}`, 16) * 2 ** 32 + ++this.nextId).toString(16);
    const inBase = (base: 'hex' | 'decimal'): string => (base === 'hex' ? value : BigInt(`0x${value}`).toString(10));
    return [inBase(ids), inBase(receiptIds ?? ids)];
  }

  private record(part: ReceivedPart): void {
    const whole = this.reassembler.add(part);
    if (whole === undefined) return;
    const keep = this.options.keep ?? 100_000;
    this.received.push(whole);
    if (this.received.length > keep + 1_000) this.received.splice(0, this.received.length - keep);
    if (this.options.onMessage !== undefined) this.options.onMessage(whole);
  }

  private takeToken(): boolean {
    const rate = this.options.throttlePerSecond ?? 0;
    if (rate <= 0) return true;
    const now = Date.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.refilledAt) * rate) / 1000);
    this.refilledAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  private scheduleReceipt(receipt: Receipt): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.waitingReceipts.push(receipt);
      this.flushReceipts();
    }, this.options.receiptDelayMs ?? 0);
    this.timers.add(timer);
  }

  /** Sends every waiting receipt whose system_id has a receiver (or transceiver) bound. */
  private flushReceipts(): void {
    if (this.waitingReceipts.length === 0) return;
    const keep: Receipt[] = [];
    for (const receipt of this.waitingReceipts.splice(0)) {
      const client = this.receiverFor(receipt.systemId);
      if (client === undefined) keep.push(receipt);
      else this.sendReceipt(client, receipt);
    }
    this.waitingReceipts.push(...keep);
  }

  private receiverFor(systemId: string): Client | undefined {
    for (const client of this.clients) {
      if (client.systemId === systemId && (client.mode === 'transceiver' || client.mode === 'receiver')) return client;
    }
    return undefined;
  }

  private sendReceipt(client: Client, receipt: Receipt): void {
    const state = pickOutcome(this.options.outcomes ?? ALL_DELIVERED, this.random());
    const { word, messageState, err } = OUTCOME_RECEIPTS[state];
    const { part } = receipt;
    const date = receiptDate(receipt.submittedAt);
    const text =
      `id:${receipt.id} sub:001 dlvrd:${state === 'delivered' ? '001' : '000'} ` +
      `submit date:${date} done date:${receiptDate(new Date())} stat:${word} err:${err} text:`;
    const deliver = new smpp.PDU('deliver_sm', {
      source_addr_ton: part.destination.ton,
      source_addr_npi: part.destination.npi,
      source_addr: part.destination.address,
      dest_addr_ton: part.source.ton,
      dest_addr_npi: part.source.npi,
      destination_addr: part.source.address,
      esm_class: 0x04,
      data_coding: 0,
      short_message: Buffer.from(text, 'latin1'),
      receipted_message_id: receipt.id,
      message_state: messageState,
    });
    client.unacknowledged.add(receipt);
    this.stats.receiptsSent++;
    batchWrites(client.session.socket);
    const written = client.session.send(deliver, (response) => {
      client.unacknowledged.delete(receipt);
      if (response.command_status === 0) {
        this.stats.receiptsAcknowledged++;
        return;
      }
      // Refused for now (ESME_RX_T_APPN and the like): offer it again a little later.
      this.event(
        `deliver_sm for ${part.messageId} answered 0x${response.command_status.toString(16)}; resending in 1 s`,
      );
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.waitingReceipts.push(receipt);
        this.flushReceipts();
      }, 1_000);
      this.timers.add(timer);
    });
    if (!written) {
      client.unacknowledged.delete(receipt);
      this.waitingReceipts.push(receipt);
    }
  }

  private dropConnections(): void {
    for (const client of this.clients) client.session.destroy();
  }

  private async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.dropConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** YYMMDDhhmm in UTC, the receipt text's date format. */
function receiptDate(date: Date): string {
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${two(date.getUTCFullYear() % 100)}${two(date.getUTCMonth() + 1)}${two(date.getUTCDate())}${two(date.getUTCHours())}${two(date.getUTCMinutes())}`;
}
