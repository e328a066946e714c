/**
 * An SMPP route's settings, as the routes file gives them after validation (defaults filled in).
 * The password is already read from the environment variable the file names; it is never in
 * the file, argv or a log line.
 */
import type { ReceiptIdFormat } from './receipt-ids.js';

export interface SmppRouteOptions {
  readonly host: string;
  readonly port: number;
  /** Connect over TLS (SMPP over TLS, "ssmpp"). */
  readonly tls: boolean;
  /** Extra CA certificates (PEM text) to trust for TLS, added to Node's roots. */
  readonly tlsCa?: string;
  /** transceiver: one bind; transmitter+receiver: two binds, receipts on the receiver. */
  readonly bind: 'transceiver' | 'transmitter+receiver';
  readonly systemId: string;
  readonly password: string;
  readonly systemType: string;
  readonly source: { readonly address: string; readonly ton: number; readonly npi: number };
  /** TON/NPI of destinations (the stored E.164 number without its "+"). Default 1/1. */
  readonly destination: { readonly ton: number; readonly npi: number };
  /** data_coding 0 text: one septet per octet (unpacked, the SMPP default) or 7-bit packed. */
  readonly gsmPacking: 'unpacked' | 'packed';
  /** How a long message's parts say they belong together. */
  readonly concatenation: 'udh' | 'sar';
  /** Ask for delivery receipts (registered_delivery = 1). */
  readonly receipts: boolean;
  /**
   * How the SMSC writes receipt ids against its submit_sm_resp ids: the same (`as-is`), hex in
   * the answer and decimal in the receipt (`hex-to-decimal`), or the reverse. Whichever, both
   * translations are tried before a receipt is called unknown (./receipt-ids.ts).
   */
  readonly receiptIds: ReceiptIdFormat;
  /** How long an accepted message waits for its receipt before it becomes `unknown` (ms, default 48 h). */
  readonly receiptTimeoutMs: number;
  /** Sessions (binds) to the SMSC, each with its own window (default 1). */
  readonly binds: number;
  /** Most submit_sm without a response at once, per session (default 10). */
  readonly window: number;
  /** Most submit_sm per second on the route, all sessions together; 0 = no cap. */
  readonly throughputPerSecond: number;
  /** Idle time before an enquire_link (ms, default 30 s). */
  readonly enquireLinkMs: number;
  /** How long a submit_sm may wait for its response before the message is retried (ms, default 30 s). */
  readonly responseTimeoutMs: number;
  /** Reconnect backoff: first wait, doubled per failure with jitter, up to max (ms). */
  readonly reconnect: { readonly initialMs: number; readonly maxMs: number };
  /** How long to wait for a connection and its bind_resp (ms, default 10 s). */
  readonly connectTimeoutMs: number;
}

export const SMPP_DEFAULTS = {
  port: 2775,
  tls: false,
  bind: 'transceiver',
  systemType: '',
  source: { address: 'SMSKIT', ton: 5, npi: 0 },
  destination: { ton: 1, npi: 1 },
  gsmPacking: 'unpacked',
  concatenation: 'udh',
  receipts: true,
  receiptIds: 'as-is',
  receiptTimeoutMs: 48 * 3_600_000,
  binds: 1,
  window: 10,
  throughputPerSecond: 0,
  enquireLinkMs: 30_000,
  responseTimeoutMs: 30_000,
  reconnect: { initialMs: 1_000, maxMs: 60_000 },
  connectTimeoutMs: 10_000,
} as const satisfies Omit<SmppRouteOptions, 'host' | 'systemId' | 'password'>;
