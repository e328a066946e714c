/**
 * Where Kannel reports its delivery reports in the gateway section: a small HTTP server on
 * loopback that Kannel's dlr-url points at (`/dlr?type=%d&sent=<ms>`). It counts the final
 * receipts (type 1, delivered; other final types are counted apart) and keeps, for each SMSC
 * acknowledgement (type 8), the time from the moment the load generator sent the request (the
 * `sent` stamp it appends) to the report's arrival: Kannel's acceptance → accepted, as near as
 * it can be seen from outside.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DlrCounts {
  /** Type 1 reports (delivered to the handset). */
  readonly delivered: number;
  /** Types 2 and 16 (failed, rejected by the SMSC). */
  readonly failed: number;
  /** Type 8 reports (the SMSC acknowledged the submit). */
  readonly accepted: number;
  /** Sent → type 8 report, ms, in arrival order. */
  readonly acceptedMs: readonly number[];
  /** Arrival time of the last report of any type (ms since the epoch, 0 when none). */
  readonly lastAt: number;
}

export interface DlrCounter {
  /** The dlr-url Kannel calls, up to and including `sent=` (the load generator appends the stamp). */
  readonly url: string;
  /** What arrived since the last reset; `reset` starts counting afresh. */
  counts(reset?: boolean): DlrCounts;
  close(): Promise<void>;
}

export async function startDlrCounter(): Promise<DlrCounter> {
  let counts = empty();
  const server: Server = createServer((request, response) => {
    const query = new URL(request.url ?? '/', 'http://x').searchParams;
    const type = Number(query.get('type'));
    const now = Date.now();
    if (type === 1) counts.delivered++;
    else if (type === 2 || type === 16) counts.failed++;
    else if (type === 8) {
      counts.accepted++;
      const sent = Number(query.get('sent'));
      if (Number.isFinite(sent) && sent > 0) counts.acceptedMs.push(now - sent);
    }
    counts.lastAt = now;
    response.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/dlr?type=%d&sent=`,
    counts: (reset = false) => {
      const now = { ...counts, acceptedMs: [...counts.acceptedMs] };
      if (reset) counts = empty();
      return now;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function empty(): { delivered: number; failed: number; accepted: number; acceptedMs: number[]; lastAt: number } {
  return { delivered: 0, failed: 0, accepted: 0, acceptedMs: [], lastAt: 0 };
}
