/**
 * The runner against the built-in SMS service (the embedded default the CLI starts,
 * bin/embedded-service.ts): zero failures over all bindings and levels. Values the service's own rules refuse (empty, too long) come back as
 * well-formed Client/Sender faults or GET/POST errors, which the positive cases accept and count.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startEmbeddedService } from '../../bin/embedded-service.js';
import { runConformance } from '../../conformance/index.js';
import { CONTRACT_WSDL, contractModel } from '../fixtures/conformance/contract.js';

describe('the built-in SMS service', () => {
  it('passes every case', async () => {
    const embedded = await startEmbeddedService({
      wsdlText: readFileSync(CONTRACT_WSDL, 'utf8'),
      path: '/serviceapi.asmx',
      maxBodyBytes: 4 * 1024 * 1024,
    });
    try {
      const report = await runConformance({
        target: embedded.url,
        wsdlModel: contractModel,
        inputs: embedded.inputs,
      });
      const failed = report.cases
        .filter((c) => c.status === 'failed')
        .map((c) => `${c.id}: ${c.failures.map((f) => `${f.check} ${f.message}`).join('; ')}`);
      expect(failed).toEqual([]);
      expect(report.summary).toMatchObject({ failed: 0, skipped: 0, ok: true });
      // Plain values must be accepted, never merely refused.
      expect(
        report.cases.filter((c) => c.id.endsWith('/ok/plain') && c.refused !== undefined).map((c) => c.id),
      ).toEqual([]);
      const json = JSON.stringify(report);
      expect(json).not.toContain(embedded.inputs.values.password!);
    } finally {
      await embedded.close();
    }
  });
});
