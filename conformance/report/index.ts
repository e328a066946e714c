/** The reporters by name, as `--reporter` selects them. */
import type { Report } from '../types.js';
import { renderJson } from './json.js';
import { renderJunit } from './junit.js';
import { renderPretty } from './pretty.js';

export type ReporterName = 'pretty' | 'json' | 'junit';
export const REPORTERS: readonly ReporterName[] = ['pretty', 'json', 'junit'];

export function renderReport(name: ReporterName, report: Report): string {
  switch (name) {
    case 'pretty':
      return renderPretty(report);
    case 'json':
      return renderJson(report);
    case 'junit':
      return renderJunit(report);
  }
}

export { createPrettyProgress, renderPretty } from './pretty.js';
export { renderJson } from './json.js';
export { renderJunit } from './junit.js';
export { summaryLine } from './format.js';
