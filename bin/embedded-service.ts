/**
 * The embedded target of `smskit conformance` without `--target`: the built-in SMS service on
 * an ephemeral port, with a temporary database and one account created for the run, and inputs
 * that account accepts. Everything is removed again by `close()`. The CLI hands it to the
 * conformance command (bin/conformance/execute.ts, `embeddedTarget`), which knows no service.
 *
 * The account's password is random per run and its hash uses a cheap scrypt cost: the database
 * is thrown away with the run, and the run's time is spent on the wire, not on key stretching.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EmbeddedContract, EmbeddedTarget } from './conformance/execute.js';
import { type SmsServer, startSmsServer } from '../service/server.js';

const EMBEDDED_ACCOUNT = {
  email: 'conformance@example.invalid',
  keyword: 'CONFORM',
  to: '+15551234567',
  carrier: 'auto',
  port: '5000',
} as const;

export async function startEmbeddedService(contract: EmbeddedContract): Promise<EmbeddedTarget> {
  const dir = mkdtempSync(join(tmpdir(), 'smskit-conformance-db-'));
  const password = randomBytes(18).toString('base64url');
  let server: SmsServer | undefined;
  try {
    server = await startSmsServer({
      dbPath: join(dir, 'outbox.db'),
      durability: 'normal',
      scrypt: { logN: 10, r: 8, p: 1 },
      http: { wsdl: contract.wsdlText, logger: { error: () => {} }, maxBodyBytes: contract.maxBodyBytes },
    });
    await server.app.accounts.add({ email: EMBEDDED_ACCOUNT.email, password, keywords: [EMBEDDED_ACCOUNT.keyword] });
  } catch (error) {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const running = server;
  const { email, keyword, to, carrier, port } = EMBEDDED_ACCOUNT;
  const url = `${running.url}${contract.path}`;
  return {
    url,
    describe: `the built-in SMS service at ${url}, with a throw-away database and account (gone when the run ends)`,
    inputs: { values: { keyword, email, password, to, carrier, port }, secrets: ['password'] },
    async close() {
      await running.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
