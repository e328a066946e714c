/**
 * The e-mail route: each message becomes one mail to `<number>@<gateway domain>` (the carrier
 * table's gateway for the message's carrier code), sent through a relay with nodemailer's SMTP
 * pool (STARTTLS or TLS, AUTH). The whole text goes in one mail: the gateway splits it into SMS
 * parts itself. Gateways send no delivery receipts, so a mailed message stays `accepted`.
 *
 * The route is up once the relay answered a connection check (EHLO, STARTTLS, AUTH); while it is
 * down (unreachable, AUTH refused) it checks again with exponential backoff and jitter, and the
 * engine holds its messages. The body is UTF-8 (quoted-printable when it is not plain ASCII), so
 * every character the service accepted arrives as it was sent.
 */
import nodemailer from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool/index.js';
import type { CarrierTable } from '../carriers.js';
import type { OutgoingMessage, Route, RouteEvents, RouteStatus, SubmitResult } from '../route.js';
import { type MailTransport, sendAsMail } from './mail.js';
import type { EmailRouteOptions } from './options.js';
import { createRelayHealth, type RelayHealth } from './relay-health.js';

export interface EmailRouteContext {
  readonly carriers: Pick<CarrierTable, 'emailGateways'>;
  /** Random in [0, 1) for the backoff jitter; Math.random unless a test fixes it. */
  readonly random?: () => number;
}

function transportOptions(options: EmailRouteOptions): SMTPPool.Options {
  return {
    pool: true,
    host: options.host,
    port: options.port,
    secure: options.security === 'tls',
    requireTLS: options.security === 'starttls',
    ignoreTLS: options.security === 'none',
    ...(options.username === undefined ? {} : { auth: { user: options.username, pass: options.password ?? '' } }),
    tls: { minVersion: 'TLSv1.2', ...(options.tlsCa === undefined ? {} : { ca: [options.tlsCa] }) },
    maxConnections: options.connections,
    maxMessages: options.messagesPerConnection,
    connectionTimeout: options.timeoutMs,
    greetingTimeout: options.timeoutMs,
    socketTimeout: options.timeoutMs,
    dnsTimeout: options.timeoutMs,
    logger: false,
    debug: false,
  };
}

export function createEmailRoute(name: string, options: EmailRouteOptions, context: EmailRouteContext): Route {
  return new EmailRoute(name, options, context);
}

class EmailRoute implements Route {
  readonly kind = 'email';
  private readonly transport: MailTransport;
  private readonly health: RelayHealth;
  private closed = false;
  private readonly inFlight = new Set<Promise<SubmitResult>>();
  private abandon: (() => void) | undefined;
  /** Resolves when close() gives up on what is still in flight (its deadline passed). */
  private readonly abandoned = new Promise<SubmitResult>((resolve) => {
    this.abandon = () =>
      resolve({
        outcome: 'retry',
        code: 'RouteClosed',
        text: 'the route closed before the relay answered',
        maybeSent: true,
      });
  });

  constructor(
    readonly name: string,
    private readonly options: EmailRouteOptions,
    private readonly context: EmailRouteContext,
  ) {
    const transport: MailTransport = nodemailer.createTransport(transportOptions(options));
    this.transport = transport;
    this.health = createRelayHealth({
      relay: `${options.host}:${options.port}`,
      verify: () => transport.verify(),
      mode: `${options.security}${options.username === undefined ? '' : ', AUTH'}`,
      reconnect: options.reconnect,
      random: context.random ?? Math.random,
    });
  }

  /** The engine puts the route's name in front of each log line. */
  start(events: RouteEvents): void {
    this.health.check((line) => events.log(line));
  }

  submit(message: OutgoingMessage): Promise<SubmitResult> {
    if (this.closed)
      return Promise.resolve({ outcome: 'retry', code: 'RouteClosed', text: 'the route is closed', maybeSent: false });
    const pending = Promise.race([this.send(message), this.abandoned]);
    this.inFlight.add(pending);
    void pending.finally(() => this.inFlight.delete(pending));
    return pending;
  }

  status(): RouteStatus {
    return {
      up: this.health.isUp(),
      inFlight: this.inFlight.size,
      window: this.options.connections,
      detail: this.health.detail(),
    };
  }

  async close(deadlineMs: number): Promise<void> {
    this.closed = true;
    this.health.close();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, Math.max(0, deadlineMs));
    });
    await Promise.race([Promise.allSettled([...this.inFlight]), deadline]);
    clearTimeout(timer);
    // What is still in flight may reach the relay: it goes back to the queue, flagged.
    this.abandon?.();
    this.transport.close();
  }

  private async send(message: OutgoingMessage): Promise<SubmitResult> {
    const { result, relayDown } = await sendAsMail(this.transport, this.options, this.context.carriers, message);
    if (relayDown !== undefined) this.health.markDown(relayDown);
    return result;
  }
}
