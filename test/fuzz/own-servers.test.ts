/**
 * smskit's own servers under the fuzzer for a fixed number of cases: the SMS service (the
 * generated skeleton with the service's handlers, a throw-away database and one account) and the
 * rich contract's server (test/peers/rich-handlers.ts) on every operation and binding, valid and
 * invalid inputs. Both end with no finding; the run is reported as judged and complete.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readContract } from '../../contract/read/index.js';
import { runFuzz } from '../../fuzz/index.js';
import { startSmsServer } from '../../service/server.js';
import { startSmskitPeer } from '../helpers/smskit-peers.js';

describe('smskit servers under the fuzzer', () => {
  it('the rich server: no finding over 3,000 cases on every operation and binding', async () => {
    const peer = await startSmskitPeer('rich');
    try {
      const model = (await readContract('test/fixtures/asmx/rich.wsdl')).model;
      const report = await runFuzz({ wsdlModel: model, target: peer.url, allowWrites: true, runs: 3000, seed: 1128 });
      expect(report.findings.map((f) => `${f.key}: ${JSON.stringify(f.value)}`)).toEqual([]);
      expect(report.summary.ok).toBe(true);
      expect(report.summary.cases).toBeGreaterThanOrEqual(3000);
      // Every binding and both kinds of input were exercised.
      const kinds = new Set(report.properties.map((p) => `${p.binding}/${p.mode}`));
      expect([...kinds].sort()).toEqual(
        ['http-get', 'http-post', 'soap11', 'soap12'].flatMap((b) => [`${b}/invalid`, `${b}/valid`]),
      );
      expect(peer.logged).toEqual([]);
    } finally {
      await peer.close();
    }
  }, 180_000);

  it('the SMS service: no finding over 1,000 cases', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'smskit-fuzz-'));
    const logged: string[] = [];
    const server = await startSmsServer({
      dbPath: join(dir, 'outbox.db'),
      durability: 'normal',
      scrypt: { logN: 10, r: 8, p: 1 },
      http: { logger: { error: (line) => logged.push(line) } },
    });
    try {
      await server.app.accounts.add({ email: 'fuzz@example.invalid', password: 'fuzz-password-1', keywords: ['FUZZ'] });
      const model = (await readContract('wsdl/serviceapi.wsdl')).model;
      const report = await runFuzz({
        wsdlModel: model,
        target: `${server.url}/serviceapi.asmx`,
        allowWrites: true,
        runs: 1000,
        seed: 1128,
      });
      expect(report.findings.map((f) => `${f.key}: ${JSON.stringify(f.value)}`)).toEqual([]);
      expect(report.summary.ok).toBe(true);
      expect(report.summary.cases).toBeGreaterThanOrEqual(1000);
      expect(logged).toEqual([]);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
