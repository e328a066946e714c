/**
 * The nonce cache behind replay detection: a nonce is refused while its token could still pass
 * the age check, forgotten after, and when the cache is full the oldest is dropped and tokens
 * created at or before it are refused as expired, so a replay never gets through.
 */
import { describe, expect, it } from 'vitest';
import { NonceCache } from '../../runtime/wsse/nonce-cache.js';

const MAX_AGE = 1_000;

describe('NonceCache', () => {
  it('refuses a nonce seen before, within the token age', () => {
    const cache = new NonceCache(10, MAX_AGE);
    expect(cache.remember('a', 0, 0)).toBe('fresh');
    expect(cache.remember('b', 0, 10)).toBe('fresh');
    expect(cache.remember('a', 0, MAX_AGE)).toBe('replayed');
  });

  it('a token past the age is expired, checked with the same clock that forgets its nonce', () => {
    const cache = new NonceCache(10, MAX_AGE);
    expect(cache.remember('a', 0, 0)).toBe('fresh');
    expect(cache.remember('a', 0, MAX_AGE + 1)).toBe('expired');
    // The sweep at MAX_AGE + 1 forgot 'a' (created 0): fine, as its token is expired by then.
    expect(cache.remember('c', MAX_AGE, MAX_AGE + 1)).toBe('fresh');
    expect(cache.size).toBe(1);
  });

  it('when full: drops the oldest, raises the floor, and a replay of the dropped nonce is refused as expired', () => {
    const cache = new NonceCache(3, MAX_AGE);
    for (const [i, nonce] of ['n0', 'n1', 'n2'].entries()) expect(cache.remember(nonce, i, i)).toBe('fresh');
    expect(cache.remember('n3', 3, 3)).toBe('fresh');
    expect(cache.size).toBe(3);
    expect(cache.dropped).toBe(1);
    expect(cache.floor).toBe(0);
    expect(cache.remember('n0', 0, 4)).toBe('expired');
    // Tokens newer than the floor are still accepted; older ones are not, seen or not.
    expect(cache.remember('n4', 1, 4)).toBe('fresh');
    expect(cache.floor).toBe(1);
    expect(cache.remember('never-seen', 1, 5)).toBe('expired');
    expect(cache.remember('n3', 3, 5)).toBe('replayed');
  });

  it('stays bounded under a flood of distinct nonces', () => {
    const cache = new NonceCache(100, MAX_AGE);
    for (let i = 0; i < 10_000; i++) cache.remember(`n${i}`, i / 100, i / 100);
    expect(cache.size).toBe(100);
    expect(cache.dropped).toBe(9_900);
  });
});
