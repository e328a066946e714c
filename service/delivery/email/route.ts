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
import type { CarrierTable } from '../../carriers.js';
import { gatewayAddress } from '../../email-gateways.js';
import type { OutgoingMessage, Route, RouteEvents, RouteStatus, SubmitResult } from '../route.js';
import { acceptedPeerId, classifyMailError, oneLine, type MailError } from './classify.js';
import type { EmailRouteOptions } from './options.js';

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
  const transport = nodemailer.createTransport(transportOptions(options));
  const random = context.random ?? Math.random;
  const relay = `${options.host}:${options.port}`;
  /** The engine puts the route's name in front of each log line. */
  let events: RouteEvents | undefined;
  let up = false;
  let detail = `not started (relay ${relay})`;
  let failures = 0;
  let checking = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let closed = false;
  const inFlight = new Set<Promise<SubmitResult>>();
  let abandon: (() => void) | undefined;
  /** Resolves when close() gives up on what is still in flight (its deadline passed). */
  const abandoned = new Promise<SubmitResult>((resolve) => {
    abandon = () =>
      resolve({
        outcome: 'retry',
        code: 'RouteClosed',
        text: 'the route closed before the relay answered',
        maybeSent: true,
      });
  });

  function markDown(reason: string): void {
    const wasUp = up;
    up = false;
    if (wasUp) events?.log(`relay ${relay} down: ${reason}`);
    scheduleCheck(reason);
  }

  function scheduleCheck(reason: string): void {
    if (closed || checking || retryTimer !== undefined) return;
    const base = Math.min(options.reconnect.maxMs, options.reconnect.initialMs * 2 ** Math.min(failures, 20));
    const waitMs = Math.round(base / 2 + (base / 2) * random());
    failures += 1;
    detail = `relay ${relay} unreachable (${reason}); checking again in ${Math.ceil(waitMs / 1000)} s`;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void check();
    }, waitMs);
    retryTimer.unref();
  }

  async function check(): Promise<void> {
    if (closed || checking) return;
    checking = true;
    try {
      await transport.verify();
      if (closed) return;
      up = true;
      failures = 0;
      detail = `relay ${relay} ready (${options.security}${options.username === undefined ? '' : ', AUTH'})`;
      events?.log(detail);
    } catch (error) {
      const outcome = classifyMailError(error as MailError);
      const reason = `${outcome.code}: ${outcome.text}`;
      // One line per failed check; the backoff bounds how often it appears.
      events?.log(`relay ${relay} not usable: ${reason}`);
      checking = false;
      markDown(reason);
      return;
    }
    checking = false;
  }

  async function send(message: OutgoingMessage): Promise<SubmitResult> {
    const gateway = context.carriers.emailGateways.get(message.carrier);
    if (gateway === undefined)
      return {
        outcome: 'rejected',
        code: 'NoEmailGateway',
        text: `carrier "${message.carrier}" has no e-mail gateway`,
      };
    const to = gatewayAddress(message.recipient, gateway);
    if (to === undefined)
      return {
        outcome: 'rejected',
        code: 'NotServedByGateway',
        text: `${gateway.domain} does not serve ${message.recipient.slice(0, 3)}… numbers`,
      };
    const fromDomain = options.from.slice(options.from.lastIndexOf('@') + 1);
    // The same Message-ID on every attempt lets a relay or gateway drop a resent duplicate.
    const messageId = `<${message.id}@${fromDomain}>`;
    try {
      const info = await transport.sendMail({
        from: options.from,
        to,
        ...(options.subject === undefined ? {} : { subject: options.subject }),
        text: message.text,
        messageId,
        textEncoding: 'quoted-printable',
        disableFileAccess: true,
        disableUrlAccess: true,
      });
      if (info.rejected.length > 0)
        return { outcome: 'rejected', code: 'smtp:550', text: oneLine(String(info.response ?? 'recipient refused')) };
      return { outcome: 'accepted', peerIds: [acceptedPeerId(info.response, messageId)] };
    } catch (error) {
      const { routeDown, ...result } = classifyMailError(error as MailError);
      if (routeDown) markDown(`${result.code}: ${result.text}`);
      return result;
    }
  }

  return {
    name,
    kind: 'email',
    start(given) {
      events = given;
      detail = `checking relay ${relay}`;
      void check();
    },
    submit(message) {
      if (closed)
        return Promise.resolve({
          outcome: 'retry',
          code: 'RouteClosed',
          text: 'the route is closed',
          maybeSent: false,
        });
      const pending = Promise.race([send(message), abandoned]);
      inFlight.add(pending);
      void pending.finally(() => inFlight.delete(pending));
      return pending;
    },
    status(): RouteStatus {
      return { up: up && !closed, inFlight: inFlight.size, window: options.connections, detail };
    },
    async close(deadlineMs) {
      closed = true;
      up = false;
      if (retryTimer !== undefined) clearTimeout(retryTimer);
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, Math.max(0, deadlineMs));
      });
      await Promise.race([Promise.allSettled([...inFlight]), deadline]);
      clearTimeout(timer);
      // What is still in flight may reach the relay: it goes back to the queue, flagged.
      abandon?.();
      transport.close();
      detail = `closed (relay ${relay})`;
    },
  };
}
