/** The JSON report: the ReplayReport as it is (types.ts), for tools. */
import type { ReplayReport } from '../types.js';

export function renderJson(report: ReplayReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
