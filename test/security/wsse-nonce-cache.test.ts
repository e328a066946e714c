/**
 * The nonce cache behind replay detection: a nonce is refused while its token could still pass
 * the age check, forgotten after, and when the cache is full the oldest is dropped and tokens
 * created at or before it are refused as expired, so a replay never gets through.
 */
import { describe, expect, it } from 'vitest';
import { NonceCache } from '../../runtime/wsse/nonce-cache.js';

const MAX_AGE = 1_000;
const USER = 'alice';
const remember = (cache: NonceCache, nonce: string, createdAt: number, now: number, user = USER) =>
  cache.remember(user, Buffer.from(nonce), createdAt, now);

describe('NonceCache', () => {
  it('refuses a nonce seen before, within the token age', () => {
    const cache = new NonceCache(10, MAX_AGE);
    expect(remember(cache, 'a', 0, 0)).toBe('fresh');
    expect(remember(cache, 'b', 0, 10)).toBe('fresh');
    expect(remember(cache, 'a', 0, MAX_AGE)).toBe('replayed');
  });

  it('a token past the age is expired, checked with the same clock that forgets its nonce', () => {
    const cache = new NonceCache(10, MAX_AGE);
    expect(remember(cache, 'a', 0, 0)).toBe('fresh');
    expect(remember(cache, 'a', 0, MAX_AGE + 1)).toBe('expired');
    // The sweep at MAX_AGE + 1 forgot 'a' (created 0): fine, as its token is expired by then.
    expect(remember(cache, 'c', MAX_AGE, MAX_AGE + 1)).toBe('fresh');
    expect(cache.size).toBe(1);
  });

  it('when full: drops the oldest, raises the floor, and a replay of the dropped nonce is refused as expired', () => {
    const cache = new NonceCache(3, MAX_AGE);
    for (const [i, nonce] of ['n0', 'n1', 'n2'].entries()) expect(remember(cache, nonce, i, i)).toBe('fresh');
    expect(remember(cache, 'n3', 3, 3)).toBe('fresh');
    expect(cache.size).toBe(3);
    expect(cache.dropped).toBe(1);
    expect(cache.floor).toBe(0);
    expect(remember(cache, 'n0', 0, 4)).toBe('expired');
    // Tokens newer than the floor are still accepted; older ones are not, seen or not.
    expect(remember(cache, 'n4', 1, 4)).toBe('fresh');
    expect(cache.floor).toBe(1);
    expect(remember(cache, 'never-seen', 1, 5)).toBe('expired');
    expect(remember(cache, 'n3', 3, 5)).toBe('replayed');
  });

  it('stays bounded under a flood of distinct nonces', () => {
    const cache = new NonceCache(100, MAX_AGE);
    for (let i = 0; i < 10_000; i++) remember(cache, `n${i}`, i / 100, i / 100);
    expect(cache.size).toBe(100);
    expect(cache.dropped).toBe(9_900);
  });

  it('one user over its share is refused alone: the floor stays, others pass, its replays stay refused', () => {
    const cache = new NonceCache(10, MAX_AGE, 3);
    // Created as far in the future as the skew allows: were they dropped, the floor would jump there.
    for (const nonce of ['f0', 'f1', 'f2']) expect(remember(cache, nonce, 60, 0, 'flooder')).toBe('fresh');
    for (let i = 3; i < 20; i++) expect(remember(cache, `f${i}`, 60, 0, 'flooder')).toBe('overShare');
    expect(cache.dropped).toBe(0);
    expect(cache.floor).toBe(Number.NEGATIVE_INFINITY);
    expect(remember(cache, 'b0', 1, 1, 'bob')).toBe('fresh');
    expect(remember(cache, 'f0', 60, 2, 'flooder')).toBe('replayed');
    // Once its nonces expire the user has its share again.
    expect(remember(cache, 'f3', 1_061, 1_061, 'flooder')).toBe('fresh');
  });

  it('keys nonces by a fixed-size hash, so a long nonce costs no more than a short one', () => {
    const cache = new NonceCache(10, MAX_AGE);
    const long = 'x'.repeat(192);
    expect(remember(cache, long, 0, 0)).toBe('fresh');
    expect(remember(cache, long, 0, 1)).toBe('replayed');
    const keys = [...(cache as unknown as { entries: Map<string, unknown> }).entries.keys()];
    expect(keys.map((k) => k.length)).toEqual([32]);
  });
});
