/** `http.xml-root`: an HTTP GET/POST answer is a document whose root is the declared `{ns}string`. */
import { clarkOf, parseBody } from '../response-view.js';
import { defineCheck, judgedAsSuccess, mismatch, successShape } from './support.js';

export const xmlRootCheck = defineCheck({
  id: 'http.xml-root',
  level: 'must',
  source: 'spec §4.1, §4.2 (HTTP GET/POST: root element {ns}string)',
  title: 'The HTTP GET/POST response root is the declared result element',
  applies: (testCase) => successShape(testCase)?.kind === 'xml-root',
  run(exchange, testCase) {
    const shape = successShape(testCase);
    if (shape?.kind !== 'xml-root' || !judgedAsSuccess(exchange, testCase)) return [];
    const root = parseBody(exchange).doc?.root;
    if (root === undefined) return [];
    const want = clarkOf(shape.element);
    const got = clarkOf(root);
    if (got === want) return [];
    const why =
      root.local !== shape.element.local
        ? 'its name is wrong'
        : root.ns === ''
          ? 'it has no namespace'
          : 'its namespace is wrong';
    return [mismatch(want, got, `the response document's root must be ${want}; ${why}`)];
  },
});
