/**
 * When a receiver counts as back after an outage (its backlog is then brought forward): after a
 * run of failed tries, not after one event it keeps refusing among others it takes, and at most
 * once per cooldown, with the accounts it tracks bounded.
 */
import { describe, expect, it } from 'vitest';
import { createRecoveryWatch } from '../../../service/callbacks/recovery.js';

function watch(limit = 10) {
  let now = 0;
  const w = createRecoveryWatch({ threshold: 3, cooldownMs: 60_000, limit, clock: () => now });
  return { w, advance: (ms: number) => (now += ms) };
}

describe('the recovery watch', () => {
  it('says "back" on the first success after three failures in a row', () => {
    const { w } = watch();
    w.failed('a');
    w.failed('a');
    expect(w.succeeded('a')).toBe(false);
    for (let i = 0; i < 3; i++) w.failed('a');
    expect(w.succeeded('a')).toBe(true);
    expect(w.succeeded('a')).toBe(false);
  });

  it('never for an account that did not fail, nor for another account', () => {
    const { w } = watch();
    for (let i = 0; i < 5; i++) w.failed('a');
    expect(w.succeeded('b')).toBe(false);
    expect(w.succeeded('a')).toBe(true);
  });

  it('at most once per cooldown for one account, again after it', () => {
    const { w, advance } = watch();
    for (let i = 0; i < 3; i++) w.failed('a');
    expect(w.succeeded('a')).toBe(true);
    advance(59_999);
    for (let i = 0; i < 3; i++) w.failed('a');
    expect(w.succeeded('a')).toBe(false);
    advance(1);
    for (let i = 0; i < 3; i++) w.failed('a');
    expect(w.succeeded('a')).toBe(true);
  });

  it('tracks at most `limit` failing accounts, forgetting recovered ones first', () => {
    const { w } = watch(2);
    for (let i = 0; i < 3; i++) w.failed('a');
    for (let i = 0; i < 3; i++) w.failed('b');
    for (let i = 0; i < 3; i++) w.failed('c');
    expect(w.succeeded('c')).toBe(false);
    expect(w.succeeded('a')).toBe(true);
    for (let i = 0; i < 3; i++) w.failed('c');
    expect(w.succeeded('c')).toBe(true);
  });
});
