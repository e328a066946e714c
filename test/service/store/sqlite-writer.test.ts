/**
 * What the SQLite writer thread adds to the store contract (which sqlite.test.ts runs on it
 * too): writes of one turn share a transaction, yet one write's failure is that write's alone;
 * the event loop runs while the thread commits; close commits what was posted; another thread's
 * writes come on a channel of their own and fail once the writer is gone; a client keeps at most
 * one message with the thread (until every reply to it has come); a send is answered before its
 * batch's delivery changes run.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { MessageChannel } from 'node:worker_threads';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { StorageError } from '../../../service/errors.js';
import { type NewMessage, openSqliteStore } from '../../../service/store/index.js';
import { type Asker, Batches } from '../../../service/store/sqlite/batches.js';
import { SqliteConnection } from '../../../service/store/sqlite/connection.js';
import { toInsertRow } from '../../../service/store/sqlite/outbox.js';
import { connectWriter } from '../../../service/store/sqlite/writer.js';
import type { WriteReply, WriteRequest } from '../../../service/store/sqlite/writer-protocol.js';
import { message } from './contract.js';

const dir = mkdtempSync(join(tmpdir(), 'smskit-store-writer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;
const T0 = 1_800_000_000_000;

/** A delivery claim of up to 10 queued messages at T0. */
const CLAIM_ALL = {
  route: 'smsc',
  carriers: { except: [] },
  limit: 10,
  owner: 'w',
  now: T0,
  leaseUntil: T0 + 60_000,
};

function fresh() {
  return openSqliteStore({ path: join(dir, `writer-${counter++}.db`), writerThread: true, clock: () => T0 });
}

/** A client of a writer thread the test plays: what the client posted, and each request answered with its seq. */
function playedWriter() {
  const { port1, port2 } = new MessageChannel();
  const received: WriteRequest[][] = [];
  port2.on('message', (text: string) => received.push(JSON.parse(text) as WriteRequest[]));
  const answer = (requests: readonly WriteRequest[]) =>
    port2.postMessage(JSON.stringify(requests.map((r): WriteReply => ({ seq: r.seq, value: r.seq }))));
  const close = (): void => {
    port1.close();
    port2.close();
  };
  return { client: connectWriter(port1), received, answer, close };
}

describe('the SQLite writer thread', () => {
  // With every change fsynced a batch is one transaction, so the failure is isolated by running
  // each write again alone; by default the claim commits in a transaction after the inserts.
  it.each(['full', 'normal'] as const)(
    'isolates a failing write from the others posted in the same turn (delivery durability %s)',
    async (deliveryDurability) => {
      const store = openSqliteStore({
        path: join(dir, `writer-${counter++}.db`),
        writerThread: true,
        clock: () => T0,
        deliveryDurability,
      });
      try {
        const queued = await store.enqueue(message('first'));
        // An encoding the schema's CHECK refuses: this insert fails inside the shared transaction.
        const bad = { ...message('bad'), encoding: 'latin1' } as unknown as NewMessage;
        const [refused, claimed, accepted] = await Promise.allSettled([
          store.enqueue(bad),
          store.delivery.claim(CLAIM_ALL),
          store.enqueue(message('second')),
        ]);
        // The two enqueues of one turn are one insert: both fail together, as a batch always did.
        expect(refused.status).toBe('rejected');
        expect((refused as PromiseRejectedResult).reason).toBeInstanceOf(StorageError);
        expect((refused as PromiseRejectedResult).reason.message).toMatch(
          /^cannot commit to the outbox: CHECK constraint/,
        );
        expect(accepted.status).toBe('rejected');
        // The claim, in the same batch, went through and is committed.
        expect(claimed).toMatchObject({ status: 'fulfilled', value: [{ id: queued.id, attempt: 1 }] });
        expect(await store.getMessage(queued.id)).toMatchObject({ state: 'sending' });
        expect(await store.countOutbox()).toBe(1);
        // And the next batch is written as if nothing happened.
        const next = await store.enqueue(message('third'));
        expect(await store.getMessage(next.id)).toMatchObject({ smsmsg: 'third', state: 'queued' });
      } finally {
        await store.close();
      }
    },
  );

  it('keeps the event loop turning while a large batch commits', async () => {
    const store = openSqliteStore({ path: join(dir, `writer-${counter++}.db`), writerThread: true, maxBatch: 100_000 });
    try {
      // One batch of 20,000 rows; count the event loop's turns until its commit answers.
      let turns = 0;
      let spinning = true;
      const spin = (): void => {
        if (!spinning) return;
        turns++;
        setImmediate(spin);
      };
      const all = Promise.all(Array.from({ length: 20_000 }, (_, i) => store.enqueue(message(`m${i}`))));
      setImmediate(spin);
      await all;
      spinning = false;
      // On the event loop's own connection the commit would run before the first turn ends: 0.
      expect(turns).toBeGreaterThan(1);
      expect(await store.countOutbox()).toBe(20_000);
    } finally {
      await store.close();
    }
  });

  it('commits what was posted before close, then refuses', async () => {
    const store = openSqliteStore({ path: join(dir, `writer-${counter++}.db`), writerThread: true, maxBatch: 100_000 });
    const pending = Array.from({ length: 50 }, (_, i) => store.enqueue(message(`late${i}`)));
    // The first 50 go to the thread; the writes of the next two turns are held while those are
    // with it: close posts them too.
    await nextTurn();
    pending.push(...Array.from({ length: 5_000 }, (_, i) => store.enqueue(message(`bulk${i}`))));
    await nextTurn();
    pending.push(...Array.from({ length: 5 }, (_, i) => store.enqueue(message(`held${i}`))));
    await store.close();
    const answered = await Promise.allSettled(pending);
    expect(answered.every((a) => a.status === 'fulfilled')).toBe(true);
    await expect(store.enqueue(message('after'))).rejects.toMatchObject({ code: 'StorageClosed' });
    const reopened = openSqliteStore({ path: join(dir, `writer-${counter - 1}.db`) });
    try {
      expect(await reopened.countOutbox()).toBe(5_055);
    } finally {
      await reopened.close();
    }
  });

  it('close settles in a process with nothing else to keep it up, writes pending at the call', () => {
    // A script's last lines: writes not awaited, then close. Before the fix the last reply let the
    // process end ahead of the thread's exit: close never settled (exit code 13, nothing printed).
    const store = fileURLToPath(new URL('../../../service/store/index.ts', import.meta.url));
    const script = join(dir, 'close-last.mjs');
    writeFileSync(
      script,
      `import { openSqliteStore } from ${JSON.stringify(store)};
       const store = openSqliteStore({ path: process.argv[2], writerThread: true });
       const message = ${JSON.stringify(message('pending at close'))};
       const pending = [1, 2, 3].map(() => store.enqueue(message));
       await store.close();
       console.log('closed,', (await Promise.all(pending)).length, 'written');`,
    );
    const run = spawnSync(process.execPath, ['--import', 'tsx', script, join(dir, `writer-${counter++}.db`)], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect({ status: run.status, stdout: run.stdout }).toEqual({ status: 0, stdout: 'closed, 3 written\n' });
  });

  it("takes another thread's writes on a channel, answers them there, and fails them once it is gone", async () => {
    const store = fresh();
    const connection = store.callbacks.senderConnection!();
    if (connection.kind !== 'sqlite-writer') throw new Error(`a port to the writer, not ${connection.kind}`);
    const channel = connectWriter(connection.port);
    try {
      const queued = await store.enqueue(message('over the channel'));
      // A write from each side in one turn: both answered, each to its asker.
      const [mine, theirs] = await Promise.all([
        store.enqueue(message('from the event loop')),
        channel.write('claim', CLAIM_ALL),
      ]);
      // The claim may run after the other side's insert in the same batch and take it too.
      expect(theirs.map((claimed) => claimed.id)).toContain(queued.id);
      expect(await store.getMessage(queued.id)).toMatchObject({ state: 'sending' });
      expect(await store.getMessage(mine.id)).toMatchObject({ smsmsg: 'from the event loop' });
    } finally {
      await store.close();
    }
    // The writer thread ended with the store: the channel says so rather than waiting forever.
    await expect(channel.write('recoverExpiredLeases', T0)).rejects.toThrow(
      'cannot write to the store: the SQLite writer thread stopped',
    );
  });

  it('keeps one message with the thread: what is written meanwhile goes as one message after its reply', async () => {
    const { client, received, answer, close } = playedWriter();
    try {
      const first = [client.write('recoverExpiredLeases', 1), client.write('recoverExpiredLeases', 2)];
      await expect.poll(() => received.length).toBe(1);
      // Three more writes over three turns while the first message waits for its reply: none posted.
      const later: Array<Promise<unknown>> = [];
      for (let turn = 0; turn < 3; turn++) {
        later.push(client.write('recoverExpiredLeases', 10 + turn));
        await nextTurn();
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(received).toHaveLength(1);
      answer(received[0]!);
      expect(await Promise.all(first)).toEqual(received[0]!.map((r) => r.seq));
      // The reply lets the three go, together.
      await expect.poll(() => received.length).toBe(2);
      expect(received[1]!.map((r) => r.args[0])).toEqual([10, 11, 12]);
      answer(received[1]!);
      expect(await Promise.all(later)).toEqual(received[1]!.map((r) => r.seq));
    } finally {
      close();
    }
  });

  it('keeps the next message back until both replies to a split batch have come', async () => {
    const { client, received, answer, close } = playedWriter();
    try {
      const insert = client.write('insert', []);
      const claim = client.write('recoverExpiredLeases', 1);
      await expect.poll(() => received.length).toBe(1);
      const [insertRequest, claimRequest] = received[0]!;
      // The thread answers the acceptance first; a write made then waits for the second reply.
      answer([insertRequest!]);
      await insert;
      const later = client.write('recoverExpiredLeases', 2);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(received).toHaveLength(1);
      answer([claimRequest!]);
      await claim;
      await expect.poll(() => received.length).toBe(2);
      expect(received[1]!.map((r) => r.args[0])).toEqual([2]);
      answer(received[1]!);
      await later;
    } finally {
      close();
    }
  });

  it("answers a batch's acceptance before its delivery changes run, unless both wait for the disk", async () => {
    const committedFirst = async (deliveryDurability: 'normal' | 'full') => {
      const path = join(dir, `writer-${counter++}.db`);
      const connection = new SqliteConnection({ path, durability: 'full', deliveryDurability });
      const store = openSqliteStore({ path, clock: () => T0 });
      const queued = await store.enqueue(message('queued before'));
      const reader = new Database(path, { readonly: true });
      // At each reply the test looks at the file from another connection: what has committed by then.
      const seen: { seqs: number[]; queuedState: string | undefined }[] = [];
      const asker: Asker = {
        postMessage: (text: string) => {
          const seqs = (JSON.parse(text) as WriteReply[]).map((r) => r.seq);
          const row = reader.prepare('SELECT state FROM outbox WHERE id = ?').get(queued.id) as { state: string };
          seen.push({ seqs, queuedState: row.state });
        },
      };
      const batches = new Batches(connection, { postMessage: () => {}, close: () => {} });
      const insert = [toInsertRow('SMS-NEW', T0, message('sent now'), 'queued')];
      const requests: WriteRequest[] = [
        { seq: 1, op: 'claim', args: [CLAIM_ALL] },
        { seq: 2, op: 'insert', args: [insert] },
      ];
      try {
        batches.receive(asker, JSON.stringify(requests));
        await expect.poll(() => seen.flatMap((s) => s.seqs).length).toBe(2);
        return seen;
      } finally {
        connection.close();
        reader.close();
        await store.close();
      }
    };
    // Acceptance fsynced, delivery not (the defaults): the insert commits and is answered first,
    // while the claim posted before it in the same batch has not run yet.
    expect(await committedFirst('normal')).toEqual([
      { seqs: [2], queuedState: 'queued' },
      { seqs: [1], queuedState: 'sending' },
    ]);
    // Every change fsynced: one transaction, one fsync, one reply.
    expect(await committedFirst('full')).toEqual([{ seqs: [1, 2], queuedState: 'sending' }]);
  });
});
