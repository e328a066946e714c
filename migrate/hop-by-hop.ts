/**
 * Headers that belong to one hop. RFC 9110 §7.6.1: an intermediary removes the hop-by-hop fields
 * and every header the Connection field names (`Connection: close, X-Trace` keeps X-Trace on its
 * hop) before it forwards a message, in either direction. The recorder and the replay each add
 * the fields their own hop replaces (Host, Accept-Encoding, ...).
 */
import type { HeaderList } from './recording.js';

/** The fixed hop-by-hop fields, with the older Keep-Alive and Proxy-Connection. */
export const HOP_BY_HOP: readonly string[] = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
];

/** `headers` without the (lowercased) names in `dropped` and those their Connection fields list. */
export function withoutHopFields(headers: HeaderList, dropped: ReadonlySet<string>): HeaderList {
  const listed = connectionListed(headers);
  return headers.filter(([name]) => {
    const lower = name.toLowerCase();
    return !dropped.has(lower) && !listed.has(lower);
  });
}

/** The lowercased names a message's Connection fields list. */
function connectionListed(headers: HeaderList): Set<string> {
  const names = new Set<string>();
  for (const [name, value] of headers) {
    if (name.toLowerCase() !== 'connection') continue;
    for (const token of value.split(',')) {
      const t = token.trim().toLowerCase();
      if (t !== '') names.add(t);
    }
  }
  return names;
}
