/**
 * The runner against genuine ASP.NET ASMX services (Mono, test/peers/asmx): every operation of
 * the echo and rich sites, over the four bindings, with generated inputs and SOAP headers.
 * A correct ASMX server must never fail a MUST check (a false MUST failure is a runner bug);
 * what it does fail at SHOULD/COMPAT level is ASMX's own habit, each listed here with why, so a
 * new finding shows up as a test failure to look at.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWsdl } from '../../contract/parse/index.js';
import { runConformance, type Report } from '../../conformance/index.js';
import { startAsmxPeer, type AsmxPeer } from '../helpers/asmx-peer.js';
import { requirePeer } from '../helpers/peers.js';

const skip = requirePeer('asmx', 'conformance/asmx-genuine').reason;

/** What genuine ASMX on Mono does that a SHOULD/COMPAT rule flags (the peers run with customErrors off). */
const ASMX_HABITS: Readonly<Record<string, string>> = {
  'fault.no-stack-trace': 'faults and GET/POST errors carry the exception with its Mono stack frames',
  'http.error-status': 'a PUT to an operation path is answered 500, not 405/501',
  'fault.code': 'a body over the upload limit is a soap:Server (Receiver) fault',
  'http.error-text': 'Mono writes the exception text ("Missing parameter: {0}.") and its stack, not one line',
};

function mustFailures(report: Report): string[] {
  return report.cases.flatMap((c) =>
    c.failures.filter((f) => f.level === 'must').map((f) => `${c.id} ${f.check}: ${f.message}`),
  );
}

describe.skipIf(skip !== undefined)(`genuine ASMX peers${skip === undefined ? '' : ` (skipped: ${skip})`}`, () => {
  const peers: AsmxPeer[] = [];
  const reports = new Map<'echo' | 'rich', Report>();

  beforeAll(async () => {
    const [echo, rich] = await Promise.all([startAsmxPeer('echo'), startAsmxPeer('rich')]);
    peers.push(echo, rich);
    const run = (peer: AsmxPeer, site: 'echo' | 'rich') =>
      runConformance({
        target: peer.url,
        wsdlModel: parseWsdl(`test/fixtures/asmx/${site}.wsdl`),
        retries: 0,
        timeoutMs: 20_000,
        concurrency: 8,
      });
    reports.set('echo', await run(echo, 'echo'));
    reports.set('rich', await run(rich, 'rich'));
  }, 240_000);

  afterAll(async () => {
    await Promise.all(peers.map((p) => p.stop()));
  });

  it.each(['echo', 'rich'] as const)('%s: no MUST failure, no transport failure, nothing skipped', (site) => {
    const report = reports.get(site)!;
    expect(mustFailures(report)).toEqual([]);
    expect(report.cases.filter((c) => c.transportError !== undefined).map((c) => c.id)).toEqual([]);
    expect(report.summary.skipped).toBe(0);
    expect(report.summary.diagnosis).toBeUndefined();
  });

  it.each(['echo', 'rich'] as const)('%s: the SHOULD/COMPAT findings are ASMX habits only', (site) => {
    const checks = new Set(reports.get(site)!.cases.flatMap((c) => c.failures.map((f) => f.check)));
    expect([...checks].filter((c) => !(c in ASMX_HABITS))).toEqual([]);
  });

  it('rich: every schema check passes on every answer (arrays, derived types, nil, enums, headers)', () => {
    const schemaChecks = [
      'response.field-set',
      'response.field-namespace',
      'response.field-order',
      'response.result-type',
      'response.xsi-type',
      'response.array-item',
      'soap.response-headers',
    ];
    const report = reports.get('rich')!;
    expect(
      report.cases.flatMap((c) =>
        c.failures.filter((f) => schemaChecks.includes(f.check)).map((f) => `${c.id}: ${f.message}`),
      ),
    ).toEqual([]);
    const passed = (id: string) => report.cases.find((c) => c.id === id)?.status;
    for (const id of [
      'WhoAmI/soap11/ok/plain',
      'WhoAmI/soap12/ok/headers-must-understand',
      'EchoShapes/soap12/ok/plain',
      'EchoOrder/soap11/ok/derived-Circle',
      'EchoOrder/soap11/ok/nil',
      'SumValues/http-get/ok/arrays-many',
    ]) {
      expect(passed(id), id).toBe('passed');
    }
  });

  it("rich: a GET query over the 2048-character limit is ASMX's 400, accepted and named", () => {
    const long = reports.get('rich')!.cases.find((c) => c.id === 'Record/http-get/ok/long')!;
    // Accepted: no COMPAT finding about its status or HTML; its page still shows a stack (customErrors off).
    expect(long.failures.map((f) => f.check)).toEqual(['fault.no-stack-trace']);
    expect(long.refused).toMatch(/^HTTP 400: the query string \(\d+ characters\) is over ASMX's 2048-character limit$/);
  });

  it('rich: the stack traces ASMX writes (Mono frames, escaped ---&gt;) are recognised', () => {
    const fault = reports.get('rich')!.cases.find((c) => c.id === 'Add/soap11/invalid/not-a-number')!;
    expect(fault.failures.map((f) => f.check)).toEqual(['fault.no-stack-trace']);
  });
});
