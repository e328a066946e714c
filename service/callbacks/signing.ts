/**
 * Signing per the Standard Webhooks specification: the signature is `v1,<base64 HMAC-SHA256 of
 * "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the bytes of the account's
 * `whsec_<base64>` secret. One signature per try (the timestamp is the try's). The secret is read
 * by the specification's reference package (which refuses what is not one); the HMAC is Node's:
 * the package's own, in JavaScript, took ~17 µs a signature to Node's ~3 (about a tenth of the
 * sender's CPU per callback). Both give the same signature (test/service/callbacks/signatures.test.ts).
 */
import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

export interface CallbackHeaders {
  readonly 'content-type': 'application/json';
  readonly 'user-agent': string;
  readonly 'webhook-id': string;
  readonly 'webhook-timestamp': string;
  readonly 'webhook-signature': string;
}

/** Secrets seen recently, each decoded once; bounded so a store full of accounts cannot grow it. */
const KEY_CACHE_LIMIT = 1024;

export interface CallbackSigner {
  /** Headers for one try at `now` (ms); throws a plain Error naming the account when its secret is unusable. */
  headers(id: string, body: string, secret: string, now: number): CallbackHeaders;
}

const SECRET_PREFIX = 'whsec_';

/** The HMAC key of a `whsec_` secret; throws when the reference package does not take it as one. */
function signingKey(secret: string): Buffer {
  // Throws on a secret that is not base64 after its prefix, which Buffer would decode anyway.
  new Webhook(secret);
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

export function createCallbackSigner(userAgent: string): CallbackSigner {
  const keys = new Map<string, Buffer>();
  const keyOf = (secret: string): Buffer => {
    let key = keys.get(secret);
    if (key === undefined) {
      key = signingKey(secret);
      if (keys.size >= KEY_CACHE_LIMIT) keys.delete(keys.keys().next().value as string);
      keys.set(secret, key);
    }
    return key;
  };
  return {
    headers(id, body, secret, now) {
      const seconds = Math.floor(now / 1000);
      return {
        'content-type': 'application/json',
        'user-agent': userAgent,
        'webhook-id': id,
        'webhook-timestamp': String(seconds),
        'webhook-signature': `v1,${createHmac('sha256', keyOf(secret)).update(`${id}.${seconds}.${body}`).digest('base64')}`,
      };
    },
  };
}
