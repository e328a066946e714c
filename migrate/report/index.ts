/** The replay reporters by name, as `--reporter` selects them (the report kit's names: report/names.ts). */
import { REPORTERS, type Renderers, type ReporterName } from '../../report/names.js';
import type { ReplayReport } from '../types.js';
import { renderHtml } from './html.js';
import { renderJson } from './json.js';
import { renderJunit } from './junit.js';
import { renderPretty } from './pretty.js';

/** The same reporter names as conformance's, so one `--reporter` vocabulary serves both commands. */
export type ReplayReporterName = ReporterName;
export const REPLAY_REPORTERS: readonly ReplayReporterName[] = REPORTERS;

const RENDERERS: Renderers<ReplayReport> = {
  pretty: renderPretty,
  json: renderJson,
  junit: renderJunit,
  html: renderHtml,
};

export function renderReplayReport(name: ReplayReporterName, report: ReplayReport): string {
  return RENDERERS[name](report);
}

export { summaryLine, verdict } from './format.js';
