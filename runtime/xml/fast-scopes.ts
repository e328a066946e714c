/**
 * The fast reader's shared pieces that are not the scan itself: character and entity
 * references, and namespace scopes shared between documents. Both give up (throw GIVE_UP) on
 * whatever the full reader (reader.ts) must judge, so that its error is the one reported.
 */

import { XML_NS, XMLNS_NS } from '../namespaces.js';

export { XML_NS };

/** Thrown to leave the fast path: the document goes to readXml, which says what is wrong. */
export const GIVE_UP = Symbol('give up');

const REFERENCE = /&(?:#x([0-9A-Fa-f]{1,6})|#([0-9]{1,7})|(lt|gt|amp|apos|quot));/g;
const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' };

/** Decodes the five predefined entities and character references; anything else gives up. */
export function decodeReferences(value: string): string {
  if (!value.includes('&')) return value;
  // An '&' that is not a reference we know is an entity readXml will refuse.
  if (value.replace(REFERENCE, '').includes('&')) throw GIVE_UP;
  return value.replace(REFERENCE, (_m, hex: string | undefined, dec: string | undefined, name: string | undefined) => {
    if (name !== undefined) return PREDEFINED[name]!;
    const code = hex !== undefined ? parseInt(hex, 16) : parseInt(dec!, 10);
    if (!isXmlChar(code)) throw GIVE_UP;
    return String.fromCodePoint(code);
  });
}

/**
 * Scopes are shared between documents: every request declares the same envelope namespaces,
 * and building a null-prototype dictionary per element was the fast path's largest cost. The
 * scope objects are never mutated once made (XmlElement.namespaces is readonly), so sharing is
 * safe. Each parent scope keeps its last few child scopes with the declarations that made
 * them; a lookup compares those short lists directly (joining them into a string key and
 * hashing it cost ~0.4 us per element). Both bounds keep hostile declarations from growing the
 * cache or the scan.
 *
 * A cached scope keeps interned copies of the prefixes and URIs, not the slices of the document
 * that declared them: a slice would keep that whole document (and whatever secret it carried)
 * alive for as long as the scope is cached, and the codec compares every element's namespace
 * with a descriptor's, which V8 does by reference for two interned strings but through a slow
 * path (several times slower) for a slice.
 */
interface ScopeEntry {
  readonly declarations: readonly string[];
  readonly scope: Readonly<Record<string, string>>;
}

const SCOPES_PER_PARENT = 8;
let scopeCache = new WeakMap<object, ScopeEntry[]>();
let scopeCacheEntries = 0;

export function scopeWith(
  parent: Readonly<Record<string, string>>,
  declarations: readonly string[],
): Readonly<Record<string, string>> {
  let entries = scopeCache.get(parent);
  if (entries !== undefined) {
    for (let i = 0; i < entries.length; i++)
      if (sameStrings(entries[i]!.declarations, declarations)) return entries[i]!.scope;
  }
  const kept = declarations.map(intern);
  const scope = buildScope(parent, kept);
  if (scopeCacheEntries >= 1024) {
    // Full (many distinct declarations, maybe hostile): start over rather than grow.
    scopeCache = new WeakMap();
    scopeCacheEntries = 0;
    entries = undefined;
  }
  if (entries === undefined) scopeCache.set(parent, (entries = []));
  if (entries.length >= SCOPES_PER_PARENT) entries.pop(); // keep the scan short
  entries.unshift({ declarations: kept, scope });
  scopeCacheEntries++;
  return scope;
}

/** The interned string equal to `s` (a property key is interned; this one is a fresh copy, not a slice). */
function intern(s: string): string {
  return Object.keys({ [s]: 0 })[0]!;
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The parent's bindings plus `declarations` (prefix, uri, ...), frozen; gives up on what readXml must judge. */
function buildScope(
  parent: Readonly<Record<string, string>>,
  declarations: readonly string[],
): Readonly<Record<string, string>> {
  const scope = Object.assign(Object.create(null) as Record<string, string>, parent);
  const seen = new Set<string>();
  for (let i = 0; i < declarations.length; i += 2) {
    const prefix = declarations[i]!;
    const uri = declarations[i + 1]!;
    if (seen.has(prefix)) throw GIVE_UP; // declared twice on one element
    seen.add(prefix);
    if (prefix === 'xmlns' || uri === XMLNS_NS) throw GIVE_UP;
    if (prefix === 'xml' ? uri !== XML_NS : uri === XML_NS) throw GIVE_UP;
    if (prefix !== '' && uri === '') throw GIVE_UP; // undeclaring a prefix is XML 1.1 only
    scope[prefix] = uri;
  }
  return Object.freeze(scope);
}

function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}
