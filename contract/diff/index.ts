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
export { renderPretty } from './report/pretty.js';
export { renderJson } from './report/json.js';
export { renderMarkdown } from './report/markdown.js';
export { renderJunit } from './report/junit.js';
export { oneLineSummary } from './report/one-line.js';
export { readCommittedDescriptors } from './committed.js';
export type * from './types.js';
