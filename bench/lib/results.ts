/**
 * bench/results.json: a run's rows and figures. A run of some sections (`--only`) keeps the
 * other sections' rows and figures from the file it replaces, each marked in `carriedOver` with
 * the date and settings of the run that measured it, so a partial run never erases the figures
 * it did not measure, and never passes them off as its own.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { Row, Settings } from './report.js';

export interface Results {
  readonly date: string;
  readonly settings: Settings;
  readonly rows: readonly Row[];
  readonly figures: Record<string, unknown>;
  /** Sections this run did not measure, kept from an earlier run. */
  readonly carriedOver?: Record<string, { readonly date: string; readonly settings: Settings }>;
  readonly [key: string]: unknown;
}

function readPrevious(path: string): Results | undefined {
  try {
    const previous = JSON.parse(readFileSync(path, 'utf8')) as Results;
    return Array.isArray(previous.rows) && typeof previous.figures === 'object' ? previous : undefined;
  } catch {
    return undefined;
  }
}

/** Writes `result`, with the sections of `sections` it did not run carried over from the file at `path`. */
export function writeResults(
  path: string,
  result: Results,
  sections: readonly string[],
  ran: ReadonlySet<string>,
): Results {
  const previous = readPrevious(path);
  const rows: Row[] = [];
  const figures: Record<string, unknown> = { ...result.figures };
  const carriedOver: NonNullable<Results['carriedOver']> = {};
  for (const name of sections) {
    if (ran.has(name)) {
      rows.push(...result.rows.filter((r) => r.section === name));
      continue;
    }
    if (previous === undefined || !(name in previous.figures)) continue;
    rows.push(...previous.rows.filter((r) => r.section === name));
    figures[name] = previous.figures[name];
    carriedOver[name] = previous.carriedOver?.[name] ?? { date: previous.date, settings: previous.settings };
  }
  const merged: Results = {
    ...result,
    rows,
    figures,
    ...(Object.keys(carriedOver).length === 0 ? {} : { carriedOver }),
  };
  writeFileSync(path, `${JSON.stringify(merged, null, 2)}\n`);
  return merged;
}
