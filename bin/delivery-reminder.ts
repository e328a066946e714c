/**
 * The one-line reminder `smskit conformance --target` prints when a run made the target queue
 * messages for real delivery. The conformance runner stays WSDL-generic: it only hands over its
 * report; this reads the `X-Smskit-Delivery` header an smskit SMS service puts beside each
 * accepted message (`queued`, or `test` for a test account's). Other services send no such
 * header and get no reminder.
 */
import type { Report } from '../conformance/types.js';

const HEADER = 'x-smskit-delivery';

/** How many answers said their message was queued for delivery. */
export function queuedForDelivery(report: Pick<Report, 'cases'>): number {
  let queued = 0;
  for (const outcome of report.cases) {
    const headers = outcome.answer === undefined ? undefined : outcome.trace?.response?.headers;
    if (headers === undefined) continue;
    const value = Object.entries(headers).find(([name]) => name.toLowerCase() === HEADER)?.[1];
    if (value === 'queued') queued += 1;
  }
  return queued;
}

export function deliveryReminder(report: Pick<Report, 'cases' | 'target'>): string | undefined {
  const queued = queuedForDelivery(report);
  if (queued === 0) return undefined;
  return `smskit: note: ${report.target} queued ${queued} message${queued === 1 ? '' : 's'} for delivery (real SMS on a live service); run conformance with a test account (smskit account add --test), see docs/conformance.md`;
}
