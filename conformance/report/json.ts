/**
 * The JSON report: `{ meta, target, summary, cases: [{ id, operation, binding, status, durationMs,
 * failures }], checks }`, with the trace (redacted request, response, curl) on failed cases only.
 * `meta` says where it comes from: tool and version, the WSDL and its sha256, target, times.
 */
import type { Report } from '../types.js';
import { jsonReport } from '../../report/json.js';

export function renderJson(report: Report): string {
  const cases = report.cases.map((c) => ({
    id: c.id,
    operation: c.operation,
    binding: c.binding,
    level: c.level,
    status: c.status,
    durationMs: c.durationMs,
    failures: c.failures.map(({ check, level, source, expected, actual, message, baseline }) => ({
      check,
      level,
      source,
      expected,
      actual,
      message,
      ...(baseline === undefined ? {} : { baseline }),
    })),
    ...(c.observations.length > 0 ? { observations: c.observations } : {}),
    ...(c.refused !== undefined ? { refused: c.refused } : {}),
    ...(c.skipReason !== undefined ? { skipReason: c.skipReason } : {}),
    ...(c.status === 'failed' && c.trace !== undefined ? { trace: c.trace } : {}),
  }));
  return jsonReport({
    meta: report.meta,
    target: report.target,
    summary: report.summary,
    cases,
    checks: report.checks,
  });
}
