/**
 * The SOAP envelope of a success answer: its namespace names the binding's version
 * (`soap.envelope-version`), it holds an optional Header then a Body and nothing else
 * (`soap.envelope-structure`), and its Body holds exactly one element (`soap.body-single-child`).
 */
import { envelopeNamespace, soapViewOf } from '../response-view.js';
import type { Case, Exchange } from '../../types.js';
import { defineCheck, judgedAsSuccess, mismatch, successShape } from './support.js';

function soapSuccessVersion(exchange: Exchange, testCase: Case): '1.1' | '1.2' | undefined {
  const shape = successShape(testCase);
  if (shape?.kind !== 'soap' || !judgedAsSuccess(exchange, testCase)) return undefined;
  return shape.version;
}

const appliesToSoapSuccess = (testCase: Case): boolean => successShape(testCase)?.kind === 'soap';

export const envelopeVersionCheck = defineCheck({
  id: 'soap.envelope-version',
  level: 'must',
  source: 'spec §4.1 (envelope namespace per binding); SOAP 1.2 Part 1 §5.4.7',
  title: "The response envelope is in the binding's SOAP version",
  applies: appliesToSoapSuccess,
  run(exchange, testCase) {
    const version = soapSuccessVersion(exchange, testCase);
    const view = soapViewOf(exchange);
    if (version === undefined || view === undefined) return [];
    const want = `{${envelopeNamespace(version)}}Envelope`;
    const got = `{${view.envelope.ns}}${view.envelope.local}`;
    if (got === want) return [];
    const seen = view.version === undefined ? 'an unknown envelope' : `a SOAP ${view.version} envelope`;
    return [
      mismatch(want, got, `a SOAP ${version} request must be answered in a SOAP ${version} envelope, got ${seen}`),
    ];
  },
});

export const envelopeStructureCheck = defineCheck({
  id: 'soap.envelope-structure',
  level: 'must',
  source: 'SOAP 1.1 §4.1.1, §4.3; SOAP 1.2 Part 1 §5.1 (optional Header, then Body, nothing after)',
  title: 'The envelope holds an optional Header, then the Body, and nothing else',
  applies: appliesToSoapSuccess,
  run(exchange, testCase) {
    if (soapSuccessVersion(exchange, testCase) === undefined) return [];
    const view = soapViewOf(exchange);
    if (view === undefined || view.version === undefined) return [];
    const names = view.parts.map((el) => (el.ns === view.envelope.ns ? el.local : `{${el.ns}}${el.local}`));
    const shapeOk =
      names.length > 0 &&
      names.length <= 2 &&
      names[names.length - 1] === 'Body' &&
      (names.length === 1 || names[0] === 'Header');
    if (shapeOk) return [];
    return [
      mismatch(
        '[Header?, Body]',
        `[${names.join(', ')}]`,
        'the Envelope must hold an optional Header followed by exactly one Body, and nothing after the Body',
      ),
    ];
  },
});

export const bodySingleChildCheck = defineCheck({
  id: 'soap.body-single-child',
  level: 'must',
  source: 'spec §4.1 (Body holds the response element); WS-I BP R9981 (one child in a document-literal Body)',
  title: 'The Body holds exactly one element',
  applies: appliesToSoapSuccess,
  run(exchange, testCase) {
    if (soapSuccessVersion(exchange, testCase) === undefined) return [];
    const view = soapViewOf(exchange);
    if (view === undefined || view.body === undefined) return [];
    const children = view.bodyChildren;
    if (children.length === 1) return [];
    const names = children.map((el) => `{${el.ns}}${el.local}`).join(', ');
    return [
      mismatch(
        'exactly 1 Body child',
        `${children.length} (${names || 'none'})`,
        "the Body must hold exactly one element, the operation's response element",
      ),
    ];
  },
});
