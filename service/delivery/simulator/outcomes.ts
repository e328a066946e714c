/**
 * The mix of delivery receipt outcomes the simulator sends, e.g. "delivered=90,undeliverable=5,expired=5":
 * weights (not necessarily summing to 100) per final state, each with the receipt's stat word,
 * message_state value and err code.
 */
import type { ReceiptState } from '../route.js';

export const OUTCOME_RECEIPTS: Readonly<Record<ReceiptState, { word: string; messageState: number; err: string }>> = {
  delivered: { word: 'DELIVRD', messageState: 2, err: '000' },
  undeliverable: { word: 'UNDELIV', messageState: 5, err: '001' },
  expired: { word: 'EXPIRED', messageState: 3, err: '000' },
  rejected: { word: 'REJECTD', messageState: 8, err: '002' },
};

export type OutcomeMix = ReadonlyArray<readonly [ReceiptState, number]>;

export const ALL_DELIVERED: OutcomeMix = [['delivered', 1]];

/** Parses "state=weight,…"; throws a RangeError naming the bad item. */
export function parseOutcomeMix(text: string): OutcomeMix {
  const mix: Array<[ReceiptState, number]> = [];
  for (const item of text.split(',')) {
    const match = /^\s*([a-z]+)\s*=\s*(\d+(?:\.\d+)?)\s*$/.exec(item);
    const state = match?.[1] as ReceiptState | undefined;
    if (match === null || state === undefined || !(state in OUTCOME_RECEIPTS)) {
      throw new RangeError(
        `"${item.trim()}" is not state=weight with a state of ${Object.keys(OUTCOME_RECEIPTS).join(', ')}`,
      );
    }
    mix.push([state, Number(match[2])]);
  }
  if (mix.every(([, weight]) => weight === 0)) throw new RangeError('every weight is 0');
  return mix;
}

/** The outcome for one draw of `random()` in [0, 1). */
export function pickOutcome(mix: OutcomeMix, random: number): ReceiptState {
  const total = mix.reduce((sum, [, weight]) => sum + weight, 0);
  let left = random * total;
  for (const [state, weight] of mix) {
    if (left < weight) return state;
    left -= weight;
  }
  return (mix[mix.length - 1] as readonly [ReceiptState, number])[0];
}
