/**
 * Ignores by path: globs over outline paths (`/Envelope/Body/*Response/*Result/Id`,
 * `**\/Timestamp`, `status`). `*` matches within one step, `**` any number of steps; a step
 * written without an index matches every repeat (`Line` matches `Line[2]`). An ignored path
 * takes everything below it along.
 */
import { escapeRegExp } from '../runtime/escape/regexp.js';

function stepPattern(step: string): string {
  const indexed = /\[\d+\]$/.test(step);
  const body = escapeRegExp(step).replace(/\\\*/g, '[^/]*');
  return indexed ? body : `${body}(?:\\[\\d+\\])?`;
}

export function globToRegExp(glob: string): RegExp {
  // "**" is any run of steps: ".*" between the separators, and "/**/" may also be one "/".
  const pattern = glob
    .split('/')
    .map((step) => (step === '**' ? '.*' : stepPattern(step)))
    .join('/')
    .replace(/\/\.\*\//g, '(?:/.*)?/');
  return new RegExp(`^${pattern}(?:/.*)?$`);
}

/** A test for "is this path ignored", from the globs given. */
export function pathIgnorer(globs: readonly string[]): (path: string) => boolean {
  const patterns = globs.map(globToRegExp);
  return (path) => patterns.some((p) => p.test(path));
}
