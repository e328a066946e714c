/**
 * The HTML report page every report kind writes: one self-contained file (inline style, an
 * optional inline script, nothing fetched), so it opens from file:// and can be attached to a CI
 * run. Here are the page's shell, the style rules the pages share, and the one way text reaches
 * a page: made XML-safe, named credentials redacted once more (report/redact.ts: a password
 * element or an Authorization header cannot reach the page whatever path it took), then escaped.
 */
import { escapeHtml } from '../runtime/escape/html.js';
import { makeRedactor } from './redact.js';

const redactNamed = makeRedactor([]);

/** Characters XML 1.0 cannot carry, replaced in report text. */
export function xmlSafe(text: string): string {
  return text.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD');
}

/** Text for an HTML report: made XML-safe, named credentials redacted once more, then escaped. */
export function htmlReportText(text: string): string {
  return escapeHtml(redactNamed(xmlSafe(text)));
}

/** The style rules every report page shares (each page adds its own around them). */
export const PAGE_RULES = {
  root: ':root { color-scheme: light dark; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; line-height: 1.45; }',
  verdict: [
    '.verdict { font-weight: 600; padding: .5rem .75rem; border-radius: 4px; }',
    '.verdict.fail { background: #d9303022; border-left: 4px solid #d93030; } .verdict.pass { background: #2a9d4a22; border-left: 4px solid #2a9d4a; }',
  ].join('\n'),
  table:
    'table { border-collapse: collapse; } th, td { text-align: left; padding: .25rem .6rem; border-bottom: 1px solid #8884; vertical-align: top; }',
  numberCell: 'td.n { text-align: right; font-variant-numeric: tabular-nums; }',
  badge:
    '.badge { display: inline-block; font-size: .8em; padding: 0 .4em; border: 1px solid #8886; border-radius: 3px; }',
} as const;

/** The page's body rule: centred, at most `maxWidth` wide, long words broken. */
export function bodyRule(maxWidth: string): string {
  return `body { margin: 0 auto; max-width: ${maxWidth}; padding: 1rem; overflow-wrap: anywhere; }`;
}

/** A <style> element's text from its rules, one a line. */
export function pageStyle(rules: readonly string[]): string {
  return `\n${rules.join('\n')}\n`;
}

export interface HtmlPage {
  /** The <title>, already HTML (put text through htmlReportText). */
  readonly title: string;
  /** The <style> element's text (pageStyle). */
  readonly style: string;
  /** The lines between <body> and </body>, already HTML. */
  readonly body: readonly string[];
  /** An inline script run at the end of the body; the page must read well without it. */
  readonly script?: string;
}

const META = ['<meta charset="utf-8">', '<meta name="viewport" content="width=device-width, initial-scale=1">'];

/** The page, head and body one element a line. */
export function htmlPage(page: HtmlPage): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    ...META,
    `<title>${page.title}</title>`,
    `<style>${page.style}</style>`,
    '</head>',
    '<body>',
    ...page.body,
    ...(page.script === undefined ? [] : [`<script>${page.script}</script>`]),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** The same page with its head on two lines (the replay report's layout, kept byte for byte). */
export function compactHtmlPage(page: HtmlPage): string {
  return [
    '<!doctype html>',
    `<html lang="en"><head>${META.join('')}`,
    `<title>${page.title}</title><style>${page.style}</style></head><body>`,
    ...page.body,
    ...(page.script === undefined ? [] : [`<script>${page.script}</script>`]),
    '</body></html>',
    '',
  ].join('\n');
}
