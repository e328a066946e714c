/** The reporters by name, as `--reporter` selects them. */
import type { Report } from '../types.js';
import { renderHtml } from './html.js';
import { renderJson } from './json.js';
import { renderJunit } from './junit.js';
import { renderPretty } from './pretty.js';

export type ReporterName = 'pretty' | 'json' | 'junit' | 'html';
export const REPORTERS: readonly ReporterName[] = ['pretty', 'json', 'junit', 'html'];

export function renderReport(name: ReporterName, report: Report): string {
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

export { renderPretty } from './pretty.js';
export { createProgress, type Progress } from './progress.js';
export { renderJson } from './json.js';
export { renderJunit } from './junit.js';
export { renderHtml, renderHtmlError } from './html.js';
export { summaryLine } from './format.js';
