/**
 * A run that cannot judge anything says so on one line instead of listing a hundred failures
 * (or, worse, passing): the answers show the target is not a SOAP service of this WSDL (404
 * everywhere, HTML pages, plain HTTP errors only), or that it refused the credentials on every
 * positive case. The CLI prints the line and exits 2; the reports carry it as `diagnosis`.
 *
 * Each rule needs every answer of the run to agree, so a service with some broken operations is
 * still judged case by case.
 */
import type { AnswerSummary, Case, CaseOutcome } from '../types.js';

/** Words of a refusal that is about who is calling, not about the values. */
const AUTH_REASON =
  /auth|password|credential|log ?in|sign ?in|unauthori[sz]ed|forbidden|access denied|permission|not allowed|token|api[- ]?key|account/i;

export interface DiagnosisContext {
  readonly target: string;
  /** The endpoint path the WSDL's address gives (shown when every answer is 404). */
  readonly wsdlPath: string;
}

function statuses(answers: readonly AnswerSummary[]): string {
  const counts = new Map<number, number>();
  for (const a of answers) counts.set(a.status, (counts.get(a.status) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([status, n]) => `${status} ×${n}`)
    .join(', ');
}

function notThisService(answers: readonly AnswerSummary[], ctx: DiagnosisContext): string | undefined {
  if (answers.every((a) => a.status === 404)) {
    const hint = ctx.wsdlPath === '' ? '' : ` (the WSDL's address path is ${ctx.wsdlPath})`;
    return `every answer was 404 (${answers.length} requests): is the path right? --target ${ctx.target}${hint}`;
  }
  if (answers.every((a) => a.body === 'html')) {
    return `every answer was an HTML page (HTTP ${statuses(answers)}): ${ctx.target} looks like a web site, not the SOAP service of this WSDL; is --target the service endpoint?`;
  }
  if (answers.every((a) => a.status >= 400 && a.body !== 'soap' && a.body !== 'soap-fault' && a.body !== 'xml')) {
    return `no answer was SOAP or XML, only HTTP errors (${statuses(answers)}): ${ctx.target} is not a SOAP service of this WSDL`;
  }
  return undefined;
}

function authRefused(cases: ReadonlyMap<string, Case>, outcomes: readonly CaseOutcome[]): string | undefined {
  const positive = outcomes.filter(
    (o) => o.answer !== undefined && /\/ok\//.test(o.id) && cases.get(o.id)?.expect.kind === 'success',
  );
  if (positive.length === 0) return undefined;
  const refusedAll = positive.every((o) => o.status === 'failed' || o.refused !== undefined);
  if (!refusedAll) return undefined;
  const auth = positive.filter(
    (o) =>
      o.answer!.status === 401 ||
      o.answer!.status === 403 ||
      AUTH_REASON.test(o.answer!.reason ?? '') ||
      AUTH_REASON.test(o.refused ?? ''),
  );
  if (auth.length * 2 < positive.length) return undefined;
  const sample = auth[0]!.answer!;
  const said = sample.reason === undefined ? '' : `: "${sample.reason}"`;
  return `every positive case (${positive.length}) was refused, ${auth.length} of them about who is calling (HTTP ${sample.status}${said}): the credentials are the likely cause; give them with --inputs, --param or $SMSKIT_PASSWORD`;
}

/** The one-line reason the run's answers cannot be judged, or undefined when they can. */
export function diagnoseRun(
  cases: ReadonlyMap<string, Case>,
  outcomes: readonly CaseOutcome[],
  ctx: DiagnosisContext,
): string | undefined {
  const answers = outcomes.flatMap((o) => (o.answer === undefined ? [] : [o.answer]));
  // Judged on runs that asked for something real (a positive case or the WSDL), not on a
  // selection of negative cases only, whose right answers may well be errors.
  const asked = outcomes.some((o) => o.answer !== undefined && (/\/ok\//.test(o.id) || o.binding === 'wsdl'));
  if (answers.length === 0 || !asked) return undefined;
  return notThisService(answers, ctx) ?? authRefused(cases, outcomes);
}
