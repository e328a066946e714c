/**
 * Routes made of other routes: `failover: [primary, backup]` sends through the first member that
 * is up, and moves a message on to the next member once it has failed transiently
 * `failoverAfter` times (its attempt number says so, so this holds across restarts);
 * `roundRobin: [a, b]` takes the up members in turn. The members are ordinary routes (each its
 * own SMSC, binds and window); the composite starts and closes them, reports each one, and names
 * the member that took a message, so its parts and receipts are keyed by that member (two SMSCs
 * may hand out the same ids).
 */
import type { MemberStatus, OutgoingMessage, Route, RouteEvents, RouteStatus, SubmitResult } from './route.js';

export interface CompositeOptions {
  readonly kind: 'failover' | 'roundRobin';
  /** failover: transient failures of a message before its next attempt goes to the next member. */
  readonly failoverAfter: number;
}

export function createCompositeRoute(name: string, members: readonly Route[], options: CompositeOptions): Route {
  return new CompositeRoute(name, members, options);
}

class CompositeRoute implements Route {
  readonly kind: 'failover' | 'roundRobin';
  readonly receiptTimeoutMs: number | undefined;
  private turn = 0;

  constructor(
    readonly name: string,
    private readonly members: readonly Route[],
    private readonly options: CompositeOptions,
  ) {
    this.kind = options.kind;
    const timeouts = members.map((m) => m.receiptTimeoutMs).filter((ms): ms is number => ms !== undefined);
    // The longest: a message waits as long as the member that took it would have it wait.
    this.receiptTimeoutMs = timeouts.length === 0 ? undefined : Math.max(...timeouts);
  }

  start(events: RouteEvents): void {
    for (const member of this.members) {
      member.start({
        receipt: (receipt) => events.receipt(receipt, member.name),
        log: (line) => events.log(`${member.name}: ${line}`),
      });
    }
  }

  async submit(message: OutgoingMessage): Promise<SubmitResult> {
    const member = this.choose(message);
    const result = await member.submit(message);
    return result.outcome === 'accepted' ? { ...result, route: member.name } : result;
  }

  /** failover: the first member up from the one the attempt calls for; roundRobin: the next up in turn. */
  private choose(message: OutgoingMessage): Route {
    const count = this.members.length;
    const failures = (message.attempt ?? 1) - 1;
    const from =
      this.kind === 'failover' ? Math.min(count - 1, Math.floor(failures / this.options.failoverAfter)) : this.turn;
    for (let i = 0; i < count; i++) {
      const member = this.members[(from + i) % count] as Route;
      if (!member.status().up) continue;
      if (this.kind === 'roundRobin') this.turn = (from + i + 1) % count;
      return member;
    }
    return this.members[from % count] as Route; // none up: its answer says why (not bound)
  }

  status(): RouteStatus {
    const members: MemberStatus[] = this.members.map((m) => ({ name: m.name, kind: m.kind, ...m.status() }));
    const up = members.filter((m) => m.up);
    const windows = up.map((m) => m.window);
    return {
      up: up.length > 0,
      inFlight: members.reduce((sum, m) => sum + m.inFlight, 0),
      // failover sends through one member at a time; roundRobin through all that are up.
      window: Math.max(1, this.kind === 'failover' ? (windows[0] ?? 1) : windows.reduce((a, b) => a + b, 0)),
      detail: members.map((m) => `${m.name} ${m.up ? 'up' : 'down'}: ${m.detail}`).join('; '),
      members,
    };
  }

  async close(deadlineMs: number): Promise<void> {
    await Promise.all(this.members.map((member) => member.close(deadlineMs)));
  }
}
