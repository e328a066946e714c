/**
 * Conformance's reporters by name, as `--reporter` selects them (the names are the report kit's:
 * report/names.ts), and the file each leaves when the run did not happen.
 */
import { jsonErrorReport } from '../../report/json.js';
import type { Renderers, ReporterName } from '../../report/names.js';
import type { Report } from '../types.js';
import { renderHtml, renderHtmlError } from './html.js';
import { renderJson } from './json.js';
import { renderJunit, renderJunitError } from './junit.js';
import { renderPretty } from './pretty.js';

const RENDERERS: Renderers<Report> = {
  pretty: (report) => renderPretty(report),
  json: renderJson,
  junit: renderJunit,
  html: renderHtml,
};

export function renderReport(name: ReporterName, report: Report): string {
  return RENDERERS[name](report);
}

/** What each reporter's file says when the run could not happen, so a CI never reads an older report. */
const ERROR_RENDERERS: Renderers<{ readonly code: string; readonly message: string }> = {
  pretty: ({ message }) => `smskit conformance did not run: ${message}\n`,
  json: ({ code, message }) => jsonErrorReport(code, message),
  junit: ({ code, message }) => renderJunitError(code, message),
  html: ({ code, message }) => renderHtmlError(code, message),
};

export function renderErrorReport(name: ReporterName, code: string, message: string): string {
  return ERROR_RENDERERS[name]({ code, message });
}

export { renderPretty } from './pretty.js';
export { createProgress, type Progress } from './progress.js';
export { renderJson } from './json.js';
export { renderJunit } from './junit.js';
export { renderHtml, renderHtmlError } from './html.js';
export { summaryLine } from './format.js';
