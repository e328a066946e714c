/**
 * `soap.response-headers`: the SOAP header blocks of a success answer. A block the operation
 * declares in its output is valid by its schema (every rule of ../schema-walk.ts); an in-out block
 * (declared in the input and the output, and sent) comes back; and no block the operation does
 * not declare is marked mustUnderstand: a client built from the WSDL must fail on one (SOAP
 * 1.1 §4.2.3, SOAP 1.2 Part 1 §5.2.3), and .NET's does ("SOAP header X was not understood").
 */
import { childElements } from '../../../runtime/xml/reader.js';
import { clarkOf, envelopeNamespace, soapViewOf } from '../response-view.js';
import { walkElement } from '../schema-walk.js';
import type { Mismatch } from '../../types.js';
import { defineCheck, judgedAsSuccess, mismatch, successShape } from './support.js';

export const responseHeadersCheck = defineCheck({
  id: 'soap.response-headers',
  level: 'should',
  source: 'WSDL 1.1 §3.7 (soap:header in the output message); SOAP 1.1 §4.2.3; SOAP 1.2 Part 1 §5.2.3 (mustUnderstand)',
  title: 'Declared output header blocks are valid and in-out ones come back; no undeclared block is mustUnderstand',
  applies: (testCase) => successShape(testCase)?.kind === 'soap',
  run(exchange, testCase) {
    const shape = successShape(testCase);
    if (shape?.kind !== 'soap' || !judgedAsSuccess(exchange, testCase)) return [];
    const view = soapViewOf(exchange);
    if (view === undefined || view.version === undefined) return [];
    const header = view.parts.find((el) => el.local === 'Header' && el.ns === view.envelope.ns);
    const blocks = header === undefined ? [] : childElements(header);
    const found: Mismatch[] = [];
    for (const expected of shape.headers) {
      const block = blocks.find((b) => b.local === expected.name.local && b.ns === expected.name.ns);
      if (block === undefined) {
        if (expected.echoed)
          found.push(
            mismatch(
              `<${expected.name.local}> in the Header`,
              'absent',
              `the in-out header block ${clarkOf(expected.name)} sent with the request is missing from the answer`,
            ),
          );
        continue;
      }
      for (const f of walkElement(shape.schema, block, expected.value, expected.nillable)) {
        found.push(mismatch(f.expected, f.actual, `header block ${f.message} (${f.rule})`));
      }
    }
    const envNs = envelopeNamespace(view.version);
    for (const block of blocks) {
      if (shape.headers.some((h) => h.name.local === block.local && h.name.ns === block.ns)) continue;
      const must = block.attributes.find((a) => a.local === 'mustUnderstand' && a.ns === envNs)?.value.trim();
      if (must === '1' || must === 'true') {
        found.push(
          mismatch(
            'no undeclared mustUnderstand block',
            clarkOf(block),
            `the answer carries the header block ${clarkOf(block)}, which the operation does not declare, marked mustUnderstand: a client built from the WSDL must refuse the answer`,
          ),
        );
      }
    }
    return found;
  },
});
