/**
 * `http.content-type` (MUST): the media type and charset of a success answer per binding.
 * `http.content-type-exact` (COMPAT): the exact header string ASMX sends, which some ASMX
 * clients compare byte for byte.
 */
import { contentTypeOf, soapMediaType } from '../response-view.js';
import type { Case, SuccessShape } from '../../types.js';
import { defineCheck, judgedAsSuccess, mismatch, successShape } from './support.js';

function expectedMediaType(shape: SuccessShape): string {
  return shape.kind === 'soap' ? soapMediaType(shape.version) : 'text/xml';
}

/** Answers with a body to type: every success but an HTTP GET/POST operation without output. */
const hasTypedBody = (testCase: Case): boolean => {
  const kind = successShape(testCase)?.kind;
  return kind === 'soap' || kind === 'xml-root';
};

export const contentTypeCheck = defineCheck({
  id: 'http.content-type',
  level: 'must',
  source: 'spec §4.1, §4.2 (Response column)',
  title: 'Response Content-Type media type and charset match the binding',
  applies: hasTypedBody,
  run(exchange, testCase) {
    const shape = successShape(testCase);
    if (shape === undefined || shape.kind === 'empty' || !judgedAsSuccess(exchange, testCase)) return [];
    const media = contentTypeOf(exchange.response.headers);
    const want = expectedMediaType(shape);
    const found = [];
    if (media.type !== want) {
      found.push(mismatch(want, media.raw || '(no Content-Type)', `the ${describe(shape)} response must be ${want}`));
    }
    const charset = media.params.charset?.toLowerCase();
    if (charset !== 'utf-8') {
      found.push(
        mismatch('charset=utf-8', media.raw || '(no Content-Type)', 'the response must declare charset=utf-8'),
      );
    }
    return found;
  },
});

export const contentTypeExactCheck = defineCheck({
  id: 'http.content-type-exact',
  level: 'compat',
  source: 'ASMX',
  title: 'Content-Type is exactly the string ASMX sends',
  applies: hasTypedBody,
  run(exchange, testCase) {
    const shape = successShape(testCase);
    if (shape === undefined || shape.kind === 'empty' || !judgedAsSuccess(exchange, testCase)) return [];
    const want = `${expectedMediaType(shape)}; charset=utf-8`;
    const raw = exchange.response.headers['content-type'] ?? '';
    return raw === want
      ? []
      : [mismatch(want, raw || '(no Content-Type)', 'ASMX clients may compare the Content-Type string exactly')];
  },
});

function describe(shape: SuccessShape): string {
  return shape.kind === 'soap' ? `SOAP ${shape.version}` : 'HTTP GET/POST';
}
