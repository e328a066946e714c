/**
 * The runner against a genuine ASMX service (Mono, test/peers/asmx/header) whose operation needs a
 * SOAP header: Whoami throws without AuthHeader, so ASMX refuses it on every HTTP GET/POST call
 * (500 text/plain with its SoapException), where no header can travel. A correct server: no MUST
 * failure; the contract's flaw is one SHOULD finding per HTTP case of Whoami, naming the header.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWsdl } from '../../contract/parse/index.js';
import { runConformance, type Report } from '../../conformance/index.js';
import { startAsmxPeer, type AsmxPeer } from '../helpers/asmx-peer.js';
import { requirePeer } from '../helpers/peers.js';
import { scratchDir } from '../helpers/scratch.js';

const skip = requirePeer('asmx', 'conformance/asmx-header').reason;

describe.skipIf(skip !== undefined)(
  `an ASMX operation that needs its SOAP header${skip === undefined ? '' : ` (skipped: ${skip})`}`,
  () => {
    let peer: AsmxPeer;
    let report: Report;
    const dir = scratchDir('smskit-asmx-header-');

    beforeAll(async () => {
      peer = await startAsmxPeer('header');
      const wsdl = await (await fetch(`${peer.url}?WSDL`)).text();
      writeFileSync(join(dir, 'header.wsdl'), wsdl);
      report = await runConformance({
        target: peer.url,
        wsdlModel: parseWsdl(join(dir, 'header.wsdl')),
        // Whoami over SOAP succeeds only with the header; the runner sends the values given.
        inputs: {
          values: {},
          operations: { Whoami: { headers: { AuthHeader: { User: 'alice', Token: 'token-4711' } } } },
        },
        retries: 0,
        timeoutMs: 20_000,
        concurrency: 4,
      });
    }, 240_000);

    afterAll(async () => {
      await peer?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('has no MUST failure and nothing skipped', () => {
      const must = report.cases.flatMap((c) =>
        c.failures.filter((f) => f.level === 'must').map((f) => `${c.id} ${f.check}: ${f.message}`),
      );
      expect(must).toEqual([]);
      expect(report.summary.skipped).toBe(0);
      expect(report.summary.diagnosis).toBeUndefined();
    });

    it('reports each HTTP case of Whoami once, as SHOULD, naming the header that cannot be sent', () => {
      const findings = report.cases.flatMap((c) =>
        c.failures.filter((f) => f.check === 'http.header-unsendable').map((f) => [c.id, f.level, f.message]),
      );
      const ids = findings.map(([id]) => id!);
      expect(ids.length).toBeGreaterThan(0);
      expect(ids.every((id) => /^Whoami\/http-(get|post)\//.test(id))).toBe(true);
      expect(new Set(ids.map((id) => id.split('/')[1]))).toEqual(new Set(['http-get', 'http-post']));
      for (const [, level, message] of findings) {
        expect(level).toBe('should');
        expect(message).toMatch(/^Whoami cannot succeed over http-(get|post): its header AuthHeader cannot be sent/);
      }
    });

    it('counts those HTTP answers as refusals, and Whoami succeeds over SOAP with its header', () => {
      const whoami = report.cases.filter((c) => c.id.startsWith('Whoami/'));
      expect(
        whoami.filter((c) => /^Whoami\/http-(get|post)\/ok\//.test(c.id)).every((c) => c.refused !== undefined),
      ).toBe(true);
      const soapOk = whoami.filter((c) => /^Whoami\/soap1[12]\/ok\/plain$/.test(c.id));
      expect(soapOk.map((c) => [c.id, c.status, c.refused])).toEqual([
        ['Whoami/soap11/ok/plain', 'passed', undefined],
        ['Whoami/soap12/ok/plain', 'passed', undefined],
      ]);
    });

    it('leaves Echo, which needs no header, judged as any operation', () => {
      const echo = report.cases.filter((c) => c.id.startsWith('Echo/'));
      expect(echo.flatMap((c) => c.failures.filter((f) => f.check === 'http.header-unsendable'))).toEqual([]);
      // Only ASMX's query-length limit refuses an Echo case (an accepted 400 for the long value over GET).
      expect(echo.filter((c) => c.refused !== undefined).map((c) => c.id)).toEqual(['Echo/http-get/ok/long']);
      expect(echo.find((c) => c.id === 'Echo/http-post/ok/plain')?.status).toBe('passed');
    });
  },
);
