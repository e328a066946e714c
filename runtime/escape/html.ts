/**
 * HTML escaping, the one place for it: the help pages (runtime/server/help/html.ts) and the HTML
 * reports. Every text from a WSDL, a peer or a user goes through it: none is trusted markup.
 */
const HTML_SPECIAL = /[&<>"']/g;
const HTML_ENTITY: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML content and double- or single-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(HTML_SPECIAL, (c) => HTML_ENTITY[c]!);
}
