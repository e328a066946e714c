/**
 * What a user does, with an SMSC smskit did not write: `smskit serve --routes` bound to a Net::SMPP
 * SMSC (Debian's libnet-smpp-perl), a message sent with `smskit send`, and `smskit outbox --json`
 * until it says `delivered`. The SMSC's own record shows what arrived: the UCS-2 text decoded from
 * its bytes, the destination from the stored number, and the receipt it sent back.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, runCliAsync, startServe, tempDir, type ServeProcess } from '../../tools/serve-process.js';
import { startPerlSmsc, type PerlSmsc } from '../service/delivery/smpp/helpers.js';
import { waitFor } from '../helpers/wait-for.js';
import { requirePeer } from '../helpers/peers.js';

const PASSWORD = 'cli-delivery-password';
const dir = tempDir('delivery-cli');
let smsc: PerlSmsc | undefined;
let server: ServeProcess | undefined;
const db = join(dir.path, 'service.db');

const perl = requirePeer('net-smpp', 'e2e/delivery-cli');

beforeAll(async () => {
  if (perl.skip) return;
  smsc = await startPerlSmsc();
  const routes = join(dir.path, 'routes.yaml');
  writeFileSync(
    routes,
    `routes:\n  perl:\n    type: smpp\n    host: 127.0.0.1\n    port: ${smsc.port}\n    systemId: smskit\n    passwordEnv: CLI_SMPP_PASSWORD\ndefault: perl\n`,
  );
  await addAccount(db, { email: 'you@example.com', keywords: ['ACME'], password: PASSWORD });
  process.env.CLI_SMPP_PASSWORD = 'secret';
  server = await startServe({ db, args: ['--routes', routes] });
  delete process.env.CLI_SMPP_PASSWORD;
});

afterAll(async () => {
  await server?.stop();
  smsc?.close();
  dir.remove();
});

describe.skipIf(perl.skip)('smskit send → Net::SMPP SMSC → smskit outbox says delivered', () => {
  it('reaches the SMSC and comes back delivered', async () => {
    const text = 'Grüße 你好 📱 [€]';
    const sent = await runCliAsync(
      [
        'send',
        '--url',
        server?.url ?? '',
        '--binding',
        'soap12',
        '--keyword',
        'ACME',
        '--email',
        'you@example.com',
      ].concat(['--to', '+44 7700 900123', '--carrier', 'auto', '--message', text]),
      { env: { SMSKIT_PASSWORD: PASSWORD } },
    );
    expect(sent.status, sent.stderr).toBe(0);
    const id = sent.stdout.trim();
    let entry: Record<string, unknown> | undefined;
    await waitFor(
      'smskit outbox showing delivered',
      async () => {
        const outbox = await runCliAsync(['outbox', '--db', db, '--json']);
        entry = (JSON.parse(outbox.stdout) as Array<Record<string, unknown>>).find((e) => e.id === id);
        return entry?.state === 'delivered';
      },
      { pollMs: 200, state: () => JSON.stringify(entry) },
    );
    const submit = smsc?.lines().find((line) => line.pdu === 'submit_sm');
    expect(submit).toMatchObject({
      destination_addr: '447700900123',
      dest_addr_ton: 1,
      dest_addr_npi: 1,
      data_coding: 8,
    });
    expect(Buffer.from(String(submit?.short_message), 'hex').swap16().toString('utf16le')).toBe(text);
    expect(smsc?.lines().some((line) => line.pdu === 'deliver_sm_resp' && line.status === 0)).toBe(true);
  });
});
