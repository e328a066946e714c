/**
 * The XML document rules every XML answer obeys: well-formed (`xml.well-formed`), no document
 * type declaration (`xml.no-dtd`) and UTF-8 (`xml.encoding`). All three use the shared reader
 * (runtime/xml/reader.ts), the same one the runtime parses requests with.
 */
import { parseBody } from '../response-view.js';
import type { Case, Exchange } from '../../types.js';
import { acceptedPlainStatus, acceptedStatus, answerKind, defineCheck, mismatch } from './support.js';

/** Whether the case's answer must be an XML document (not a 415/405 or a GET/POST text error). */
function expectsXmlBody(exchange: Exchange, testCase: Case): boolean {
  const expect = testCase.expect;
  switch (expect.kind) {
    case 'success':
      if (expect.shape.kind === 'empty') return false;
      if (acceptedStatus(exchange, testCase) !== undefined) return false;
      // A one-way answer has no body (./one-way.ts judges one that has); a refusal is a fault.
      if (expect.shape.kind === 'one-way') return answerKind(exchange, testCase) === 'refusal';
      return expect.shape.kind === 'soap' || answerKind(exchange, testCase) === 'success';
    case 'fault':
      return acceptedPlainStatus(exchange, testCase) === undefined;
    case 'wsdl':
      return true;
    case 'http-error':
      return false;
  }
}

const appliesToXml = (testCase: Case): boolean => testCase.expect.kind !== 'http-error';

export const wellFormedCheck = defineCheck({
  id: 'xml.well-formed',
  level: 'must',
  source: 'spec §4.1 (XML responses); XML 1.0 §2.1',
  title: 'The response body is a well-formed XML document',
  applies: appliesToXml,
  run(exchange, testCase) {
    if (!expectsXmlBody(exchange, testCase)) return [];
    const { error } = parseBody(exchange);
    if (error === undefined || error.code === 'XML_DOCTYPE' || error.code === 'XML_ENCODING') return [];
    return [
      mismatch(
        'a well-formed XML document',
        error.message,
        `the response body is not well-formed XML: ${error.message}`,
      ),
    ];
  },
});

export const noDtdCheck = defineCheck({
  id: 'xml.no-dtd',
  level: 'must',
  source: 'spec §4.1; WS-I BP R1008 (no DTD in a SOAP message)',
  title: 'The response carries no document type declaration',
  applies: appliesToXml,
  run(exchange, testCase) {
    if (!expectsXmlBody(exchange, testCase)) return [];
    const { error } = parseBody(exchange);
    if (error?.code !== 'XML_DOCTYPE') return [];
    return [mismatch('no <!DOCTYPE>', error.message, 'the response contains a document type declaration')];
  },
});

export const encodingCheck = defineCheck({
  id: 'xml.encoding',
  level: 'must',
  source: 'spec §4.1 (charset=utf-8); XML 1.0 §4.3.3; WS-I BP R4003',
  title: 'The response is UTF-8 and says so',
  applies: appliesToXml,
  run(exchange, testCase) {
    if (!expectsXmlBody(exchange, testCase)) return [];
    const parsed = parseBody(exchange);
    const found = [];
    if (parsed.encodingError !== undefined) {
      found.push(
        mismatch(
          'UTF-8 bytes and declaration',
          parsed.encodingError,
          `the response encoding is wrong: ${parsed.encodingError}`,
        ),
      );
    }
    const declared = parsed.doc?.declaredEncoding;
    if (declared !== undefined && declared !== 'utf-8' && parsed.encodingError === undefined) {
      found.push(
        mismatch(
          'encoding="utf-8"',
          `encoding="${declared}"`,
          'the XML declaration names an encoding other than UTF-8',
        ),
      );
    }
    return found;
  },
});
