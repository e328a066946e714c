/**
 * `smskit diff`: what a WSDL change breaks, for whom, on which binding (docs/diff.md).
 *
 * read (source.ts) -> compare (compare.ts: operations.ts, params.ts, values.ts, members.ts)
 * -> findings (collector.ts) -> verdicts (judge.ts with rules.ts) -> report (report/).
 */
export { diffSides, gatingChanges, type DiffOptions } from './compare.js';
export { sideFromModel } from './source.js';
export { DiffError, type DiffErrorCode } from './errors.js';
export { RULE_IDS } from './rules.js';
export {
  type DiffReporterName,
  oneLineSummary,
  renderDiffReport,
  renderJson,
  renderJunit,
  renderMarkdown,
  renderPretty,
} from './report/index.js';
export { readCommittedDescriptors } from './committed.js';
export type * from './types.js';
