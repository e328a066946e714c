/**
 * `response.result-type`: each simple value of the answer, at every depth, is of its schema
 * type: simple content only, the lexical form (and range) of its XSD primitive, one of its
 * enumeration values, and `xsi:nil` only where the element is nillable. Applies to SOAP
 * wrappers and to the GET/POST result document.
 */
import { carriesValue, schemaMismatches } from './schema-findings.js';
import { defineCheck } from './support.js';

export const resultTypeCheck = defineCheck({
  id: 'response.result-type',
  level: 'must',
  source:
    'spec §2 (result of type string); XSD Part 2 (lexical spaces, ranges, enumerations); XSD Part 1 §3.3.1 (nillable)',
  title: 'Each simple value of the response is of its schema type',
  applies: carriesValue,
  run: (exchange, testCase) => schemaMismatches(exchange, testCase, 'value'),
});
