/** The fuzz reporters by name, as `--reporter` selects them (the report kit's names: report/names.ts). */
import { REPORTERS, type Renderers, type ReporterName } from '../../report/names.js';
import type { FuzzReport } from '../types.js';
import { renderHtml } from './html.js';
import { renderJson } from './json.js';
import { renderJunit } from './junit.js';
import { renderPretty } from './pretty.js';

export const FUZZ_REPORTERS: readonly ReporterName[] = REPORTERS;

const RENDERERS: Renderers<FuzzReport> = {
  pretty: renderPretty,
  json: renderJson,
  junit: renderJunit,
  html: renderHtml,
};

export function renderFuzzReport(name: ReporterName, report: FuzzReport): string {
  return RENDERERS[name](report);
}

export { summaryLine, verdict } from './format.js';
