/** The JSON report: the FuzzReport as it is (types.ts), for tools. */
import { jsonReport } from '../../report/json.js';
import type { FuzzReport } from '../types.js';

export function renderJson(report: FuzzReport): string {
  return jsonReport(report);
}
