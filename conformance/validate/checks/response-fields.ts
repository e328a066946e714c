/**
 * The elements of a success answer, compared with the schema at every depth (../schema-walk.ts):
 * - `response.field-set`: every required element (and attribute) is there, none is repeated
 *   beyond its maxOccurs, nothing undeclared is (matched by local name, so a wrong namespace is
 *   reported once, by the next check);
 * - `response.field-namespace`: each element is qualified in its declared namespace;
 * - `response.field-order`: the members of each sequence appear in schema order.
 *
 * A result element is required when its minOccurs ≥ 1; with `requireResults` (the built-in
 * contract: spec §4.1, "one child <Operation>Result") every result element is.
 */
import { carriesValue, schemaMismatches } from './schema-findings.js';
import { defineCheck } from './support.js';

export const fieldSetCheck = defineCheck({
  id: 'response.field-set',
  level: 'must',
  source: 'spec §4.1, §4.2 (one child <Operation>Result); XSD Part 1 §3.8 (content model: minOccurs, maxOccurs)',
  title:
    'The response holds the declared elements at every depth, none missing, none extra, none repeated beyond maxOccurs',
  applies: carriesValue,
  run: (exchange, testCase) => schemaMismatches(exchange, testCase, 'occurrence'),
});

export const fieldNamespaceCheck = defineCheck({
  id: 'response.field-namespace',
  level: 'must',
  source: 'spec §4.1 (elements in {service_namespace}); XSD elementFormDefault="qualified"',
  title: 'Every element of the response is qualified in its declared namespace',
  applies: carriesValue,
  run: (exchange, testCase) => schemaMismatches(exchange, testCase, 'namespace'),
});

export const fieldOrderCheck = defineCheck({
  id: 'response.field-order',
  level: 'must',
  source: 'spec §2 rule 2 (schema order); XSD Part 1 §3.8.4 (xs:sequence)',
  title: 'The members of every complex value appear in schema order',
  applies: carriesValue,
  run: (exchange, testCase) => schemaMismatches(exchange, testCase, 'order'),
});

export const xsiTypeCheck = defineCheck({
  id: 'response.xsi-type',
  level: 'must',
  source: 'XSD Part 1 §2.6.1 (xsi:type), §3.3.4 (a derived type may replace its base); ASMX XmlInclude',
  title: 'An xsi:type names the declared type or one derived from it, and an abstract declared type always has one',
  applies: carriesValue,
  run: (exchange, testCase) => schemaMismatches(exchange, testCase, 'xsi-type'),
});

export const arrayItemCheck = defineCheck({
  id: 'response.array-item',
  level: 'must',
  source: 'XSD Part 1 §3.8 (ArrayOfX: a sequence of its item element); ASMX array serialization',
  title: 'The items of an array wrapper are its declared item elements',
  applies: carriesValue,
  run: (exchange, testCase) => schemaMismatches(exchange, testCase, 'array-item'),
});
