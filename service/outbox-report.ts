/**
 * The outbox as a report for `smskit outbox [--json]`: one entry per stored message, without the
 * message text (and no account secrets exist in the outbox). Times are ISO 8601 UTC.
 */
import type { Store, StoredMessage } from './store/index.js';

export interface OutboxEntry {
  readonly id: string;
  readonly time: string;
  readonly account: string;
  readonly keyword: string;
  readonly recipient: string;
  readonly carrier: string;
  readonly encoding: string;
  readonly segments: number;
  readonly port: number | null;
  readonly state: string;
}

export async function outboxEntries(
  store: Pick<Store, 'listOutbox'>,
  options: { limit?: number; afterId?: string } = {},
): Promise<OutboxEntry[]> {
  return (await store.listOutbox(options)).map(toEntry);
}

function toEntry(message: StoredMessage): OutboxEntry {
  return {
    id: message.id,
    time: new Date(message.createdAt).toISOString(),
    account: message.account,
    keyword: message.keyword,
    recipient: message.recipient,
    carrier: message.carrier,
    encoding: message.encoding,
    segments: message.segments,
    port: message.port,
    state: message.state,
  };
}

const COLUMNS: ReadonlyArray<[string, (entry: OutboxEntry) => string]> = [
  ['ID', (e) => e.id],
  ['TIME', (e) => e.time],
  ['ACCOUNT', (e) => e.account],
  ['KEYWORD', (e) => e.keyword],
  ['RECIPIENT', (e) => e.recipient],
  ['CARRIER', (e) => e.carrier],
  ['ENCODING', (e) => e.encoding],
  ['SEGMENTS', (e) => String(e.segments)],
  ['PORT', (e) => (e.port === null ? '-' : String(e.port))],
  ['STATE', (e) => e.state],
];

/** A plain-text table (columns padded to their widest cell), one line per message. */
export function formatOutboxTable(entries: readonly OutboxEntry[]): string {
  const rows = [COLUMNS.map(([title]) => title), ...entries.map((entry) => COLUMNS.map(([, cell]) => cell(entry)))];
  const widths = COLUMNS.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  return `${rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')}\n`;
}

/** `--json`: one JSON array, stable key order. */
export function formatOutboxJson(entries: readonly OutboxEntry[]): string {
  return `${JSON.stringify(entries, null, 2)}\n`;
}
