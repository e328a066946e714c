/**
 * `fault.no-stack-trace`: error answers never carry a stack trace or internal paths; they leak
 * implementation details and tell an attacker where to push.
 */
import { bodyText } from '../response-view.js';
import type { Case, Exchange } from '../../types.js';
import { answerKind, defineCheck, mismatch, truncate } from './support.js';

/**
 * Shapes of stack frames and exception dumps from Node, .NET (Windows and Mono) and Java. They
 * are matched on the text with XML's escapes undone: a fault string carries `---&gt;` and
 * `in &lt;…&gt;:0`, which is what genuine ASMX writes.
 */
const STACK_PATTERNS: readonly RegExp[] = [
  /\bat\s+(?:async\s+)?[\w$.<>[\]]+\s+\((?:file:\/\/|node:|\/|[A-Za-z]:\\)[^)]*:\d+:\d+\)/, // Node: at fn (/path/x.js:1:2)
  /\bat\s+(?:file:\/\/|node:|\/|[A-Za-z]:\\)\S+:\d+:\d+/, // Node: at /path/x.js:1:2
  /\bat\s+[\w.`<>]+\([^)]*\)\s+in\s+\S+:line\s+\d+/, // .NET: at X.Y() in C:\x.cs:line 3
  /\bat\s+[\w.`<>$[\],+]+\s*\([^)\n]*\)\s*\[0x[0-9a-fA-F]+\]\s+in\s+\S+:\d+/, // Mono: at X.Y (T a) [0x000bc] in <hex>:0
  /^[ \t]*at\s+[\w`<>$[\],+]+(?:\.[\w`<>$[\],+]+)+\s*\([^)\n]*\)[ \t]*$/m, // .NET without symbols: at X.Y.Z(String s)
  /---\s*End of inner exception stack trace\s*---/, // .NET
  /\s--->\s/, // .NET inner exception marker
  /\bat\s+[\w$.]+\([\w$]+\.java:\d+\)/, // Java
  /node_modules[\\/]/,
];

/** The text with XML's character escapes undone (the patterns read what a person would). */
function unescapeXmlText(text: string): string {
  return text.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, (_, entity: string) => {
    if (entity === 'lt') return '<';
    if (entity === 'gt') return '>';
    if (entity === 'amp') return '&';
    if (entity === 'quot') return '"';
    if (entity === 'apos') return "'";
    const code = entity.startsWith('#x') ? Number.parseInt(entity.slice(2), 16) : Number(entity.slice(1));
    return Number.isInteger(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : _;
  });
}

/** The first stack frame or exception dump in the text (raw or XML-escaped), or undefined. */
export function findStackTrace(text: string): string | undefined {
  const plain = unescapeXmlText(text);
  for (const pattern of STACK_PATTERNS) {
    const hit = pattern.exec(plain);
    if (hit !== null) return hit[0].trim();
  }
  return undefined;
}

function isErrorAnswer(exchange: Exchange, testCase: Case): boolean {
  const kind = testCase.expect.kind;
  return kind === 'fault' || kind === 'http-error' || answerKind(exchange, testCase) === 'refusal';
}

export const noStackTraceCheck = defineCheck({
  id: 'fault.no-stack-trace',
  level: 'should',
  source: 'WS-I BP (no implementation detail in faults); OWASP ASVS 7.4.1; ASMX customErrors (Mono and .NET frames)',
  title: 'Error answers carry no stack trace or internal paths',
  applies: (testCase) =>
    testCase.expect.kind === 'fault' ||
    testCase.expect.kind === 'http-error' ||
    (testCase.expect.kind === 'success' && testCase.expect.allowRefusal),
  run(exchange, testCase) {
    if (!isErrorAnswer(exchange, testCase)) return [];
    const hit = findStackTrace(bodyText(exchange));
    return hit === undefined
      ? []
      : [mismatch('no stack trace', truncate(hit, 120), 'the error answer exposes a stack trace or an internal path')];
  },
});
