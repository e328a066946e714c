/**
 * `smskit smsc` as users run it (the CLI process: port 0, the password from the environment,
 * JSON lines, SIGUSR1, SIGTERM), and the simulator library's decoding of what the route sends
 * (packed GSM, UCS-2, UDH and SAR reassembly, ports), its outcome mix and its TLS listener.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import smpp from 'smpp';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type RunningSmsc, startSmsc } from '../../../../service/delivery/simulator/index.js';
import { makeCertificates, type TestCertificates } from '../../../helpers/certificates.js';
import { repoRoot, runCli } from '../../../helpers/cli.js';
import { waitFor } from '../../../helpers/wait-for.js';
import { routeOptions, type StartedRoute, startRoute, stored } from './helpers.js';
import { requirePeer } from '../../../helpers/peers.js';
import { scratchDir } from '../../../helpers/scratch.js';

const BIN = join(repoRoot, 'bin', 'smskit.js');

describe('smskit smsc (the command)', () => {
  let child: ChildProcess | undefined;
  let started: StartedRoute | undefined;
  afterEach(async () => {
    await started?.route.close(1_000);
    if (child?.exitCode === null) child.kill('SIGKILL');
    started = undefined;
    child = undefined;
  });

  it('refuses to start without a password in SMSKIT_SMSC_PASSWORD, and a bad --outcomes by name', () => {
    const noPassword = runCli(['smsc', '--port', '0'], { env: { SMSKIT_SMSC_PASSWORD: '' } });
    expect(noPassword.status).toBe(2);
    expect(noPassword.stderr).toContain('set SMSKIT_SMSC_PASSWORD to the password clients must bind with');
    const badMix = runCli(['smsc', '--port', '0', '--outcomes', 'delivered=9,lost=1'], {
      env: { SMSKIT_SMSC_PASSWORD: 'x' },
    });
    expect(badMix.status).toBe(2);
    expect(badMix.stderr).toContain('--outcomes: "lost=1" is not state=weight');
  });

  it('--port 0 prints the URL; takes binds with the env password only; logs decoded messages; SIGUSR1 drops; SIGTERM stops with a summary', async () => {
    const log = join(scratchDir('smskit-smsc-'), 'received.jsonl');
    child = spawn(process.execPath, [BIN, 'smsc', '--port', '0', '--receipt-delay', '0', '--log', log], {
      env: { ...process.env, SMSKIT_SMSC_PASSWORD: 'cli-secret' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await waitFor('the URL', () => /smpp:\/\/127\.0\.0\.1:\d+/.test(stdout));
    const port = Number(/smpp:\/\/127\.0\.0\.1:(\d+)/.exec(stdout)?.[1]);
    expect(stdout).toContain('system_id smskit, password from SMSKIT_SMSC_PASSWORD');

    const refused = startRoute(routeOptions(port, { password: 'nope', reconnect: { initialMs: 5_000, maxMs: 5_000 } }));
    await waitFor('the refusal', () => refused.logs.length === 1);
    expect(refused.logs[0]).toContain('bind refused: ESME_RINVPASWD');
    await refused.route.close(500);

    started = startRoute(routeOptions(port, { password: 'cli-secret', reconnect: { initialMs: 20, maxMs: 100 } }));
    await started.waitUp();
    const text = 'CLI € test 📱';
    expect(await started.route.submit(stored(text))).toMatchObject({ outcome: 'accepted' });
    await waitFor('the receipt', () => started!.receipts.length === 1);
    await waitFor('the JSON line', () => readFileSync(log, 'utf8').includes('\n'));
    const line = JSON.parse(readFileSync(log, 'utf8').trim()) as Record<string, unknown>;
    expect(line).toMatchObject({
      text,
      encoding: 'ucs2',
      parts: 1,
      destination: { address: '15551234567', ton: 1, npi: 1 },
      source: { address: 'SMSKIT', ton: 5, npi: 0 },
    });

    child.kill('SIGUSR1');
    await waitFor('the drop and a new bind', () => started!.logs.some((l) => l.includes('connection lost')));
    await started.waitUp();
    const exited = new Promise<number | null>((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stderr).toContain('SIGUSR1: dropping every connection');
    // The receipt's acknowledgement can still be on its way when SIGUSR1 drops the connection; the
    // simulator then keeps the receipt and sends it again on the new bind, as an SMSC does (sent
    // 2), and the last one's acknowledgement can be on its way at SIGTERM (the route's own receipt
    // above proves one arrived). Exact otherwise.
    const summary =
      /SIGTERM: stopped after 1 submit_sm \(0 throttled\), (\d+)\/(\d+) receipts acknowledged, 1 binds refused/.exec(
        stderr,
      );
    expect(summary, stderr).not.toBeNull();
    const [acknowledged, sent] = [Number(summary![1]), Number(summary![2])];
    expect([1, 2], stderr).toContain(sent);
    expect(acknowledged, stderr).toBeGreaterThanOrEqual(sent - 1);
    expect(stderr).not.toContain('cli-secret');
  });
});

describe('the simulator library', () => {
  let smsc: RunningSmsc | undefined;
  let started: StartedRoute | undefined;
  let certificates: TestCertificates | undefined;
  afterEach(async () => {
    await started?.route.close(1_000);
    await smsc?.close();
    started = undefined;
    smsc = undefined;
  });
  afterAll(() => certificates?.remove());

  it.each([
    ['unpacked', 'udh'],
    ['packed', 'udh'],
    ['packed', 'sar'],
  ] as const)(
    'reassembles what the route sends (%s GSM, %s), UCS-2 and ports included',
    async (gsmPacking, concatenation) => {
      smsc = await startSmsc({ systemId: 'smskit', password: 'secret', gsmPacking });
      started = startRoute(routeOptions(smsc.port, { gsmPacking, concatenation }));
      await started.waitUp();
      const texts = [
        ['short [€]', null],
        [`long {${'x'.repeat(300)}} ~end~`, null],
        [`ported ${'y'.repeat(200)}`, 2948],
        ['ucs-2 ✓ 📱 '.repeat(20), null],
      ] as const;
      for (const [text, port] of texts) {
        expect(await started.route.submit(stored(text, port === null ? {} : { port }))).toMatchObject({
          outcome: 'accepted',
        });
      }
      expect(smsc.received.map((m) => [m.text, m.port, m.concatenation])).toEqual([
        ['short [€]', null, null],
        [texts[1][0], null, concatenation],
        [texts[2][0], 2948, concatenation],
        [texts[3][0], null, concatenation],
      ]);
      expect(smsc.received.map((m) => m.parts)).toEqual([1, 3, 2, 4]);
    },
  );

  it('sends receipts in the configured mix', async () => {
    smsc = await startSmsc({
      systemId: 'smskit',
      password: 'secret',
      outcomes: [
        ['delivered', 1],
        ['expired', 1],
      ],
      random: (() => {
        let n = 0;
        return () => (n++ % 2 === 0 ? 0.25 : 0.75);
      })(),
    });
    started = startRoute(routeOptions(smsc.port));
    await started.waitUp();
    for (let i = 0; i < 4; i++) await started.route.submit(stored(`mix ${i}`));
    await waitFor('four receipts', () => started!.receipts.length === 4);
    const states = started.receipts.map((r) => r.state).sort();
    expect(new Set(states)).toEqual(new Set(['delivered', 'expired']));
  });

  it.skipIf(requirePeer('openssl', 'smpp/simulator (TLS)').reason !== undefined)(
    'TLS: the route binds over TLS trusting the given CA, and refuses an unknown one',
    async () => {
      certificates = await makeCertificates();
      smsc = await startSmsc({
        systemId: 'smskit',
        password: 'secret',
        tls: { key: certificates.server.key, cert: certificates.server.cert },
      });
      expect(smsc.url).toMatch(/^ssmpp:\/\//);
      started = startRoute(routeOptions(smsc.port, { tls: true, tlsCa: certificates.ca }));
      await started.waitUp();
      expect(await started.route.submit(stored('over TLS'))).toMatchObject({ outcome: 'accepted' });
      const untrusted = startRoute(
        routeOptions(smsc.port, { tls: true, reconnect: { initialMs: 5_000, maxMs: 5_000 } }),
      );
      await waitFor('the refusal', () => untrusted.logs.length === 1);
      expect(untrusted.logs[0]).toMatch(/cannot bind: .*(CERT|SIGNED|VERIFY)/i);
      await untrusted.route.close(500);
    },
  );

  it('answers a bind for the wrong system_id ESME_RINVSYSID and a submit before bind ESME_RINVBNDSTS', async () => {
    smsc = await startSmsc({ systemId: 'smskit', password: 'secret' });
    const session = smpp.connect({ host: '127.0.0.1', port: smsc.port });
    session.on('error', () => undefined);
    const answer = (command: string, fields: Record<string, unknown>): Promise<number> =>
      new Promise((resolve) => session.send(new smpp.PDU(command, fields), (pdu) => resolve(pdu.command_status)));
    await new Promise((resolve) => session.once('connect', resolve));
    expect(await answer('submit_sm', { destination_addr: '1', short_message: Buffer.from('x') })).toBe(
      smpp.errors.ESME_RINVBNDSTS,
    );
    expect(await answer('bind_transceiver', { system_id: 'other', password: 'secret' })).toBe(
      smpp.errors.ESME_RINVSYSID,
    );
    session.destroy();
    expect(smsc.stats.refusedBinds).toBe(1);
  });
});
