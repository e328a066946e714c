/**
 * `response.result-type`: each result value is of its schema type: simple content only, the
 * lexical form of its XSD primitive, one of its enumeration values, and `xsi:nil` only when
 * the element is nillable. Applies to SOAP wrappers and to the GET/POST root element.
 */
import { childElements, textContent } from '../../runtime/xml/reader.js';
import type { XmlElement } from '../../runtime/xml/types.js';
import { isFaultElement, parseBody, soapViewOf, XSI_NS } from '../response-view.js';
import type { Case, Exchange, ExpectedField, Mismatch } from '../types.js';
import { defineCheck, judgedAsSuccess, mismatch, successShape, truncate } from './support.js';

/** Lexical forms of the XSD primitives a result commonly has (XSD Part 2 §3.2, §3.3). */
const LEXICAL: Readonly<Record<string, RegExp>> = {
  boolean: /^(true|false|1|0)$/,
  int: /^[+-]?\d+$/,
  integer: /^[+-]?\d+$/,
  long: /^[+-]?\d+$/,
  short: /^[+-]?\d+$/,
  byte: /^[+-]?\d+$/,
  unsignedInt: /^\+?\d+$/,
  unsignedLong: /^\+?\d+$/,
  decimal: /^[+-]?(\d+(\.\d*)?|\.\d+)$/,
  double: /^([+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|INF|-INF|NaN)$/,
  float: /^([+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|INF|-INF|NaN)$/,
  dateTime: /^-?\d{4,}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/,
  date: /^-?\d{4,}-\d{2}-\d{2}(Z|[+-]\d{2}:\d{2})?$/,
  guid: /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
};

/** XSD whitespace facet: every primitive but string collapses before matching. */
function lexicalValue(xsd: string, text: string): string {
  return xsd === 'string' ? text : text.trim();
}

export function checkValue(el: XmlElement, field: ExpectedField): Mismatch[] {
  const name = `<${field.name.local}>`;
  const nil = el.attributes.find((a) => a.ns === XSI_NS && a.local === 'nil')?.value;
  if (nil === 'true' || nil === '1') {
    return field.nillable ? [] : [mismatch(`${name} with a value`, 'xsi:nil="true"', `${name} is not nillable`)];
  }
  if (field.xsd === undefined) return [];
  const kids = childElements(el);
  if (kids.length > 0) {
    return [mismatch(`${name} of type xs:${field.xsd} (text only)`, `child <${kids[0]!.local}>`, `${name} must hold text, not elements`)];
  }
  const value = lexicalValue(field.xsd, textContent(el));
  const pattern = LEXICAL[field.xsd];
  if (pattern !== undefined && !pattern.test(value)) {
    return [mismatch(`xs:${field.xsd}`, JSON.stringify(truncate(value, 80)), `${name} is not a valid xs:${field.xsd}`)];
  }
  if (field.enumeration !== undefined && field.enumeration.length > 0 && !field.enumeration.includes(value)) {
    return [mismatch(`one of ${field.enumeration.join(', ')}`, JSON.stringify(truncate(value, 80)), `${name} is not an allowed value`)];
  }
  return [];
}

function resultElements(exchange: Exchange, testCase: Case): [XmlElement, ExpectedField][] {
  const shape = successShape(testCase);
  if (shape === undefined || !judgedAsSuccess(exchange, testCase)) return [];
  if (shape.kind === 'xml-root') {
    const root = parseBody(exchange).doc?.root;
    return root === undefined || root.local !== shape.element.local ? [] : [[root, shape.field]];
  }
  const wrapper = soapViewOf(exchange)?.bodyChildren[0];
  if (wrapper === undefined || isFaultElement(wrapper)) return [];
  const pairs: [XmlElement, ExpectedField][] = [];
  for (const el of childElements(wrapper)) {
    const field = shape.fields.find((f) => f.name.local === el.local);
    if (field !== undefined) pairs.push([el, field]);
  }
  return pairs;
}

export const resultTypeCheck = defineCheck({
  id: 'response.result-type',
  level: 'must',
  source: 'spec §2 (result of type string); XSD Part 2 (lexical spaces)',
  title: 'Each result value is of its schema type',
  applies: (testCase) => successShape(testCase) !== undefined,
  run(exchange, testCase) {
    return resultElements(exchange, testCase).flatMap(([el, field]) => checkValue(el, field));
  },
});
