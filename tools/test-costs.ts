/**
 * The report of where a test run's time went, file by file, from the log a run writes with
 * SMSKIT_TEST_COSTS=<log> (test/setup/file-costs.ts); `scripts/test-costs.ts` prints it.
 */
import { relative } from 'node:path';

/** A test file's row: seconds it held a worker, its CPU-seconds, and the difference, the time it waited. */
export interface FileRow {
  readonly file: string;
  readonly wall: number;
  readonly cpu: number;
  readonly waiting: number;
}

/** The log's lines as rows, longest first; a line that is not a file's record is an error naming its number. */
export function rankFiles(text: string, root: string): FileRow[] {
  const rows: FileRow[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw new Error(`line ${index + 1} is not JSON: ${line.slice(0, 80)}`);
    }
    const { file, start, end, own, children } = entry ?? {};
    if (typeof file !== 'string' || ![start, end, own, children].every((n) => typeof n === 'number'))
      throw new Error(`line ${index + 1} is not a test file's record (file, start, end, own, children)`);
    const wall = (end as number) - (start as number);
    const cpu = (own as number) + (children as number);
    rows.push({ file: relative(root, file), wall, cpu, waiting: Math.max(0, wall - cpu) });
  });
  return rows.sort((a, b) => b.wall - a.wall);
}

/** A header, the `top` longest files, and the totals of all of them. */
export function formatCosts(rows: readonly FileRow[], top: number): string {
  const total = (key: 'wall' | 'cpu' | 'waiting'): number => rows.reduce((sum, row) => sum + row[key], 0);
  const seconds = (n: number): string => n.toFixed(1);
  const line = (wall: string, cpu: string, waiting: string, name: string): string =>
    `${wall.padStart(8)} ${cpu.padStart(8)} ${waiting.padStart(8)}  ${name}`;
  return [
    line('wall s', 'CPU s', 'waiting', 'file'),
    ...rows.slice(0, top).map((r) => line(seconds(r.wall), seconds(r.cpu), seconds(r.waiting), r.file)),
    line(seconds(total('wall')), seconds(total('cpu')), seconds(total('waiting')), `all ${rows.length} files`),
  ].join('\n');
}
