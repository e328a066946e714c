/**
 * How every JSON report is written: two-space indentation and a final newline, so a report file
 * diffs cleanly and ends as a text file should; a run that did not happen writes
 * `{ "error": { code, message } }` in place of the report.
 */

/** `value` as a JSON report file's text. */
export function jsonReport(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** The JSON file a run that did not happen leaves, so a CI never reads an older report. */
export function jsonErrorReport(code: string, message: string): string {
  return jsonReport({ error: { code, message } });
}
