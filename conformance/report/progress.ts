/**
 * Progress of a run on stderr: cases done / selected, failures so far, seconds. On a terminal it
 * is one line redrawn from the start (before the first answer arrives, so a slow target shows
 * at once that something is under way) and cleared at the end. Elsewhere (a CI log) it stays
 * silent for a run shorter than a second, then prints a line after the first second and every
 * `everyMs` after that: a long run shows it is alive without flooding the log.
 */
import type { CaseOutcome } from '../types.js';

export interface ProgressOptions {
  readonly write: (text: string) => void;
  /** stderr is a terminal: redraw one line. */
  readonly isTTY: boolean;
  /** Non-terminal: the first line after this many ms (default 1000). */
  readonly firstAfterMs?: number;
  /** Non-terminal: a line every this many ms after the first (default 5000). */
  readonly everyMs?: number;
  readonly now?: () => number;
}

export interface Progress {
  /** The cases are selected; nothing has been sent yet. */
  start(selected: number): void;
  onCase(outcome: CaseOutcome, done: number, total: number): void;
  /** The run is over (finished, interrupted or failed): stop the timer, clear the line. */
  finish(): void;
}

export function createProgress(options: ProgressOptions): Progress {
  const now = options.now ?? (() => performance.now());
  const started = now();
  let total = 0;
  let done = 0;
  let failed = 0;
  let timer: NodeJS.Timeout | undefined;
  let lastDraw = -Infinity;
  let drawn = false;
  const line = (): string =>
    `smskit conformance: ${done}/${total} cases, ${failed} failed, ${((now() - started) / 1000).toFixed(1)} s`;
  const draw = (force: boolean): void => {
    if (!options.isTTY) return;
    const t = now();
    if (!force && t - lastDraw < 100) return;
    lastDraw = t;
    drawn = true;
    options.write(`\r\x1b[K${line()}`);
  };
  const tick = (): void => {
    if (options.isTTY) draw(true);
    else options.write(`${line()}\n`);
  };
  return {
    start(selected) {
      total = selected;
      draw(true);
      if (options.isTTY) {
        timer = setInterval(tick, 1000);
      } else {
        const every = options.everyMs ?? 5000;
        timer = setTimeout(function first() {
          tick();
          timer = setInterval(tick, every);
          timer.unref();
        }, options.firstAfterMs ?? 1000);
      }
      timer.unref();
    },
    onCase(outcome, doneNow, totalNow) {
      done = doneNow;
      total = totalNow;
      if (outcome.status === 'failed') failed++;
      draw(false);
    },
    finish() {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      if (drawn) options.write('\r\x1b[K');
    },
  };
}
