/**
 * Whether the relay can take mail: up once a connection check (EHLO, STARTTLS, AUTH) passed;
 * after a failed check or a send that found the relay gone, down, and checked again with
 * exponential backoff and jitter (half the wait fixed, half random), so a relay that is down or
 * refuses AUTH costs one log line per check, never a tight loop.
 */
import { classifyMailError, type MailError } from './classify.js';

export interface RelayHealthOptions {
  /** The relay as "host:port", for the detail and log lines. */
  readonly relay: string;
  /** One connection check; rejects with nodemailer's error. */
  readonly verify: () => Promise<unknown>;
  /** Said when the check passes, e.g. "starttls, AUTH". */
  readonly mode: string;
  readonly reconnect: { readonly initialMs: number; readonly maxMs: number };
  readonly random: () => number;
}

export interface RelayHealth {
  isUp(): boolean;
  detail(): string;
  /** Checks now (the route's start). */
  check(log: (line: string) => void): void;
  /** A send found the relay gone: down until a check passes again. */
  markDown(reason: string): void;
  close(): void;
}

export function createRelayHealth(options: RelayHealthOptions): RelayHealth {
  const { relay } = options;
  let log: (line: string) => void = () => undefined;
  let up = false;
  let detail = `not started (relay ${relay})`;
  let failures = 0;
  let checking = false;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  function schedule(reason: string): void {
    if (closed || checking || timer !== undefined) return;
    const base = Math.min(options.reconnect.maxMs, options.reconnect.initialMs * 2 ** Math.min(failures, 20));
    const waitMs = Math.round(base / 2 + (base / 2) * options.random());
    failures += 1;
    detail = `relay ${relay} unreachable (${reason}); checking again in ${Math.ceil(waitMs / 1000)} s`;
    timer = setTimeout(() => {
      timer = undefined;
      void run();
    }, waitMs);
    timer.unref();
  }

  function markDown(reason: string): void {
    if (up) log(`relay ${relay} down: ${reason}`);
    up = false;
    schedule(reason);
  }

  async function run(): Promise<void> {
    if (closed || checking) return;
    checking = true;
    try {
      await options.verify();
      checking = false;
      if (closed) return;
      up = true;
      failures = 0;
      detail = `relay ${relay} ready (${options.mode})`;
      log(detail);
    } catch (error) {
      checking = false;
      const outcome = classifyMailError(error as MailError);
      const reason = `${outcome.code}: ${outcome.text}`;
      log(`relay ${relay} not usable: ${reason}`);
      markDown(reason);
    }
  }

  return {
    isUp: () => up && !closed,
    detail: () => detail,
    check(given) {
      log = given;
      detail = `checking relay ${relay}`;
      void run();
    },
    markDown,
    close() {
      closed = true;
      up = false;
      if (timer !== undefined) clearTimeout(timer);
      detail = `closed (relay ${relay})`;
    },
  };
}
