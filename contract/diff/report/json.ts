/** The report as JSON: the DiffReport itself, with the gate's outcome. */
import { gatingChanges } from '../compare.js';
import type { DiffReport, FailOn } from '../types.js';

export function renderJson(report: DiffReport, failOn: FailOn): string {
  return `${JSON.stringify({ ...report, failOn, fails: gatingChanges(report, failOn).length > 0 }, null, 2)}\n`;
}
