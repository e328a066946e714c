/**
 * Signing per the Standard Webhooks specification, with its reference package: the signature is
 * `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the bytes of
 * the account's `whsec_<base64>` secret. One signature per try (the timestamp is the try's).
 */
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

export function createCallbackSigner(userAgent: string): CallbackSigner {
  const keys = new Map<string, Webhook>();
  const keyOf = (secret: string): Webhook => {
    let key = keys.get(secret);
    if (key === undefined) {
      key = new Webhook(secret);
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
        'webhook-signature': keyOf(secret).sign(id, new Date(seconds * 1000), body),
      };
    },
  };
}
