/**
 * Password hashing with scrypt (RFC 7914), stored in a PHC-like string that carries its own
 * parameters, so they can be raised later without invalidating old hashes:
 *
 *     $scrypt$ln=15,r=8,p=1$<salt, base64, 16 bytes>$<key, base64, 32 bytes>
 *
 * Default cost N = 2^15, r = 8, p = 1 (32 MiB, ~50-100 ms per verification on one core; the OWASP
 * minimum is N = 2^17 with r = 8 only for ~128 MiB budgets, 2^15 is the libsodium "interactive"
 * level). The password is the UTF-8 encoding of the string as received, without normalisation.
 * Hashing runs on the libuv thread pool, so it never blocks the event loop.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

export interface ScryptParams {
  /** log2 of the CPU/memory cost N. */
  readonly logN: number;
  readonly r: number;
  readonly p: number;
}

export const DEFAULT_SCRYPT: ScryptParams = { logN: 15, r: 8, p: 1 };
/** The highest cost a stored hash may ask for (1 GiB at r = 8): more is refused as malformed. */
export const MAX_LOG_N = 20;
const SALT_BYTES = 16;
const KEY_BYTES = 32;
const ENCODED = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/;

function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  const N = 2 ** params.logN;
  const maxmem = 256 * N * params.r * params.p + 1024 * 1024; // Node's 32 MiB default is exactly N=2^15,r=8 and too tight
  return new Promise((resolve, reject) => {
    scrypt(password, salt, KEY_BYTES, { N, r: params.r, p: params.p, maxmem }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  return encode(params, salt, await derive(password, salt, params));
}

/**
 * A well-formed hash of `params` that no password matches: random salt, random key. Verifying a
 * password against it costs exactly what verifying against a real hash costs, and making it costs
 * nothing (hashing a random password instead would spend a whole scrypt run on a value nobody
 * needs, at every start of every process that authenticates).
 */
export function unmatchableHash(params: ScryptParams = DEFAULT_SCRYPT): string {
  return encode(params, randomBytes(SALT_BYTES), randomBytes(KEY_BYTES));
}

function encode(params: ScryptParams, salt: Buffer, key: Buffer): string {
  return `${parametersPrefix(params)}${salt.toString('base64')}$${key.toString('base64')}`;
}

/** How every hash of `params` begins: `$scrypt$ln=15,r=8,p=1$`. */
export function parametersPrefix(params: ScryptParams): string {
  return `$scrypt$ln=${params.logN},r=${params.r},p=${params.p}$`;
}

interface DecodedHash {
  readonly params: ScryptParams;
  readonly salt: Buffer;
  readonly key: Buffer;
}

/** The parts of a stored hash, or undefined when it is malformed or its cost is out of range. */
function decode(encoded: string): DecodedHash | undefined {
  const match = ENCODED.exec(encoded);
  if (match === null) return undefined;
  const params: ScryptParams = { logN: Number(match[1]), r: Number(match[2]), p: Number(match[3]) };
  const key = Buffer.from(match[5] ?? '', 'base64');
  if (key.length !== KEY_BYTES || params.logN < 1 || params.logN > MAX_LOG_N) return undefined;
  return { params, salt: Buffer.from(match[4] ?? '', 'base64'), key };
}

/** The scrypt parameters a stored hash was made with, or undefined for a malformed one. */
export function hashParameters(encoded: string): ScryptParams | undefined {
  return decode(encoded)?.params;
}

/** True when `password` matches `encoded`; compares in constant time; false for a malformed hash. */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const decoded = decode(encoded);
  if (decoded === undefined) return false;
  const actual = await derive(password, decoded.salt, decoded.params);
  return timingSafeEqual(actual, decoded.key);
}
