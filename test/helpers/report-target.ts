/**
 * A target for the HTML report's tests: the conformance reference server behind a proxy with two
 * defects on different bindings — SOAP 1.2 answers labelled text/xml, HTTP GET successes sent
 * with 202 — that also echoes the password into every SOAP answer, so the report has failures of
 * two checks on two bindings to group and filter, and a secret it must not show.
 */
import { DEFECTS } from '../fixtures/conformance/defects.js';
import { startBrokenServer, type BrokenServer } from '../fixtures/conformance/broken-server.js';
import { TEST_PASSWORD } from '../fixtures/conformance/run.js';

export type ReportTarget = BrokenServer;

/** Escaped, so that the echo leaves the answers well-formed: the two defects stay the only ones. */
function xmlEscaped(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function defect(name: string) {
  const found = DEFECTS.find((d) => d.name === name);
  if (found === undefined) throw new Error(`no defect named "${name}" in test/fixtures/conformance/defects.ts`);
  return found.alter;
}

export function startReportTarget(referenceUrl: string): Promise<ReportTarget> {
  const soap12AsXml = defect('text/xml on a SOAP 1.2 response');
  const accepted = defect('202 instead of 200');
  return startBrokenServer(referenceUrl, (req, res) => {
    const altered =
      req.method === 'GET' && /\/SMSSend(ToPort)?\?/.test(req.url) ? accepted(req, res) : soap12AsXml(req, res);
    return { ...altered, body: altered.body.replace(/ok:/, `ok:${xmlEscaped(TEST_PASSWORD)}:`) };
  });
}
