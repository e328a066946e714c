/**
 * The status service as users run it: `smskit serve` answers /statusapi.asmx, `smskit status ID`
 * reads a message's state over each binding (plain and --json; a refusal exits 1 with its code,
 * the password never in the output), and `smskit conformance --wsdl wsdl/statusapi.wsdl` passes
 * against it with no MUST failure. The SMS contract beside it keeps its bytes: the committed file
 * has the hash it had before the status contract existed, and /serviceapi.asmx?wsdl serves it.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliAsync } from '../../tools/serve-process.js';
import { repoRoot } from '../helpers/cli.js';
import { ALICE, useStatusService } from '../helpers/status-service.js';

/** sha256 of wsdl/serviceapi.wsdl as the specification gives it: the status contract travels beside it, never in it. */
const SMS_WSDL_SHA256 = '2c72aad47a144170d647a8123c84b362662b2d8a12a19dc4b7991ae2377c7968';

const service = useStatusService('e2e-status');

const status = (id: string, ...flags: string[]) =>
  runCliAsync(['status', id, '--url', service.statusUrl, '--email', ALICE.email, ...flags], {
    env: { SMSKIT_PASSWORD: ALICE.password },
  });

describe('smskit status', () => {
  it('announces the status service in the serve banner', () => {
    expect(service.serve.output().stdout).toContain(
      `status:    ${service.statusUrl} (GetMessageStatus; contract at ?wsdl)`,
    );
  });

  it.each(['soap11', 'soap12', 'http-get', 'http-post'])('reads the state over %s', async (binding) => {
    const plain = await status(service.aliceId, '--binding', binding);
    expect(plain.stderr).toBe('');
    expect(plain.status).toBe(0);
    expect(plain.stdout).toMatch(/^queued \(updated \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z, 0 attempts\)\n$/);
    const json = await status(service.aliceId, '--binding', binding, '--json');
    expect(json.status).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      id: service.aliceId,
      state: 'queued',
      updated: expect.stringMatching(/Z$/),
      attempts: 0,
      errorCode: null,
      errorText: null,
    });
  });

  it("exits 1 with UnknownMessage for another account's message, the password never shown", async () => {
    const other = await status(service.bobId, '--binding', 'http-get');
    expect(other.status).toBe(1);
    expect(other.stdout).toBe('');
    expect(other.stderr).toBe('smskit: fault UnknownMessage: this account sent no message with this messageId\n');
    const wrong = await runCliAsync(
      ['status', service.aliceId, '--url', service.statusUrl, '--email', ALICE.email, '--password-stdin'],
      {
        input: 'not the password\n',
      },
    );
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toMatch(/^smskit: fault AuthenticationFailed: /);
    expect(`${wrong.stdout}${wrong.stderr}`).not.toContain('not the password');
  });
});

describe('smskit conformance against /statusapi.asmx', () => {
  it('passes with no MUST failure', async () => {
    const run = await runCliAsync(
      [
        'conformance',
        '--wsdl',
        'wsdl/statusapi.wsdl',
        '--target',
        service.statusUrl,
        '--email',
        ALICE.email,
        '--param',
        `messageId=${service.aliceId}`,
        '--reporter',
        'json',
      ],
      { env: { SMSKIT_PASSWORD: ALICE.password }, timeoutMs: 120_000 },
    );
    const report = JSON.parse(run.stdout) as {
      summary: { ok: boolean; total: number; failuresByLevel: Record<string, number> };
    };
    expect(report.summary.failuresByLevel.must, run.stderr).toBe(0);
    expect(report.summary.ok).toBe(true);
    expect(report.summary.total).toBeGreaterThan(10);
    expect(run.status).toBe(0);
  }, 150_000);
});

describe('the SMS contract beside it', () => {
  it('keeps its committed bytes and serves them at /serviceapi.asmx?wsdl', async () => {
    const committed = readFileSync(join(repoRoot, 'wsdl/serviceapi.wsdl'));
    expect(createHash('sha256').update(committed).digest('hex')).toBe(SMS_WSDL_SHA256);
    const served = await (await fetch(`${service.serve.url}?wsdl`)).text();
    const origin = new URL(service.serve.url).origin;
    expect(served).toBe(committed.toString('utf8').replaceAll('http://localhost:8080', origin));
  });
});
