/**
 * Outcome of one case: run every applicable check (at or above the selected level) on the
 * exchange, collect all mismatches, cap their level by the case's level, and note which of the
 * allowed answers was seen.
 */
import { refusalSummary } from './checks/index.js';
import type { Redactor } from '../../report/redact.js';
import { bodyText, contentTypeOf, isFaultElement, parseBody, readFault, soapViewOf } from './response-view.js';
import { responseExcerpt, traceOf, type ResponseExcerpt } from './trace.js';
import {
  atOrAbove,
  weaker,
  type AnswerSummary,
  type Case,
  type CaseOutcome,
  type Check,
  type Exchange,
  type Failure,
  type Level,
  type Trace,
} from '../types.js';

const HTML_START = /^\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*(?:<!DOCTYPE\s+html|<html[\s>])/i;

function firstLine(text: string): string {
  const line = text.trim().split(/\r?\n/)[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** What kind of answer an exchange got (for the run's diagnosis), read from the parsed body. */
function answerSummary(exchange: Exchange): AnswerSummary {
  const { status, body } = exchange.response;
  if (body.length === 0) return { status, body: 'empty' };
  const media = contentTypeOf(exchange.response.headers).type;
  const view = parseBody(exchange).doc === undefined ? undefined : soapViewOf(exchange);
  if (view?.version !== undefined) {
    const first = view.bodyChildren[0];
    if (first !== undefined && isFaultElement(first)) {
      const reason = readFault(first).reason;
      return { status, body: 'soap-fault', ...(reason === undefined ? {} : { reason: firstLine(reason) }) };
    }
    return { status, body: 'soap' };
  }
  const head = new TextDecoder().decode(body.subarray(0, 2048));
  if (media === 'text/html' || HTML_START.test(head)) return { status, body: 'html' };
  if (view !== undefined) return { status, body: 'xml' };
  if (media.startsWith('text/')) return { status, body: 'text', reason: firstLine(bodyText(exchange).slice(0, 2048)) };
  return { status, body: 'other' };
}

function runCheck(check: Check, exchange: Exchange, testCase: Case): ReturnType<Check['run']> {
  try {
    return check.run(exchange, testCase);
  } catch (error) {
    // A check that throws is a bug in the kit; say so instead of hiding the case.
    const message = error instanceof Error ? error.message : String(error);
    return [
      {
        expected: 'the check to complete',
        actual: `internal error: ${message}`,
        message: `check ${check.id} failed to run: ${message}`,
      },
    ];
  }
}

function applicableChecks(checks: readonly Check[], testCase: Case, level: Level): Check[] {
  return checks.filter((check) => atOrAbove(check.level, level) && check.applies(testCase));
}

export function evaluateCase(
  testCase: Case,
  exchange: Exchange,
  checks: readonly Check[],
  level: Level,
  redact: Redactor,
): CaseOutcome {
  const applicable = applicableChecks(checks, testCase, level);
  const failures: Failure[] = [];
  const observations: string[] = [];
  for (const check of applicable) {
    for (const m of runCheck(check, exchange, testCase)) {
      failures.push({
        check: check.id,
        level: weaker(check.level, testCase.level),
        source: check.source,
        expected: redact(m.expected),
        actual: redact(m.actual),
        message: redact(m.message),
      });
    }
    const seen = check.observe?.(exchange, testCase);
    if (seen !== undefined) observations.push(`${check.id}: ${redact(seen)}`);
  }
  const refused = refusalSummary(exchange, testCase);
  // The trace keeps the head and a body excerpt, not the exchange: its body may be megabytes.
  const { request } = exchange;
  const response = responseExcerpt(exchange.response);
  return withLazyTrace(
    {
      id: testCase.id,
      operation: testCase.operation,
      binding: testCase.binding,
      level: testCase.level,
      status: failures.length === 0 ? 'passed' : 'failed',
      durationMs: Math.round(exchange.durationMs * 10) / 10,
      failures,
      checks: applicable.map((c) => c.id),
      observations,
      ...(refused === undefined ? {} : { refused: redact(refused) }),
      answer: redactAnswer(answerSummary(exchange), redact),
    },
    () => traceOf(request, response, redact),
  );
}

function redactAnswer(answer: AnswerSummary, redact: Redactor): AnswerSummary {
  return answer.reason === undefined ? answer : { ...answer, reason: redact(answer.reason) };
}

/**
 * Attaches `trace`, built (and redacted) on first read. Reporters read it only for failures,
 * and building it for every case (encoding bodies, a curl command, several redaction passes)
 * was a tenth of a run against a live server.
 */
function withLazyTrace(outcome: Omit<CaseOutcome, 'trace'>, build: () => Trace): CaseOutcome {
  let trace: Trace | undefined;
  return Object.defineProperty(outcome, 'trace', { get: () => (trace ??= build()), enumerable: true }) as CaseOutcome;
}

/**
 * A case whose request got no complete HTTP answer within the runner's bounds (after retries);
 * the target was reachable before. `partial` is what arrived before the exchange was cut short.
 */
export function transportFailure(
  testCase: Case,
  request: Exchange['request'],
  reason: string,
  durationMs: number,
  redact: Redactor,
  partial?: ResponseExcerpt,
): CaseOutcome {
  const message =
    partial === undefined
      ? `no HTTP response: ${redact(reason)}`
      : `no complete HTTP response (HTTP ${partial.status} arrived): ${redact(reason)}`;
  return withLazyTrace(
    {
      id: testCase.id,
      operation: testCase.operation,
      binding: testCase.binding,
      level: testCase.level,
      status: 'failed',
      durationMs: Math.round(durationMs * 10) / 10,
      failures: [
        {
          check: 'transport',
          level: testCase.level,
          source: 'RFC 9112 (an HTTP response to every request)',
          expected: "a complete HTTP response within the runner's bounds",
          actual: redact(reason),
          message,
        },
      ],
      checks: ['transport'],
      observations: [],
      transportError: redact(reason),
    },
    () => traceOf(request, partial, redact),
  );
}

export function skippedCase(testCase: Case, reason: string): CaseOutcome {
  return {
    id: testCase.id,
    operation: testCase.operation,
    binding: testCase.binding,
    level: testCase.level,
    status: 'skipped',
    durationMs: 0,
    failures: [],
    checks: [],
    observations: [],
    skipReason: reason,
  };
}

/** A selected case the run never completed: its deadline, Ctrl-C or --max-failures came first. */
export function notRunCase(testCase: Case, reason: string): CaseOutcome {
  return {
    id: testCase.id,
    operation: testCase.operation,
    binding: testCase.binding,
    level: testCase.level,
    status: 'not-run',
    durationMs: 0,
    failures: [],
    checks: [],
    observations: [],
    skipReason: reason,
  };
}

/** The outcome with other failures, keeping its lazily built trace lazy (a spread would build it). */
export function withFailures(outcome: CaseOutcome, failures: readonly Failure[]): CaseOutcome {
  const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(outcome)) as CaseOutcome;
  Object.defineProperty(copy, 'failures', { value: failures, enumerable: true });
  return copy;
}
