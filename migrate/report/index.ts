/** The replay reporters by name, as `--reporter` selects them (the same names as conformance's). */
import { REPORTERS, type ReporterName } from '../../conformance/report/index.js';
import type { ReplayReport } from '../types.js';
import { renderHtml } from './html.js';
import { renderJson } from './json.js';
import { renderJunit } from './junit.js';
import { renderPretty } from './pretty.js';

/** The same reporter names as conformance's, so one `--reporter` vocabulary serves both commands. */
export type ReplayReporterName = ReporterName;
export const REPLAY_REPORTERS: readonly ReplayReporterName[] = REPORTERS;

export function renderReplayReport(name: ReplayReporterName, report: ReplayReport): string {
  switch (name) {
    case 'pretty':
      return renderPretty(report);
    case 'json':
      return renderJson(report);
    case 'junit':
      return renderJunit(report);
    case 'html':
      return renderHtml(report);
  }
}

export { summaryLine, verdict } from './format.js';
