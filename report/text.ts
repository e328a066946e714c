/**
 * Text pieces every terminal report writes the same way: a count with its noun, a body cut to a
 * length, a block of text with a mark before each line (`> ` request, `< ` response), a tally
 * line, a list that may be empty, and the baseline's part of a summary line. Reports print no
 * colours: they go to CI logs and files as often as to a terminal.
 */

/** `1 exchange`, `2 exchanges`: the count, then the noun in the number it needs. */
export function counted(count: number, noun: string, plural = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : plural}`;
}

/** `text` cut to `limit` characters, marked when cut. */
export function clip(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}… [truncated]`;
}

/** Each line of `text` after `mark` and a space: how a trace shows a request or an answer body. */
export function markedLines(text: string, mark: string): string[] {
  return text.split('\n').map((line) => `${mark} ${line}`);
}

/** `3 × no answer`: how many times one reason occurred. */
export function tallyLine(count: number, reason: string): string {
  return `${count} × ${reason}`;
}

/** The items joined by commas, or a dash for none (a column that must not be left empty). */
export function listText(items: readonly string[], none = '—'): string {
  return items.length === 0 ? none : items.join(', ');
}

/** What a run's baseline file made of its findings. */
export interface BaselineCounts {
  readonly file: string;
  readonly known: number;
  readonly new: number;
  readonly fixed: readonly string[];
}

/** The baseline's part of a summary line (empty without a baseline). */
export function baselineText(baseline: BaselineCounts | undefined): string {
  return baseline === undefined
    ? ''
    : `; baseline ${baseline.file}: ${baseline.known} known, ${baseline.new} new, ${baseline.fixed.length} fixed`;
}
