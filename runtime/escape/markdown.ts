/** Markdown escaping, the one place for it: the contract diff's pull-request comment. */

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
