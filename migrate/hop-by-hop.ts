/**
 * Headers that belong to one hop. RFC 9110 §7.6.1: an intermediary removes every header the
 * Connection field names (`Connection: close, X-Trace` keeps X-Trace on its hop) before it
 * forwards a message, in either direction, besides the fixed hop-by-hop set each caller keeps.
 */
import type { HeaderList } from './recording.js';

/** The lowercased names a message's Connection fields list. */
export function connectionListed(headers: HeaderList): Set<string> {
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
