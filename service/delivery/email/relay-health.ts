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
  return new RelayCheck(options);
}

class RelayCheck implements RelayHealth {
  private readonly relay: string;
  private log: (line: string) => void = () => undefined;
  private up = false;
  private state: string;
  private failures = 0;
  private checking = false;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: RelayHealthOptions) {
    this.relay = options.relay;
    this.state = `not started (relay ${this.relay})`;
  }

  isUp(): boolean {
    return this.up && !this.closed;
  }

  detail(): string {
    return this.state;
  }

  check(log: (line: string) => void): void {
    this.log = log;
    this.state = `checking relay ${this.relay}`;
    void this.run();
  }

  markDown(reason: string): void {
    if (this.up) this.log(`relay ${this.relay} down: ${reason}`);
    this.up = false;
    this.schedule(reason);
  }

  close(): void {
    this.closed = true;
    this.up = false;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.state = `closed (relay ${this.relay})`;
  }

  private schedule(reason: string): void {
    if (this.closed || this.checking || this.timer !== undefined) return;
    const { initialMs, maxMs } = this.options.reconnect;
    const base = Math.min(maxMs, initialMs * 2 ** Math.min(this.failures, 20));
    const waitMs = Math.round(base / 2 + (base / 2) * this.options.random());
    this.failures += 1;
    this.state = `relay ${this.relay} unreachable (${reason}); checking again in ${Math.ceil(waitMs / 1000)} s`;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.run();
    }, waitMs);
    this.timer.unref();
  }

  private async run(): Promise<void> {
    if (this.closed || this.checking) return;
    this.checking = true;
    try {
      await this.options.verify();
      this.checking = false;
      if (this.closed) return;
      this.up = true;
      this.failures = 0;
      this.state = `relay ${this.relay} ready (${this.options.mode})`;
      this.log(this.state);
    } catch (error) {
      this.checking = false;
      const outcome = classifyMailError(error as MailError);
      const reason = `${outcome.code}: ${outcome.text}`;
      this.log(`relay ${this.relay} not usable: ${reason}`);
      this.markDown(reason);
    }
  }
}
