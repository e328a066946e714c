/**
 * The kill test, end to end: `smskit serve` runs as a real process; a batch of 200 requests
 * mixed over the four bindings (a quarter of them deliberately refused) is sent concurrently; the
 * server is SIGKILLed right after the batch's responses, restarted on the same database, and
 * every acknowledged id must be in `smskit outbox --json` exactly once while no refused request's
 * text is stored. A second round kills the server in the middle of a batch (half the responses
 * in): what was acknowledged must survive, what was refused must not, and what got no answer is
 * stored at most once. Messages are identified by a unique marker in their text.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { ServiceAPIClient } from '../../generated/service-api/client.js';
import { SoapFaultError, TransportError, type Protocol } from '../../runtime/index.js';
import { addAccount, readOutbox, startServe, tempDir, type ServeProcess } from '../../tools/serve-process.js';

const BINDINGS: readonly Protocol[] = ['soap11', 'soap12', 'http-get', 'http-post'];
const PASSWORD = `kill test ${randomBytes(6).toString('hex')}`;
const ACCOUNT = { email: 'batch@example.com', keywords: ['BATCH'], password: PASSWORD };
const RUN = randomBytes(4).toString('hex');

const dir = tempDir('e2e-kill');
const db = join(dir.path, 'kill.sqlite');
const servers: ServeProcess[] = [];
afterAll(async () => {
  try {
    await Promise.all(servers.map((s) => s.kill()));
  } finally {
    dir.remove();
  }
});

interface Request {
  readonly marker: string;
  readonly binding: Protocol;
  readonly input: Record<string, string>;
  /** The refusal code this request is built to get, or undefined for one that must be accepted. */
  readonly refuse: string | undefined;
}

type Outcome = { kind: 'ack'; id: string } | { kind: 'refused'; code: string } | { kind: 'no answer'; error: string };

const REFUSAL_KINDS: ReadonlyArray<[string, (input: Record<string, string>) => Record<string, string>]> = [
  ['UnknownCarrier', (input) => ({ ...input, carrierCode: 'no-such-carrier' })],
  ['InvalidRecipient', (input) => ({ ...input, smsto: 'not a number' })],
  ['KeywordNotAllowed', (input) => ({ ...input, keyword: 'OTHER' })],
  ['InvalidPort', (input) => ({ ...input, port: '99999' })],
  ['MessageTooLong', (input) => ({ ...input, smsmsg: `${'x'.repeat(1600)} ${input.smsmsg}` })],
];

/** 200 requests: every 4th refused (codes in turn), a third to a port, texts in both encodings. */
function batch(round: number, size = 200): Request[] {
  return Array.from({ length: size }, (_, i) => {
    const marker = `kill-${RUN}-r${round}-${String(i).padStart(3, '0')}`;
    const text = i % 5 === 0 ? `Grüße ${marker} 👋` : `batch message ${marker}`;
    const base: Record<string, string> = {
      keyword: 'batch',
      emailAddress: ACCOUNT.email,
      password: PASSWORD,
      smsto: `+1415555${String(1000 + i)}`,
      carrierCode: 'att',
      smsmsg: text,
    };
    if (i % 3 === 0) base.port = String(1000 + i);
    const kind = i % 4 === 3 ? REFUSAL_KINDS[Math.floor(i / 4) % REFUSAL_KINDS.length]! : undefined;
    return {
      marker,
      binding: BINDINGS[i % BINDINGS.length]!,
      input: kind === undefined ? base : kind[1](base),
      refuse: kind?.[0],
    };
  });
}

async function call(clients: Map<Protocol, ServiceAPIClient>, request: Request): Promise<Outcome> {
  const client = clients.get(request.binding)!;
  try {
    const id =
      'port' in request.input
        ? (await client.SMSSendToPort(request.input)).SMSSendToPortResult
        : (await client.SMSSend(request.input)).SMSSendResult;
    return { kind: 'ack', id: id ?? '' };
  } catch (error) {
    if (error instanceof SoapFaultError)
      return { kind: 'refused', code: error.detail.code ?? `${error.code}: ${error.message}` };
    if (error instanceof TransportError) return { kind: 'no answer', error: error.code };
    throw error;
  }
}

function clientsFor(server: ServeProcess): Map<Protocol, ServiceAPIClient> {
  return new Map(
    BINDINGS.map((binding) => [binding, new ServiceAPIClient({ url: server.url, binding, timeoutMs: 60_000 })]),
  );
}

/**
 * Sends the whole batch at once; SIGKILLs the server as soon as `killAfter` responses have arrived
 * (all of them by default), without waiting for anything else.
 */
async function sendAndKill(
  server: ServeProcess,
  requests: Request[],
  killAfter = requests.length,
): Promise<{ outcomes: Outcome[]; signal: NodeJS.Signals | null }> {
  const clients = clientsFor(server);
  let answered = 0;
  let killed: Promise<{ signal: NodeJS.Signals | null }> | undefined;
  const outcomes = await Promise.all(
    requests.map(async (request) => {
      const outcome = await call(clients, request);
      if (outcome.kind !== 'no answer' && ++answered >= killAfter && killed === undefined) killed = server.kill();
      return outcome;
    }),
  );
  killed ??= server.kill(); // when fewer answers came than expected
  const exit = await killed;
  await Promise.all([...clients.values()].map((c) => c.close()));
  return { outcomes, signal: exit.signal };
}

function storedByMarker(): Map<string, Array<{ id: string; message: string }>> {
  const conn = new Database(db, { readonly: true, fileMustExist: true });
  try {
    const rows = conn
      .prepare<[string], { id: string; message: string }>(
        'SELECT id, smsmsg AS message FROM outbox WHERE instr(smsmsg, ?) > 0',
      )
      .all(`kill-${RUN}-`);
    const out = new Map<string, Array<{ id: string; message: string }>>();
    for (const row of rows) {
      const marker = /kill-[0-9a-f]+-r\d+-\d{3}/.exec(row.message)?.[0] ?? '?';
      out.set(marker, [...(out.get(marker) ?? []), row]);
    }
    return out;
  } finally {
    conn.close();
  }
}

describe('SIGKILL of smskit serve', () => {
  it('acknowledged messages survive, refused ones are never stored (after a batch, and in the middle of one)', async () => {
    servers.push(await startServe({ db }));
    await addAccount(db, ACCOUNT);

    // Round 1: the whole batch answered, then SIGKILL at once.
    const round1 = batch(1);
    const first = await sendAndKill(servers[0]!, round1);
    expect(first.signal).toBe('SIGKILL');
    const unexpected1 = round1.flatMap((request, i) => {
      const outcome = first.outcomes[i]!;
      const want = request.refuse === undefined ? 'ack' : `refused ${request.refuse}`;
      const got =
        outcome.kind === 'ack'
          ? 'ack'
          : outcome.kind === 'refused'
            ? `refused ${outcome.code}`
            : `no answer (${outcome.error})`;
      return want === got ? [] : [`${request.marker} over ${request.binding}: want ${want}, got ${got}`];
    });
    expect(unexpected1).toEqual([]);

    // Round 2: restarted on the same database; SIGKILL once half the answers are in.
    servers.push(await startServe({ db }));
    const round2 = batch(2);
    const second = await sendAndKill(servers[1]!, round2, 100);
    expect(second.signal).toBe('SIGKILL');
    const answered2 = second.outcomes.filter((o) => o.kind !== 'no answer').length;
    expect(answered2).toBeGreaterThanOrEqual(100);
    for (const [i, outcome] of second.outcomes.entries()) {
      if (outcome.kind === 'refused') expect(outcome.code, round2[i]!.marker).toBe(round2[i]!.refuse);
      if (outcome.kind === 'ack') expect(round2[i]!.refuse, round2[i]!.marker).toBeUndefined();
    }

    // Restart once more: the outbox (through the CLI and the table) must hold every acknowledged message once.
    const last = await startServe({ db });
    servers.push(last);
    const requests = [...round1, ...round2];
    const outcomes = [...first.outcomes, ...second.outcomes];
    const { entries } = await readOutbox(db);
    const idCount = new Map<string, number>();
    for (const entry of entries) idCount.set(entry.id, (idCount.get(entry.id) ?? 0) + 1);
    const byMarker = storedByMarker();
    const problems = requests.flatMap((request, i) => {
      const outcome = outcomes[i]!;
      const rows = byMarker.get(request.marker) ?? [];
      if (outcome.kind === 'ack') {
        if (idCount.get(outcome.id) !== 1)
          return [
            `${request.marker}: acknowledged ${outcome.id} is in smskit outbox --json ${idCount.get(outcome.id) ?? 0} times`,
          ];
        if (rows.length !== 1 || rows[0]!.id !== outcome.id || rows[0]!.message !== request.input.smsmsg)
          return [
            `${request.marker}: acknowledged as ${outcome.id}, stored as ${JSON.stringify(rows.map((r) => r.id))}`,
          ];
        return [];
      }
      if (outcome.kind === 'refused')
        return rows.length === 0
          ? []
          : [`${request.marker}: refused (${outcome.code}) but stored as ${rows.map((r) => r.id).join(', ')}`];
      return rows.length <= 1 ? [] : [`${request.marker}: unanswered, stored ${rows.length} times`];
    });
    expect(problems).toEqual([]);
    const acked = outcomes.filter((o) => o.kind === 'ack').length;
    expect(acked).toBeGreaterThanOrEqual(150 + 50);
    expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
    // nothing but our batch is stored, and nothing twice
    expect(entries.length).toBe([...byMarker.values()].reduce((n, rows) => n + rows.length, 0));

    // The restarted server works, and SIGINT in the middle of a batch is graceful: requests it
    // had accepted are answered (and what it acknowledged is stored), then it exits 0.
    const clients = clientsFor(last);
    const round3 = batch(3, 40);
    let outcomes3: Outcome[];
    try {
      const first3 = await call(clients, round3[0]!);
      expect(first3.kind).toBe('ack');
      // SIGINT once five calls of the batch have settled: the rest are in flight or not yet sent.
      let settled = 0;
      let fiveSettled: () => void = () => {};
      const firstFive = new Promise<void>((resolve) => (fiveSettled = resolve));
      const inFlight = round3.slice(1).map((request) =>
        call(clients, request).then((outcome) => {
          if (++settled === 5) fiveSettled();
          return outcome;
        }),
      );
      await firstFive;
      const stopping = last.stop('SIGINT', 60_000);
      outcomes3 = [first3, ...(await Promise.all(inFlight))];
      const exit = await stopping;
      expect(exit.code, exit.stderr).toBe(0);
      expect(exit.stderr).toContain('SIGINT');
    } finally {
      await Promise.all([...clients.values()].map((c) => c.close()));
    }
    const after = storedByMarker();
    const lost = round3.flatMap((request, i) => {
      const outcome = outcomes3[i]!;
      if (outcome.kind === 'ack' && after.get(request.marker)?.[0]?.id !== outcome.id)
        return [`${request.marker}: acknowledged ${outcome.id} but not stored`];
      if (outcome.kind !== 'ack' && after.has(request.marker)) return [`${request.marker}: ${outcome.kind} but stored`];
      if (outcome.kind === 'refused' && outcome.code !== request.refuse)
        return [`${request.marker}: refused ${outcome.code}, want ${request.refuse}`];
      return [];
    });
    expect(lost).toEqual([]);
    for (const server of servers) {
      const { stdout, stderr } = server.output();
      expect(stdout + stderr).not.toContain(PASSWORD);
    }

    const conn = new Database(db, { readonly: true });
    try {
      expect(conn.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      conn.close();
    }
    const summary3 = `round 3 (SIGINT mid-batch): ${outcomes3.filter((o) => o.kind === 'ack').length} acknowledged, ${outcomes3.filter((o) => o.kind === 'no answer').length} unanswered (${[...new Set(outcomes3.flatMap((o) => (o.kind === 'no answer' ? [o.error] : [])))].join(', ')})`;
    console.log(
      `e2e kill: ${summary3}; round 1 ${first.outcomes.filter((o) => o.kind === 'ack').length} acknowledged; round 2 ${answered2} answered before the kill, ${second.outcomes.filter((o) => o.kind === 'ack').length} acknowledged; ${entries.length} stored`,
    );
  }, 300_000);
});
