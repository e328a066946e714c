/** `soap.response-element`: the Body's element is `{ns}<Operation>Response` as the descriptor says. */
import { clarkOf, faultSummary, isFaultElement, soapViewOf } from '../response-view.js';
import { defineCheck, judgedAsSuccess, mismatch, successShape, truncate } from './support.js';

export const responseElementCheck = defineCheck({
  id: 'soap.response-element',
  level: 'must',
  source: 'spec §4.1, §4.2 (Body holds {ns}<Operation>Response)',
  title: "The Body element is the operation's response element",
  applies: (testCase) => successShape(testCase)?.kind === 'soap',
  run(exchange, testCase) {
    const shape = successShape(testCase);
    if (shape?.kind !== 'soap' || !judgedAsSuccess(exchange, testCase)) return [];
    const first = soapViewOf(exchange)?.bodyChildren[0];
    if (first === undefined) return [];
    const want = clarkOf(shape.element);
    const got = clarkOf(first);
    if (got === want) return [];
    if (isFaultElement(first)) {
      return [mismatch(want, faultSummary(first, truncate), 'a positive case was answered with a fault')];
    }
    const why = first.local === shape.element.local ? 'its namespace is wrong' : 'its name is wrong';
    return [mismatch(want, got, `the Body must hold the response element ${want}; ${why}`)];
  },
});
