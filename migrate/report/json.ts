/** The JSON report: the ReplayReport as it is (types.ts), for tools. */
import { jsonReport } from '../../report/json.js';
import type { ReplayReport } from '../types.js';

export function renderJson(report: ReplayReport): string {
  return jsonReport(report);
}
