/** Every check, in report order (MUST first). Ids are unique; a test asserts each can fail. */
import type { Check } from '../../types.js';
import { contentTypeCheck, contentTypeExactCheck } from './content-type.js';
import { errorStatusCheck, errorTextCheck } from './http-error.js';
import { headerUnsendableCheck } from './http-header.js';
import { faultAnswerCheck, faultCodeCheck, faultShapeCheck, faultStatusCheck, faultVersionCheck } from './fault.js';
import { statusOkCheck } from './http-status.js';
import { xmlRootCheck } from './http-xml-root.js';
import { noStackTraceCheck } from './no-stack-trace.js';
import { oneWayNoEnvelopeCheck, oneWayStatusCheck } from './one-way.js';
import { responseElementCheck } from './response-element.js';
import {
  arrayItemCheck,
  fieldNamespaceCheck,
  fieldOrderCheck,
  fieldSetCheck,
  xsiTypeCheck,
} from './response-fields.js';
import { resultTypeCheck } from './result-type.js';
import { bodySingleChildCheck, envelopeStructureCheck, envelopeVersionCheck } from './soap-envelope.js';
import { responseHeadersCheck } from './soap-headers.js';
import { wsdlStructureCheck } from './wsdl-structure.js';
import { encodingCheck, noDtdCheck, wellFormedCheck } from './xml-document.js';

export const ALL_CHECKS: readonly Check[] = [
  statusOkCheck,
  oneWayStatusCheck,
  contentTypeCheck,
  wellFormedCheck,
  noDtdCheck,
  encodingCheck,
  envelopeVersionCheck,
  envelopeStructureCheck,
  bodySingleChildCheck,
  responseElementCheck,
  fieldSetCheck,
  fieldNamespaceCheck,
  fieldOrderCheck,
  resultTypeCheck,
  xsiTypeCheck,
  arrayItemCheck,
  xmlRootCheck,
  faultAnswerCheck,
  faultVersionCheck,
  faultCodeCheck,
  faultStatusCheck,
  faultShapeCheck,
  noStackTraceCheck,
  responseHeadersCheck,
  oneWayNoEnvelopeCheck,
  errorStatusCheck,
  headerUnsendableCheck,
  wsdlStructureCheck,
  contentTypeExactCheck,
  errorTextCheck,
];

const ids = new Set<string>();
for (const check of ALL_CHECKS) {
  if (ids.has(check.id)) throw new Error(`duplicate check id ${check.id}`);
  ids.add(check.id);
}

export { refusalSummary } from './fault.js';
