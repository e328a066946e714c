/**
 * The callback sender's settings, their defaults (the ones docs/status.md states) and their check.
 */
import { type CallbackBudget, checkCallbackBudget, DEFAULT_CALLBACK_BUDGET } from './budget.js';

export interface CallbackSenderSettings {
  /** Send to loopback, private and link-local addresses too (tests, on-premises receivers). */
  readonly allowPrivate: boolean;
  /** Requests in flight at most, over all receivers. */
  readonly concurrency: number;
  /** Requests in flight at most to one receiver host (host:port). */
  readonly perHost: number;
  /** Events claimed from the store at most per claim. */
  readonly batchSize: number;
  /** One try: connect, send, answer, within this (ms). */
  readonly timeoutMs: number;
  /** Bytes of a receiver's answer read at most; the rest is dropped. */
  readonly maxResponseBytes: number;
  /** How long a claimed event stays this sender's unless renewed (every quarter of it) before another may take it (ms). */
  readonly leaseMs: number;
  /** How often an idle sender looks for due events (ms). */
  readonly idlePollMs: number;
  /**
   * While the service's event loop and the machine are busy, new claims wait up to this long at a
   * stretch (ms; 0: never wait). Only where the sender is told the load (serve's sender thread).
   */
  readonly busyDeferMs: number;
  readonly budget: CallbackBudget;
}

export const DEFAULT_CALLBACK_SETTINGS: CallbackSenderSettings = Object.freeze({
  allowPrivate: false,
  concurrency: 64,
  perHost: 8,
  batchSize: 256,
  timeoutMs: 10_000,
  maxResponseBytes: 64 * 1024,
  leaseMs: 30_000,
  idlePollMs: 200,
  busyDeferMs: 30_000,
  budget: DEFAULT_CALLBACK_BUDGET,
});

export type CallbackSettingsInput = Partial<Omit<CallbackSenderSettings, 'budget'>> & {
  readonly budget?: Partial<CallbackBudget>;
};

const POSITIVE = [
  'concurrency',
  'perHost',
  'batchSize',
  'timeoutMs',
  'maxResponseBytes',
  'leaseMs',
  'idlePollMs',
] as const;

/** The defaults with `input` over them; throws a plain Error naming an unknown or out-of-range setting. */
export function callbackSettings(input: CallbackSettingsInput = {}): CallbackSenderSettings {
  const known = new Set<string>([...Object.keys(DEFAULT_CALLBACK_SETTINGS)]);
  const unknown = Object.keys(input).filter((name) => !known.has(name));
  if (unknown.length > 0) throw new Error(`unknown callback setting(s): ${unknown.join(', ')}`);
  const settings = {
    ...DEFAULT_CALLBACK_SETTINGS,
    ...input,
    budget: { ...DEFAULT_CALLBACK_BUDGET, ...input.budget },
  };
  for (const name of POSITIVE) {
    const value = settings[name];
    if (!Number.isInteger(value) || value < 1) throw new Error(`callback setting ${name} must be an integer >= 1`);
  }
  if (!Number.isInteger(settings.busyDeferMs) || settings.busyDeferMs < 0)
    throw new Error('callback setting busyDeferMs must be an integer >= 0');
  if (settings.leaseMs <= settings.timeoutMs) throw new Error('callback setting leaseMs must be longer than timeoutMs');
  checkCallbackBudget(settings.budget);
  return Object.freeze(settings);
}
