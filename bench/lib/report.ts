/**
 * Rows of the results table: a figure, its peer's figure, their ratio and the target it is
 * judged against. A row without a target is information (latency, CPU) and is never judged.
 */
export interface Row {
  readonly section: string;
  readonly name: string;
  readonly figure: number;
  readonly unit: string;
  readonly peer?: string;
  readonly peerFigure?: number;
  readonly ratio?: number;
  /** e.g. `>= 0.7x`, `< 150 MB`. */
  readonly target?: string;
  readonly pass?: boolean;
  readonly note?: string;
}

export interface Settings {
  readonly rounds: number;
  readonly seconds: number;
  readonly warmupSeconds: number;
  readonly connections: number;
  /** Runs per tool and file for the process-timing sections. */
  readonly runs: number;
}

/** A throughput row judged by its ratio to a peer: `min` for "at least", `max` for "at most". */
export function ratioRow(base: Omit<Row, 'ratio' | 'pass' | 'target'>, bound: { min?: number; max?: number }): Row {
  const ratio = base.peerFigure === undefined || base.peerFigure === 0 ? Number.NaN : base.figure / base.peerFigure;
  const pass = bound.min !== undefined ? ratio >= bound.min : ratio <= bound.max!;
  const target = bound.min !== undefined ? `>= ${bound.min}x` : `<= ${bound.max}x`;
  return { ...base, ratio, target, pass };
}

/** A row judged by its own figure against an absolute limit. */
export function limitRow(base: Omit<Row, 'pass' | 'target'>, bound: { min?: number; below?: number }): Row {
  const pass = bound.min !== undefined ? base.figure >= bound.min : base.figure < bound.below!;
  const target =
    bound.min !== undefined ? `>= ${format(bound.min)} ${base.unit}` : `< ${format(bound.below!)} ${base.unit}`;
  return { ...base, target, pass };
}

export function format(value: number | undefined): string {
  if (value === undefined || Number.isNaN(value)) return '-';
  if (Math.abs(value) >= 100) return Math.round(value).toLocaleString('en-US');
  if (Math.abs(value) >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

/** The table as aligned plain text (also valid Markdown). */
export function renderTable(rows: readonly Row[]): string {
  const header = ['section', 'figure', 'value', 'peer', 'peer value', 'ratio', 'target', 'result'];
  const body = rows.map((r) => [
    r.section,
    r.name,
    `${format(r.figure)} ${r.unit}`,
    r.peer ?? '',
    r.peerFigure === undefined ? '' : `${format(r.peerFigure)} ${r.unit}`,
    r.ratio === undefined ? '' : `${r.ratio.toFixed(2)}x`,
    r.target ?? '',
    r.pass === undefined ? '' : r.pass ? 'pass' : 'MISS',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => cells[i]!.length)));
  const line = (cells: readonly string[]): string => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join('\n');
}

/** "All targets met" only when every section ran: a failed one judged none of its targets. */
export function targetsVerdict(rows: readonly Row[], failedSections: number): string {
  const misses = rows.filter((r) => r.pass === false).length;
  const judged = rows.filter((r) => r.pass !== undefined).length;
  const missed = misses === 0 ? `all ${judged} judged target(s) met` : `${misses} of ${judged} judged target(s) missed`;
  if (failedSections === 0) return misses === 0 ? 'All targets met.' : `${misses} target(s) missed.`;
  return `${failedSections} section(s) FAILED (their targets were not judged); ${missed}.`;
}
