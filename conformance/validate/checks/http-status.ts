/** `http.status-200`: a successful call is answered with status 200 on every binding. */
import { acceptedStatus, defineCheck, judgedAsSuccess, mismatch } from './support.js';

export const statusOkCheck = defineCheck({
  id: 'http.status-200',
  level: 'must',
  source: 'spec §4 rule 1',
  title: 'Success is answered with HTTP 200',
  // A one-way operation has its own statuses (./one-way.ts).
  applies: (testCase) => testCase.expect.kind === 'success' && testCase.expect.shape.kind !== 'one-way',
  run(exchange, testCase) {
    if (!judgedAsSuccess(exchange, testCase)) return [];
    const { status } = exchange.response;
    return status === 200
      ? []
      : [mismatch('200', String(status), `a successful call must be answered with 200, got ${status}`)];
  },
  observe(exchange, testCase) {
    const accepted = acceptedStatus(exchange, testCase);
    return accepted === undefined
      ? undefined
      : `HTTP ${accepted.status} instead of an answer: ${accepted.why} (allowed)`;
  },
});
