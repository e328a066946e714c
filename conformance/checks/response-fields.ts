/**
 * The children of the response wrapper, compared with the descriptor's fields:
 * - `response.field-set`: every declared result is there, nothing undeclared is (matched by
 *   local name, so a wrong namespace is reported once, by the next check);
 * - `response.field-namespace`: each child is qualified in its declared namespace;
 * - `response.field-order`: the declared children appear in schema order.
 *
 * A field is required when its minOccurs ≥ 1, and also when it is the operation's single result
 * (spec §4.1: the response holds "one child <Operation>Result"; ASMX omits it only for null).
 */
import { childElements } from '../../runtime/xml/reader.js';
import type { XmlElement } from '../../runtime/xml/types.js';
import { clarkOf, isFaultElement, soapViewOf } from '../response-view.js';
import type { Case, Exchange, ExpectedField } from '../types.js';
import { defineCheck, judgedAsSuccess, mismatch, successShape } from './support.js';

interface WrapperView {
  readonly fields: readonly ExpectedField[];
  readonly children: readonly XmlElement[];
}

/** The response wrapper's children and the fields they should be, for a judged SOAP success. */
function wrapperOf(exchange: Exchange, testCase: Case): WrapperView | undefined {
  const shape = successShape(testCase);
  if (shape?.kind !== 'soap' || !judgedAsSuccess(exchange, testCase)) return undefined;
  const wrapper = soapViewOf(exchange)?.bodyChildren[0];
  if (wrapper === undefined || isFaultElement(wrapper)) return undefined;
  return { fields: shape.fields, children: childElements(wrapper) };
}

const appliesToSoapSuccess = (testCase: Case): boolean => successShape(testCase)?.kind === 'soap';

export function isRequired(field: ExpectedField, fields: readonly ExpectedField[]): boolean {
  return field.required || fields.length === 1;
}

export const fieldSetCheck = defineCheck({
  id: 'response.field-set',
  level: 'must',
  source: 'spec §4.1, §4.2 (one child <Operation>Result); XSD Part 1 §3.8 (content model)',
  title: 'The response holds the declared result elements, none missing, none extra',
  applies: appliesToSoapSuccess,
  run(exchange, testCase) {
    const view = wrapperOf(exchange, testCase);
    if (view === undefined) return [];
    const found = [];
    for (const field of view.fields) {
      const count = view.children.filter((c) => c.local === field.name.local).length;
      if (count === 0 && isRequired(field, view.fields)) {
        found.push(mismatch(`<${field.name.local}>`, 'absent', `the result element ${clarkOf(field.name)} is missing`));
      }
      if (count > 1 && !field.repeated) {
        found.push(mismatch(`one <${field.name.local}>`, `${count}`, `the result element ${clarkOf(field.name)} appears ${count} times`));
      }
    }
    const declared = new Set(view.fields.map((f) => f.name.local));
    for (const extra of view.children.filter((c) => !declared.has(c.local))) {
      found.push(mismatch('no undeclared element', clarkOf(extra), `the response holds an element the schema does not declare: ${clarkOf(extra)}`));
    }
    return found;
  },
});

export const fieldNamespaceCheck = defineCheck({
  id: 'response.field-namespace',
  level: 'must',
  source: 'spec §4.1 (elements in {service_namespace}); XSD elementFormDefault="qualified"',
  title: 'Result elements are qualified in their declared namespace',
  applies: appliesToSoapSuccess,
  run(exchange, testCase) {
    const view = wrapperOf(exchange, testCase);
    if (view === undefined) return [];
    const found = [];
    for (const field of view.fields) {
      for (const el of view.children.filter((c) => c.local === field.name.local && c.ns !== field.name.ns)) {
        const why = el.ns === '' ? 'it is unqualified (no namespace)' : `it is in ${el.ns}`;
        found.push(mismatch(clarkOf(field.name), clarkOf(el), `<${field.name.local}> must be in ${field.name.ns || 'no namespace'}; ${why}`));
      }
    }
    return found;
  },
});

export const fieldOrderCheck = defineCheck({
  id: 'response.field-order',
  level: 'must',
  source: 'spec §2 rule 2 (schema order); XSD xs:sequence',
  title: 'Result elements appear in schema order',
  applies: appliesToSoapSuccess,
  run(exchange, testCase) {
    const view = wrapperOf(exchange, testCase);
    if (view === undefined) return [];
    const position = new Map(view.fields.map((f, i) => [f.name.local, i]));
    const seen = view.children.map((c) => c.local).filter((local) => position.has(local));
    const sorted = [...seen].sort((a, b) => position.get(a)! - position.get(b)!);
    if (seen.join() === sorted.join()) return [];
    return [mismatch(sorted.join(', '), seen.join(', '), 'the result elements are not in the order the schema declares')];
  },
});
