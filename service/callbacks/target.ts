/**
 * Where one account's callbacks go: its URL parsed once (a small cache: many events share an
 * account), the host key the per-host limit counts by, and — without --allow-private-callbacks — the refusal of an IP literal that is
 * no place for a callback (a name is checked by the connection's own lookup: address-guard.ts).
 */
import { addressRefusal, bareHost } from './address-guard.js';

export type CallbackTarget =
  | {
      readonly kind: 'ok';
      readonly url: URL;
      /** host:port, lower case: what the per-host limit counts. */
      readonly hostKey: string;
    }
  | { readonly kind: 'refused'; readonly reason: 'bad_url' | 'address'; readonly error: string };

const CACHE_LIMIT = 1024;

function parseTarget(text: string, allowPrivate: boolean): CallbackTarget {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { kind: 'refused', reason: 'bad_url', error: 'the callback URL does not parse' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { kind: 'refused', reason: 'bad_url', error: `the callback URL's scheme ${url.protocol} is not http(s)` };
  const host = bareHost(url.hostname);
  if (!allowPrivate) {
    const literal = addressRefusal(host);
    if (literal !== 'not an IP address' && literal !== undefined)
      return {
        kind: 'refused',
        reason: 'address',
        error: `callback host ${host} refused: ${literal} (see --allow-private-callbacks)`,
      };
  }
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return { kind: 'ok', url, hostKey: `${host.toLowerCase()}:${port}` };
}

export function createTargetCache(allowPrivate: boolean): (url: string) => CallbackTarget {
  const cache = new Map<string, CallbackTarget>();
  return (text) => {
    let target = cache.get(text);
    if (target === undefined) {
      target = parseTarget(text, allowPrivate);
      if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
      cache.set(text, target);
    }
    return target;
  };
}
