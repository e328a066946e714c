/**
 * The callbacks section: what telling the sending application about every state change costs
 * delivery. The delivery section's run (HTTP POST load for a few seconds, SMPP to the simulator,
 * receipts on) three ways, in interleaved rounds so the machine's drift falls on all three alike:
 *   - no callback URL on the account (the baseline);
 *   - a receiver that answers at once (one signed POST per state change: sending, accepted,
 *     delivered);
 *   - a receiver that answers after 1 s (callbacks pile up in flight; delivery must not wait);
 *   - the fast receiver with `serve --callback-busy-defer 0`: callbacks sent while delivery keeps
 *     serve busy, as they were before the sender held back (information, not judged).
 * Figures: end-to-end delivered msg/s of each (median over the rounds), their ratios to the
 * baseline (judged), the median of each round's ratio to the baseline run before it, and for the
 * fast receivers the time from the last delivery until the last callback arrived (held back
 * during the burst, the queue drains after it).
 */
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { ask, forkChild, nextMessage, stopChild } from '../lib/procs.js';
import { ratioRow, type Row, type Settings } from '../lib/report.js';
import { ACCOUNT_INPUT, runCli } from '../lib/serve.js';
import { run } from './delivery.js';

type Mode = 'none' | 'fast' | 'slow' | 'eager';
const MODES: readonly Mode[] = ['none', 'fast', 'slow', 'eager'];
/** The fast receiver's modes: each waits for every callback and measures how far behind the last came. */
const FAST_RECEIVER: ReadonlySet<Mode> = new Set(['fast', 'eager']);
const SECRET = `whsec_${randomBytes(32).toString('base64')}`;

interface Receiver {
  readonly child: ChildProcess;
  readonly url: string;
}

async function startReceiver(delayMs: number): Promise<Receiver> {
  const child = await forkChild('callback-receiver.ts', [String(delayMs)]);
  const { port } = await nextMessage<{ port: number }>(child, 30_000, 'callback receiver');
  return { child, url: `http://127.0.0.1:${port}/callbacks` };
}

const received = (receiver: Receiver) =>
  ask<{ received: number; lastAt: number }>(receiver.child, {}, 10_000, 'callback receiver');

async function setCallback(db: string, url: string): Promise<void> {
  const args = ['account', 'set', '--db', db, '--email', ACCOUNT_INPUT.emailAddress, '--callback-url', url];
  const result = await runCli([...args, '--allow-http-callback', '--callback-secret', SECRET]);
  if (result.code !== 0) throw new Error(`smskit account set --callback-url failed: ${result.stderr}`);
}

/**
 * Gives the account its receiver, then waits for `serve` to start its sender's thread (it looks
 * every 200 ms once an account has a receiver; the thread takes ~0.3 s to start): the rounds
 * measure delivery with callbacks running, as a service that has receivers runs, not the
 * thread's start, which a 3-second round would count as a tenth of its CPU.
 */
async function receiverOn(db: string, url: string): Promise<void> {
  await setCallback(db, url);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
}

/** Waits until the receiver has `expected` callbacks (the fast receiver only: the slow one is not waited for). */
async function waitForCallbacks(receiver: Receiver, expected: number, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const now = await received(receiver);
    if (now.received >= expected) return now.lastAt;
    if (Date.now() > deadline) throw new Error(`${now.received} of ${expected} callbacks after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

interface Round {
  readonly endToEnd: number;
  /** Fast receiver only: last callback − last delivery (ms). */
  readonly lagMs?: number;
}

async function runMode(mode: Mode, settings: Settings, receivers: Record<'fast' | 'slow', Receiver>): Promise<Round> {
  const receiver = mode === 'none' ? undefined : receivers[mode === 'slow' ? 'slow' : 'fast'];
  const before = receiver === undefined ? 0 : (await received(receiver)).received;
  let lastCallbackAt = 0;
  const result = await run(
    0,
    { kind: 'timed', seconds: settings.seconds, connections: settings.connections },
    'normal',
    {
      serveArgs: ['--allow-private-callbacks', ...(mode === 'eager' ? ['--callback-busy-defer', '0'] : [])],
      ...(receiver === undefined ? {} : { ready: (db: string) => receiverOn(db, receiver.url) }),
      ...(FAST_RECEIVER.has(mode)
        ? {
            final: async (acknowledged: number) => {
              lastCallbackAt = await waitForCallbacks(receivers.fast, before + acknowledged * 3, 120_000);
            },
          }
        : {}),
    },
  );
  const t = result.timeline;
  return {
    endToEnd: t.endToEndPerSecond,
    ...(FAST_RECEIVER.has(mode) ? { lagMs: lastCallbackAt - t.lastDeliveredAt } : {}),
  };
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

export async function runCallbacksSection(
  settings: Settings,
  log: (line: string) => void,
): Promise<{ rows: Row[]; figures: Record<string, unknown> }> {
  const receivers = { fast: await startReceiver(0), slow: await startReceiver(1_000) };
  const rounds: Record<Mode, Round[]> = { none: [], fast: [], slow: [], eager: [] };
  try {
    for (let round = 0; round < Math.max(1, settings.rounds); round++) {
      for (const mode of MODES) {
        const r = await runMode(mode, settings, receivers);
        rounds[mode].push(r);
        const lag = r.lagMs === undefined ? '' : `, last callback ${Math.round(r.lagMs)} ms after the last delivery`;
        log(`  callbacks ${mode}, round ${round + 1}: end to end ${Math.round(r.endToEnd)} msg/s${lag}`);
      }
    }
  } finally {
    await stopChild(receivers.fast.child);
    await stopChild(receivers.slow.child);
  }
  const figure = (mode: Mode) => median(rounds[mode].map((r) => r.endToEnd));
  const base = { section: 'callbacks', unit: 'msg/s', peer: 'no callbacks', peerFigure: figure('none') };
  const lag = (mode: Mode) => median(rounds[mode].map((r) => r.lagMs ?? Number.NaN));
  const rows: Row[] = [
    ratioRow({ ...base, name: 'delivered, a callback per state change', figure: figure('fast') }, { min: 0.9 }),
    ratioRow({ ...base, name: 'delivered, the receiver answering in 1 s', figure: figure('slow') }, { min: 0.95 }),
    perRoundRow('a callback per state change / none, per round', rounds.fast, rounds.none),
    perRoundRow('the receiver answering in 1 s / none, per round', rounds.slow, rounds.none),
    { section: 'callbacks', name: 'last callback after the last delivery', figure: lag('fast'), unit: 'ms' },
    {
      ...base,
      name: 'delivered, a callback per state change, never held back',
      figure: figure('eager'),
      ratio: figure('eager') / figure('none'),
      note: 'serve --callback-busy-defer 0: the callbacks sent during the burst (not judged)',
    },
    perRoundRow('never held back / none, per round', rounds.eager, rounds.none),
    {
      section: 'callbacks',
      name: 'last callback after the last delivery, never held back',
      figure: lag('eager'),
      unit: 'ms',
    },
  ];
  return { rows, figures: { rounds } };
}

/**
 * Each round's ratio against the baseline run just before it, their median and range: the
 * comparison in the same minute, which the machine's drift across a run moves least, beside the
 * ratio of the medians that the target is judged by.
 */
function perRoundRow(name: string, measured: readonly Round[], baseline: readonly Round[]): Row {
  const ratios = measured
    .map((r, round) => r.endToEnd / (baseline[round]?.endToEnd ?? Number.NaN))
    .filter((ratio) => Number.isFinite(ratio));
  const range = ratios.length === 0 ? '' : `rounds ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}`;
  return { section: 'callbacks', name, figure: median(ratios), unit: 'x', peer: range };
}
