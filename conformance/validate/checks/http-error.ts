/**
 * HTTP GET/POST error answers:
 * - `http.error-status` (SHOULD): a negative case gets one of the statuses HTTP allows for it
 *   (405 or 501 for an unsupported method, 500 for a missing parameter);
 * - `http.error-text` (COMPAT): ASMX answers errors with 500 `text/plain; charset=utf-8` and a
 *   one-line message (`Missing parameter: <name>.`), which ASMX clients show to the user.
 */
import { bodyText, contentTypeOf } from '../response-view.js';
import type { Case, Exchange } from '../../types.js';
import { acceptedStatus, answerKind, defineCheck, isSoapShape, mismatch, truncate } from './support.js';

export const errorStatusCheck = defineCheck({
  id: 'http.error-status',
  level: 'should',
  source: 'RFC 9110 §15.5.6 (405), §15.6.2 (501); ASMX (500 for a missing parameter)',
  title: 'An HTTP GET/POST request the server refuses gets an allowed error status',
  applies: (testCase) => testCase.expect.kind === 'http-error',
  run(exchange, testCase) {
    if (testCase.expect.kind !== 'http-error') return [];
    const allowed = testCase.expect.acceptStatuses;
    const status = exchange.response.status;
    return allowed.includes(status)
      ? []
      : [
          mismatch(
            allowed.join(' or '),
            String(status),
            `${testCase.description}: expected HTTP ${allowed.join(' or ')}`,
          ),
        ];
  },
  observe(exchange, testCase) {
    return testCase.expect.kind === 'http-error' && testCase.expect.acceptStatuses.length > 1
      ? `HTTP ${exchange.response.status}`
      : undefined;
  },
});

/** The error text an ASMX-style GET/POST error must carry, when the case names one. */
function wantedMessage(testCase: Case): string | undefined {
  return testCase.expect.kind === 'http-error' ? testCase.expect.message : undefined;
}

function judgedAsErrorText(exchange: Exchange, testCase: Case): boolean {
  if (testCase.expect.kind === 'http-error') return testCase.expect.message !== undefined;
  if (acceptedStatus(exchange, testCase) !== undefined) return false;
  return (
    answerKind(exchange, testCase) === 'refusal' &&
    testCase.expect.kind === 'success' &&
    !isSoapShape(testCase.expect.shape)
  );
}

export const errorTextCheck = defineCheck({
  id: 'http.error-text',
  level: 'compat',
  source: 'ASMX (GET/POST errors: 500 text/plain, one-line message)',
  title: 'HTTP GET/POST errors are 500 text/plain with a one-line message',
  applies: (testCase) =>
    (testCase.expect.kind === 'http-error' && testCase.expect.message !== undefined) ||
    (testCase.expect.kind === 'success' && testCase.expect.allowRefusal && !isSoapShape(testCase.expect.shape)),
  run(exchange, testCase) {
    if (!judgedAsErrorText(exchange, testCase)) return [];
    const found = [];
    if (exchange.response.status !== 500)
      found.push(mismatch('500', String(exchange.response.status), 'ASMX answers GET/POST errors with 500'));
    const media = contentTypeOf(exchange.response.headers);
    if (media.type !== 'text/plain')
      found.push(
        mismatch(
          'text/plain; charset=utf-8',
          media.raw || '(no Content-Type)',
          'ASMX answers GET/POST errors as text/plain',
        ),
      );
    const text = bodyText(exchange).replace(/\r?\n$/, '');
    const want = wantedMessage(testCase);
    if (want !== undefined && text.split(/\r?\n/)[0]?.trim() !== want) {
      found.push(mismatch(want, JSON.stringify(truncate(text, 120)), `the error text must be "${want}"`));
    } else if (/[\r\n]/.test(text)) {
      found.push(mismatch('one line', `${text.split(/\r?\n/).length} lines`, 'the error text must be a single line'));
    }
    return found;
  },
});
