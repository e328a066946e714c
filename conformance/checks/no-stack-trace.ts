/**
 * `fault.no-stack-trace`: error answers never carry a stack trace or internal paths; they leak
 * implementation details and tell an attacker where to push.
 */
import { bodyText } from '../response-view.js';
import type { Case, Exchange } from '../types.js';
import { answerKind, defineCheck, mismatch, truncate } from './support.js';

/** Shapes of stack frames and exception dumps from Node, .NET and Java. */
const STACK_PATTERNS: readonly RegExp[] = [
  /\bat\s+(?:async\s+)?[\w$.<>[\]]+\s+\((?:file:\/\/|node:|\/|[A-Za-z]:\\)[^)]*:\d+:\d+\)/, // Node: at fn (/path/x.js:1:2)
  /\bat\s+(?:file:\/\/|node:|\/|[A-Za-z]:\\)\S+:\d+:\d+/, // Node: at /path/x.js:1:2
  /\bat\s+[\w.`<>]+\([^)]*\)\s+in\s+\S+:line\s+\d+/, // .NET: at X.Y() in C:\x.cs:line 3
  /\s--->\s/, // .NET inner exception marker
  /\bat\s+[\w$.]+\([\w$]+\.java:\d+\)/, // Java
  /node_modules[\\/]/,
];

function isErrorAnswer(exchange: Exchange, testCase: Case): boolean {
  const kind = testCase.expect.kind;
  return kind === 'fault' || kind === 'http-error' || answerKind(exchange, testCase) === 'refusal';
}

export const noStackTraceCheck = defineCheck({
  id: 'fault.no-stack-trace',
  level: 'should',
  source: 'WS-I BP (no implementation detail in faults); OWASP ASVS 7.4.1',
  title: 'Error answers carry no stack trace or internal paths',
  applies: (testCase) => testCase.expect.kind === 'fault' || testCase.expect.kind === 'http-error' || (testCase.expect.kind === 'success' && testCase.expect.allowRefusal),
  run(exchange, testCase) {
    if (!isErrorAnswer(exchange, testCase)) return [];
    const text = bodyText(exchange);
    for (const pattern of STACK_PATTERNS) {
      const hit = pattern.exec(text);
      if (hit !== null) {
        return [mismatch('no stack trace', truncate(hit[0].trim(), 120), 'the error answer exposes a stack trace or an internal path')];
      }
    }
    return [];
  },
});
