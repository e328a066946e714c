/** The report as JSON: the DiffReport itself, with the gate's outcome. */
import { jsonReport } from '../../../report/json.js';
import { gatingChanges } from '../compare.js';
import type { DiffReport, FailOn } from '../types.js';

export function renderJson(report: DiffReport, failOn: FailOn): string {
  return jsonReport({ ...report, failOn, fails: gatingChanges(report, failOn).length > 0 });
}
