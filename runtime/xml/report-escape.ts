/**
 * Text for hand-written XML reports (JUnit): characters XML 1.0 cannot carry, even escaped,
 * become U+FFFD, and markup characters are escaped so the text is safe in content and in
 * double-quoted attributes alike.
 */
export function escapeReportText(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}
