/**
 * The diff's reporters by name: the terminal's pretty text, JSON, a pull-request comment in
 * Markdown, and JUnit for CI. The names are the report kit's (report/names.ts) but for html,
 * which the diff has no page for, and markdown, which only the diff writes; each renderer reads
 * the --fail-on gate beside the report, since the verdict line and the failing cases follow it.
 */
import type { Renderers, ReporterName } from '../../../report/names.js';
import type { DiffReport, FailOn } from '../types.js';
import { renderJson } from './json.js';
import { renderJunit } from './junit.js';
import { renderMarkdown } from './markdown.js';
import { renderPretty } from './pretty.js';

export type DiffReporterName = Exclude<ReporterName, 'html'> | 'markdown';

const RENDERERS: Renderers<DiffReport, DiffReporterName, [failOn: FailOn]> = {
  pretty: renderPretty,
  json: renderJson,
  markdown: renderMarkdown,
  junit: renderJunit,
};

/** The report in the format `name` names, gated on `failOn`. */
export function renderDiffReport(name: DiffReporterName, report: DiffReport, failOn: FailOn): string {
  return RENDERERS[name](report, failOn);
}

export { oneLineSummary } from './one-line.js';
export { renderJson, renderJunit, renderMarkdown, renderPretty };
