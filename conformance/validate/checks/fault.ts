/**
 * Faults, for negative SOAP cases and for positive cases the service refused:
 * - `fault.answer`: the answer is a SOAP Fault, or a plain HTTP status SOAP/HTTP allow instead;
 * - `fault.version`: the fault is in the request's SOAP version (envelope and Content-Type);
 * - `fault.code`: the code family (Client/Sender, Server/Receiver, VersionMismatch, MustUnderstand);
 * - `fault.status`: 500, or 400 for a SOAP 1.2 Sender fault;
 * - `fault.shape`: the fault's required parts.
 */
import {
  contentTypeOf,
  envelopeNamespace,
  isFaultElement,
  readFault,
  soapMediaType,
  soapViewOf,
  type FaultView,
} from '../response-view.js';
import type { Case, Exchange, FaultFamily } from '../../types.js';
import {
  acceptedPlainStatus,
  acceptedStatus,
  answerKind,
  defineCheck,
  expectedFaultVersion,
  isSoapShape,
  mismatch,
  truncate,
} from './support.js';

const appliesToFaults = (testCase: Case): boolean =>
  testCase.expect.kind === 'fault' ||
  (testCase.expect.kind === 'success' && testCase.expect.allowRefusal && isSoapShape(testCase.expect.shape));

/** The family a fault must have: the negative case's, or Client/Sender for a refusal. */
function expectedFamily(testCase: Case): FaultFamily {
  return testCase.expect.kind === 'fault' ? testCase.expect.family : 'client';
}

/** The fault to judge, when the case expects one and the response is one. */
function faultOf(exchange: Exchange, testCase: Case): FaultView | undefined {
  if (expectedFaultVersion(exchange, testCase) === undefined || acceptedPlainStatus(exchange, testCase) !== undefined)
    return undefined;
  const first = soapViewOf(exchange)?.bodyChildren[0];
  return first !== undefined && isFaultElement(first) ? readFault(first) : undefined;
}

export const faultAnswerCheck = defineCheck({
  id: 'fault.answer',
  level: 'should',
  source: 'SOAP 1.1 §4.4, §6.2; SOAP 1.2 Part 1 §5.4; SOAP 1.2 Part 2 §7.5.2',
  title: 'A request the server cannot process is answered with a SOAP fault (or an allowed HTTP status)',
  applies: (testCase) => testCase.expect.kind === 'fault',
  run(exchange, testCase) {
    if (testCase.expect.kind !== 'fault' || acceptedPlainStatus(exchange, testCase) !== undefined) return [];
    const view = soapViewOf(exchange);
    const first = view?.bodyChildren[0];
    if (first !== undefined && isFaultElement(first)) return [];
    const plain =
      testCase.expect.acceptStatuses.length > 0 ? ` or HTTP ${testCase.expect.acceptStatuses.join('/')}` : '';
    const actual =
      view === undefined
        ? `HTTP ${exchange.response.status}, body not XML`
        : first === undefined
          ? `HTTP ${exchange.response.status}, empty or no Body`
          : `HTTP ${exchange.response.status}, Body holds {${first.ns}}${first.local}`;
    return [
      mismatch(`a SOAP Fault${plain}`, actual, `${testCase.description}: the server must refuse it with a fault`),
    ];
  },
  observe(exchange, testCase) {
    const status = acceptedPlainStatus(exchange, testCase);
    return status === undefined ? undefined : `answered with HTTP ${status} instead of a fault (allowed)`;
  },
});

export const faultVersionCheck = defineCheck({
  id: 'fault.version',
  level: 'should',
  source: "SOAP 1.2 Part 1 §5.4.7, Part 2 §7.5; SOAP 1.1 §6 (faults in the request's version)",
  title: "The fault is in the request's SOAP version",
  applies: appliesToFaults,
  run(exchange, testCase) {
    const fault = faultOf(exchange, testCase);
    const want = expectedFaultVersion(exchange, testCase);
    if (fault === undefined || want === undefined) return [];
    const anyVersion = testCase.expect.kind === 'fault' && testCase.expect.acceptAnyVersion;
    const found = [];
    if (!anyVersion && fault.version !== want) {
      found.push(
        mismatch(
          `{${envelopeNamespace(want)}}Fault`,
          `{${envelopeNamespace(fault.version)}}Fault`,
          `a SOAP ${want} request must get a SOAP ${want} fault`,
        ),
      );
    }
    const media = contentTypeOf(exchange.response.headers);
    if (media.type !== soapMediaType(fault.version)) {
      found.push(
        mismatch(
          soapMediaType(fault.version),
          media.raw || '(no Content-Type)',
          `a SOAP ${fault.version} fault must be sent as ${soapMediaType(fault.version)}`,
        ),
      );
    }
    return found;
  },
  observe(exchange, testCase) {
    const fault = faultOf(exchange, testCase);
    return fault !== undefined && testCase.expect.kind === 'fault' && testCase.expect.acceptAnyVersion
      ? `fault in SOAP ${fault.version}`
      : undefined;
  },
});

const FAMILY_CODES: Readonly<Record<FaultFamily, Readonly<Record<'1.1' | '1.2', string>>>> = {
  client: { '1.1': 'Client', '1.2': 'Sender' },
  server: { '1.1': 'Server', '1.2': 'Receiver' },
  'version-mismatch': { '1.1': 'VersionMismatch', '1.2': 'VersionMismatch' },
  'must-understand': { '1.1': 'MustUnderstand', '1.2': 'MustUnderstand' },
};

export const faultCodeCheck = defineCheck({
  id: 'fault.code',
  level: 'should',
  source: 'SOAP 1.1 §4.4.1; SOAP 1.2 Part 1 §5.4.6',
  title: 'The fault code names the right party (Client/Sender vs Server/Receiver) or condition',
  applies: appliesToFaults,
  run(exchange, testCase) {
    const fault = faultOf(exchange, testCase);
    if (fault === undefined || fault.code === undefined) return [];
    const local = FAMILY_CODES[expectedFamily(testCase)][fault.version];
    const ns = envelopeNamespace(fault.version);
    // SOAP 1.1 §4.4.1: dotted specialisations (Client.Authentication) belong to their family.
    const ok =
      fault.code.ns === ns &&
      (fault.code.local === local || (fault.version === '1.1' && fault.code.local.startsWith(`${local}.`)));
    if (ok) return [];
    return [
      mismatch(
        `{${ns}}${local}`,
        `{${fault.code.ns}}${fault.code.local}`,
        `${testCase.description}: the fault code must be ${local}; reason: ${truncate(fault.reason ?? '')}`,
      ),
    ];
  },
});

export const faultStatusCheck = defineCheck({
  id: 'fault.status',
  level: 'should',
  source: 'SOAP 1.1 §6.2 (500); SOAP 1.2 Part 2 §7.5.1.2 table 20 (Sender 400, others 500); WS-I BP R1126',
  title: 'A fault is sent with HTTP 500 (or 400 for a SOAP 1.2 Sender fault)',
  applies: appliesToFaults,
  run(exchange, testCase) {
    const fault = faultOf(exchange, testCase);
    if (fault === undefined) return [];
    const allowed = allowedStatuses(fault);
    const status = exchange.response.status;
    return allowed.includes(status)
      ? []
      : [
          mismatch(
            allowed.join(' or '),
            String(status),
            `a SOAP ${fault.version} fault must be sent with HTTP ${allowed.join(' or ')}`,
          ),
        ];
  },
  observe(exchange, testCase) {
    const fault = faultOf(exchange, testCase);
    return fault !== undefined && allowedStatuses(fault).length > 1
      ? `SOAP 1.2 Sender fault with HTTP ${exchange.response.status}`
      : undefined;
  },
});

function allowedStatuses(fault: FaultView): number[] {
  const sender = fault.version === '1.2' && fault.code?.local === 'Sender';
  return sender ? [400, 500] : [500];
}

export const faultShapeCheck = defineCheck({
  id: 'fault.shape',
  level: 'should',
  source: 'SOAP 1.1 §4.4 (faultcode, faultstring); SOAP 1.2 Part 1 §5.4 (Code/Value, Reason/Text xml:lang)',
  title: 'The fault has its required parts',
  applies: appliesToFaults,
  run(exchange, testCase) {
    const fault = faultOf(exchange, testCase);
    if (fault === undefined) return [];
    const found = fault.missing.map((part) =>
      mismatch(part, 'absent', `the SOAP ${fault.version} fault has no ${part}`),
    );
    if (fault.missing.length === 0 && fault.code === undefined) {
      found.push(
        mismatch(
          'a QName fault code in scope',
          'unresolvable',
          'the fault code is not a QName whose prefix is declared',
        ),
      );
    }
    if (fault.version === '1.2' && fault.reason !== undefined && fault.reasonLang === undefined) {
      found.push(mismatch('Reason/Text xml:lang', 'absent', 'SOAP 1.2 Reason/Text must carry xml:lang'));
    }
    return found;
  },
});

/** For reporters: a one-line description of a refused positive case. */
export function refusalSummary(exchange: Exchange, testCase: Case): string | undefined {
  if (answerKind(exchange, testCase) !== 'refusal') return undefined;
  const accepted = acceptedStatus(exchange, testCase);
  if (accepted !== undefined) return `HTTP ${accepted.status}: ${accepted.why}`;
  const first = soapViewOf(exchange)?.bodyChildren[0];
  if (first !== undefined && isFaultElement(first)) {
    const fault = readFault(first);
    return `${fault.code?.local ?? 'fault'}: ${truncate(fault.reason ?? '', 120)}`;
  }
  return `HTTP ${exchange.response.status}: ${truncate(new TextDecoder().decode(exchange.response.body).trim(), 120)}`;
}
