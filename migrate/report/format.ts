/** Text pieces the replay reporters share: the verdict, the summary line, an answer as lines. */
import { baselineText, markedLines } from '../../report/text.js';
import type { ReplayReport, ShownAnswer } from '../types.js';

export function verdict(report: ReplayReport): string {
  const s = report.summary;
  if (s.interrupted) return 'INTERRUPTED';
  if (s.unreachable) return 'NOT JUDGED (the target never answered)';
  if (s.replayed === 0) return 'NOT JUDGED (no exchange replayed)';
  if (s.notJudged > 0) return 'NOT JUDGED (the reference did not answer every request)';
  // Writing a baseline accepts the differences: they are the point of the run, not a failure.
  if (s.baselineWritten !== undefined)
    return `baseline written: ${s.groups} difference group${s.groups === 1 ? '' : 's'} accepted (${s.baselineWritten})`;
  return s.gating === 0 ? 'PASS' : 'FAIL';
}

export function summaryLine(report: ReplayReport): string {
  const s = report.summary;
  const noise = report.noise.length === 0 ? '' : `; ${report.noise.length} noise path(s) learned from the reference`;
  const notJudged = s.notJudged === 0 ? '' : `, ${s.notJudged} not judged`;
  return `${verdict(report)}: ${s.exchanges} exchanges, ${s.replayed} replayed, ${s.matched} matched, ${s.differing} differ, ${s.skipped} skipped${notJudged}; ${s.groups} difference group(s)${baselineText(s.baseline)}${noise}; ${s.durationMs} ms`;
}

export function answerLines(answer: ShownAnswer, mark: string): string[] {
  if (answer.status === undefined) return [`${mark} (no answer: ${answer.error ?? 'unknown'})`];
  return [
    `${mark} ${answer.status}`,
    ...answer.headers.map(([n, v]) => `${mark} ${n}: ${v}`),
    ...(answer.body === '' ? [] : [mark, ...markedLines(answer.body, mark)]),
  ];
}
