/**
 * Message ids: `SMS-` + a 26-character ULID (Crockford base32: 48-bit millisecond time, then 80
 * random bits), e.g. `SMS-01JD3M8X5Q7R2W4Y6Z8A0B1C2D`. Ids sort by creation time as plain
 * strings; within one millisecond (or if the clock steps back) the random part is incremented, so
 * one generator never repeats nor goes backwards. 80 random bits make collisions between
 * processes negligible; the outbox primary key would refuse one anyway.
 */
import { randomFillSync } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const MAX_TIME = 2 ** 48 - 1;

export const MESSAGE_ID_PATTERN = /^SMS-[0-7][0-9A-HJKMNP-TV-Z]{25}$/;

export type IdGenerator = (nowMs: number) => string;

export function createIdGenerator(): IdGenerator {
  let lastTime = -1;
  const random = new Uint8Array(RANDOM_BYTES);
  const fresh = randomPool();
  return (nowMs: number): string => {
    const now = Math.min(Math.max(Math.floor(nowMs), 0), MAX_TIME);
    if (now > lastTime) {
      lastTime = now;
      fresh(random);
    } else if (!increment(random)) {
      lastTime += 1; // 2^80 ids in one millisecond: borrow the next one rather than repeat
      fresh(random);
    }
    return `SMS-${encodeTime(lastTime)}${encodeRandom(random)}`;
  };
}

const RANDOM_BYTES = 10;
/**
 * Random parts drawn from the CSPRNG at a time (one is used for each new millisecond's first id):
 * a call for each cost ~10 µs of a busy event loop.
 */
const POOL_IDS = 128;

/** Fills `into` with the next unused bytes of a pool refilled from the CSPRNG when spent; each byte is used once. */
function randomPool(): (into: Uint8Array) => void {
  const pool = new Uint8Array(RANDOM_BYTES * POOL_IDS);
  let used = pool.length;
  return (into) => {
    if (used + into.length > pool.length) {
      randomFillSync(pool);
      used = 0;
    }
    into.set(pool.subarray(used, used + into.length));
    used += into.length;
  };
}

/**
 * The lowest id a message created at `ms` or later can have (every earlier one sorts below it):
 * a time bound on the outbox's primary key, so time filters need no index of their own.
 */
export function firstIdAt(ms: number): string {
  return `SMS-${encodeTime(Math.min(Math.max(Math.floor(ms), 0), MAX_TIME))}`;
}

/** Adds one to a big-endian byte string; false on overflow. */
function increment(bytes: Uint8Array): boolean {
  for (let i = bytes.length - 1; i >= 0; i--) {
    const value = (bytes[i] ?? 0) + 1;
    bytes[i] = value & 0xff;
    if (value <= 0xff) return true;
  }
  return false;
}

function encodeTime(time: number): string {
  let out = '';
  let rest = time;
  for (let i = 0; i < 10; i++) {
    out = CROCKFORD.charAt(rest % 32) + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

/** 80 bits → 16 base32 characters, most significant first. */
function encodeRandom(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += CROCKFORD.charAt((buffer >> bits) & 31);
    }
    buffer &= (1 << bits) - 1;
  }
  return out;
}
