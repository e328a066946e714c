/**
 * The outbox as a report for `smskit outbox [--json]`: one entry per stored message, without the
 * message text (and no account secrets exist in the outbox), one message with its history
 * (`--id`), and one line per state change (`--follow`). Times are ISO 8601 UTC.
 */
import type { HistoryChange, HistoryEvent, OutboxQuery, Store, StoredMessage } from '../store/index.js';
import type { MessagePart } from '../store/records.js';

/** One message as operators see it; `smsto` and `carrierCode` carry the contract's names, as stored. */
export interface OutboxEntry {
  readonly id: string;
  readonly time: string;
  readonly account: string;
  readonly keyword: string;
  readonly smsto: string;
  readonly carrierCode: string;
  readonly encoding: string;
  readonly segments: number;
  readonly port: number | null;
  readonly state: string;
  /** When the state last changed. */
  readonly updated?: string;
  readonly attempts?: number;
  readonly route?: string | null;
  readonly smscId?: string | null;
  /** Every part's SMSC id, in part order (the latest attempt's; [] before the peer took it). */
  readonly smscIds?: readonly string[];
  /** Each part with its own receipt state: only when the parts' states differ. */
  readonly parts?: readonly PartEntry[];
  /** The last error, "code: text", or null. */
  readonly lastError?: string | null;
  readonly possibleDuplicate?: boolean;
}

/** One part of a long message whose parts ended differently. */
export interface PartEntry {
  readonly part: number;
  readonly smscId: string;
  /** The part's receipt state, or "waiting" while it has none. */
  readonly state: string;
}

/** The stored messages in acceptance order (the first listing; `outboxReport` filters). */
export async function outboxEntries(
  store: Pick<Store, 'listOutbox'>,
  options: { limit?: number; afterId?: string } = {},
): Promise<OutboxEntry[]> {
  return (await store.listOutbox(options)).map(toEntry);
}

/** The messages matching `query`, newest first unless it says otherwise, with their delivery fields. */
export async function outboxReport(
  store: Pick<Store, 'findOutbox' | 'messageParts'>,
  query: OutboxQuery,
): Promise<OutboxEntry[]> {
  const messages = await store.findOutbox(query);
  const parts = await store.messageParts(messages.map((m) => m.id));
  return messages.map((message) => toStatusEntry(message, parts));
}

/** The entry for `message`, with its SMSC ids (and its parts' states when they differ) from `parts`. */
export function toStatusEntry(message: StoredMessage, parts: readonly MessagePart[] = []): OutboxEntry {
  const mine = parts.filter((part) => part.messageId === message.id);
  const states = new Set(mine.map((part) => part.state));
  return {
    ...toEntry(message),
    updated: new Date(message.updatedAt).toISOString(),
    attempts: message.attempts,
    route: message.route,
    smscId: message.smscId,
    smscIds: mine.map((part) => part.smscId),
    ...(states.size > 1
      ? { parts: mine.map((part) => ({ part: part.part, smscId: part.smscId, state: part.state ?? 'waiting' })) }
      : {}),
    lastError: message.errorCode === null ? null : `${message.errorCode}: ${message.errorText ?? ''}`.trim(),
    possibleDuplicate: message.possibleDuplicate,
  };
}

function toEntry(message: StoredMessage): OutboxEntry {
  return {
    id: message.id,
    time: new Date(message.createdAt).toISOString(),
    account: message.account,
    keyword: message.keyword,
    smsto: message.smsto,
    carrierCode: message.carrierCode,
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
  ['SMSTO', (e) => e.smsto],
  ['CARRIERCODE', (e) => e.carrierCode],
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

/** A history event for display and JSON: times as ISO 8601, no message text. */
export interface HistoryEntry {
  readonly time: string;
  readonly state: string;
  readonly attempt: number;
  readonly route: string | null;
  readonly smscId: string | null;
  readonly code: string | null;
  readonly text: string | null;
}

function toHistoryEntry(event: HistoryEvent): HistoryEntry {
  return {
    time: new Date(event.at).toISOString(),
    state: event.state,
    attempt: event.attempt,
    route: event.route,
    smscId: event.smscId,
    code: event.code,
    text: event.text,
  };
}

export interface MessageReport {
  readonly message: OutboxEntry;
  readonly history: readonly HistoryEntry[];
}

export async function messageReport(
  store: Pick<Store, 'getMessage' | 'history' | 'messageParts'>,
  id: string,
): Promise<MessageReport | undefined> {
  const message = await store.getMessage(id);
  if (message === undefined) return undefined;
  const parts = await store.messageParts([id]);
  return { message: toStatusEntry(message, parts), history: (await store.history(id)).map(toHistoryEntry) };
}

/** `--id`: the message's fields, one per line, then its history as a table. */
export function formatMessageReport(report: MessageReport): string {
  const m = report.message;
  const fields: Array<[string, string]> = [
    ['id', m.id],
    ['state', `${m.state} (since ${m.updated ?? m.time})`],
    ['accepted', m.time],
    ['account', `${m.account} (keyword ${m.keyword})`],
    ['smsto', `${m.smsto} (carrierCode ${m.carrierCode})`],
    [
      'encoding',
      `${m.encoding}, ${m.segments} segment${m.segments === 1 ? '' : 's'}${m.port === null ? '' : `, port ${m.port}`}`,
    ],
    ['attempts', String(m.attempts ?? 0)],
    ['route', m.route ?? '-'],
    ['smsc id', m.smscIds !== undefined && m.smscIds.length > 1 ? m.smscIds.join(' ') : (m.smscId ?? '-')],
    ['last error', m.lastError ?? '-'],
  ];
  if (m.parts !== undefined) fields.push(['parts', m.parts.map((p) => `${p.part} ${p.smscId} ${p.state}`).join('; ')]);
  if (m.possibleDuplicate === true) fields.push(['duplicate', 'possible: it was being sent when a worker stopped']);
  const head = fields.map(([name, value]) => `${`${name}:`.padEnd(12)}${value}`).join('\n');
  const rows = [
    ['TIME', 'STATE', 'ATTEMPT', 'ROUTE', 'SMSC ID', 'DETAIL'],
    ...report.history.map((e) => [
      e.time,
      e.state,
      String(e.attempt),
      e.route ?? '-',
      e.smscId ?? '-',
      [e.code, e.text].filter((part) => part !== null && part !== '').join(': ') || '-',
    ]),
  ];
  return `${head}\nhistory:\n${padTable(rows, '  ')}`;
}

/** `--follow`: one line per state change (a new message is its `queued` or `test` change). */
export function formatChange(id: string, event: HistoryEvent): string {
  const parts = [new Date(event.at).toISOString(), id, event.state];
  if (event.attempt > 0) parts.push(`attempt ${event.attempt}`);
  if (event.route !== null) parts.push(`route ${event.route}`);
  if (event.smscId !== null) parts.push(`smsc ${event.smscId}`);
  const detail = [event.code, event.text].filter((part) => part !== null && part !== '').join(': ');
  if (detail !== '') parts.push(detail);
  return parts.join('  ');
}

export function changeJson(id: string, event: HistoryEvent | HistoryChange): string {
  return JSON.stringify({ id, ...toHistoryEntry(event) });
}

function padTable(rows: readonly (readonly string[])[], indent: string): string {
  const widths = (rows[0] ?? []).map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  return `${rows
    .map((row) => `${indent}${row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ')}`.trimEnd())
    .join('\n')}\n`;
}
