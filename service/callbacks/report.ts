/**
 * `smskit callbacks` output: queued events as a table, as JSON, and one line per event for
 * --follow. Times are ISO 8601; an event's last error is the receiver's status or the network's
 * reason (never a secret: the URL is not printed, it may carry credentials).
 */
import type { QueuedCallback } from '../store/callbacks.js';

/** One event for display and JSON, stable key order. */
export interface CallbackEntry {
  readonly seq: number;
  readonly webhookId: string;
  readonly messageId: string;
  readonly account: string;
  readonly state: string;
  readonly eventState: string;
  readonly queuedAt: string;
  readonly tries: number;
  readonly nextAttemptAt: string | null;
  readonly lastError: string | null;
}

export function toCallbackEntry(event: QueuedCallback): CallbackEntry {
  return {
    seq: event.seq,
    webhookId: `${event.messageId}.${event.seq}`,
    messageId: event.messageId,
    account: event.account,
    state: event.state,
    eventState: event.eventState,
    queuedAt: new Date(event.queuedAt).toISOString(),
    tries: event.tries,
    nextAttemptAt: event.nextAttemptAt === null ? null : new Date(event.nextAttemptAt).toISOString(),
    lastError: event.lastError,
  };
}

const COLUMNS: readonly (readonly [string, (entry: CallbackEntry) => string])[] = [
  ['SEQ', (e) => String(e.seq)],
  ['MESSAGE', (e) => e.messageId],
  ['ACCOUNT', (e) => e.account],
  ['STATE', (e) => e.state],
  ['EVENT', (e) => e.eventState],
  ['TRIES', (e) => String(e.tries)],
  ['QUEUED', (e) => e.queuedAt],
  ['NEXT TRY', (e) => e.nextAttemptAt ?? '-'],
  ['LAST ERROR', (e) => e.lastError ?? ''],
];

export function formatCallbackTable(entries: readonly CallbackEntry[]): string {
  const rows = [COLUMNS.map(([title]) => title), ...entries.map((entry) => COLUMNS.map(([, cell]) => cell(entry)))];
  const widths = COLUMNS.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  const lines = rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd(),
  );
  return `${lines.join('\n')}\n`;
}

/** --follow: one line per newly queued event. */
export function formatCallbackLine(entry: CallbackEntry): string {
  const error = entry.lastError === null ? '' : ` (${entry.lastError})`;
  return `${entry.queuedAt} ${entry.webhookId} ${entry.account} ${entry.state} ${entry.eventState}${error}`;
}
