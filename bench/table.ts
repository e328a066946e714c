/**
 * bench/results.json as a Markdown table, each row with the day its section was measured (a run
 * of some sections keeps the others' rows from earlier runs: lib/results.ts).
 *   npx tsx bench/table.ts [results.json]
 */
import { readFileSync } from 'node:fs';
import { renderTable } from './lib/report.js';
import type { Results } from './lib/results.js';

const path = process.argv[2] ?? new URL('./results.json', import.meta.url).pathname;
const results = JSON.parse(readFileSync(path, 'utf8')) as Results;
const measuredOn = (section: string): string => (results.carriedOver?.[section]?.date ?? results.date).slice(0, 10);
const rows = results.rows.map((row) => ({ ...row, section: `${row.section} (${measuredOn(row.section)})` }));
console.log(renderTable(rows));
