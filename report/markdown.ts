/**
 * Markdown escaping for reports: a table cell and an inline code span. Only reports write
 * Markdown (the contract diff's pull-request comment), so the escapes sit in the report kit
 * beside JUnit's and HTML's, not in the runtime, which never writes Markdown.
 */

/**
 * Text for one table cell: one line, pipes and backslashes escaped, angle brackets as entities
 * (GitHub reads them as HTML, where they would break the table or vanish).
 */
export function markdownCell(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r?\n/g, ' ');
}

/** Text as an inline code span; a backtick, which would end the span, becomes an apostrophe. */
export function markdownCode(text: string): string {
  return `\`${text.replace(/`/g, "'")}\``;
}
