/** Regular-expression escaping, the one place for it (redaction of secrets, path globs). */

/** `text` as a pattern that matches exactly it: every character with a meaning in a RegExp is escaped. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
