/**
 * The schema walk of a success answer (../schema-walk.ts), run once per exchange and shared by the
 * checks that each report one rule of it: the SOAP response wrapper's children, or the HTTP
 * GET/POST result document's root, validated at every depth.
 */
import { isFaultElement, parseBody, soapViewOf } from '../response-view.js';
import type { SchemaFinding, SchemaRule } from '../schema-rules.js';
import { walkElement, walkWrapper } from '../schema-walk.js';
import type { Case, Exchange, Mismatch } from '../../types.js';
import { judgedAsSuccess, mismatch, successShape } from './support.js';

const walked = new WeakMap<Exchange, readonly SchemaFinding[]>();

function walk(exchange: Exchange, testCase: Case): readonly SchemaFinding[] {
  const shape = successShape(testCase);
  if (shape === undefined || !judgedAsSuccess(exchange, testCase)) return [];
  if (shape.kind === 'soap') {
    const wrapper = soapViewOf(exchange)?.bodyChildren[0];
    return wrapper === undefined || isFaultElement(wrapper) ? [] : walkWrapper(shape.schema, wrapper, shape.fields);
  }
  if (shape.kind === 'xml-root') {
    const root = parseBody(exchange).doc?.root;
    return root === undefined || root.local !== shape.element.local
      ? []
      : walkElement(shape.schema, root, shape.field.value, shape.field.nillable);
  }
  return [];
}

/** The findings of one rule, as mismatches; the walk runs on the first call for an exchange. */
export function schemaMismatches(exchange: Exchange, testCase: Case, rule: SchemaRule): Mismatch[] {
  let findings = walked.get(exchange);
  if (findings === undefined) {
    findings = walk(exchange, testCase);
    walked.set(exchange, findings);
  }
  return findings.filter((f) => f.rule === rule).map((f) => mismatch(f.expected, f.actual, f.message));
}

/** The checks of the schema walk apply to every success answer that carries a value. */
export function carriesValue(testCase: Case): boolean {
  const kind = successShape(testCase)?.kind;
  return kind === 'soap' || kind === 'xml-root';
}
