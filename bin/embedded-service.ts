/**
 * The embedded target (`smskit conformance` without `--target`): the built-in SMS service on an
 * ephemeral port, with a temporary database and one account created for the run, and inputs that
 * account accepts. Everything is removed again by `close()`.
 *
 * The account's password is random per run and its hash uses a cheap scrypt cost: the database
 * is thrown away with the run, and the run's time is spent on the wire, not on key stretching.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSmsServer } from '../service/server.js';
import type { ConformanceInputs } from './inputs.js';

export interface EmbeddedTarget {
  /** The endpoint URL, e.g. http://127.0.0.1:41234/serviceapi.asmx */
  readonly target: string;
  readonly inputs: ConformanceInputs;
  close(): Promise<void>;
}

export interface EmbeddedOptions {
  /** The WSDL text the service serves at ?wsdl. */
  readonly wsdl: string;
  /** The endpoint path (default: the WSDL address's path). */
  readonly path: string;
  /** Body limit of the embedded server (the runner's over-size cases use the same). */
  readonly maxBodyBytes?: number;
}

export const EMBEDDED_ACCOUNT = {
  email: 'conformance@example.invalid',
  keyword: 'CONFORM',
  to: '+15551234567',
  carrier: 'auto',
  port: '5000',
} as const;

export async function startEmbeddedService(options: EmbeddedOptions): Promise<EmbeddedTarget> {
  const dir = mkdtempSync(join(tmpdir(), 'smskit-conformance-db-'));
  const password = randomBytes(18).toString('base64url');
  let server;
  try {
    server = await startSmsServer({
      dbPath: join(dir, 'outbox.db'),
      durability: 'normal',
      scrypt: { logN: 10, r: 8, p: 1 },
      http: {
        wsdl: options.wsdl,
        logger: { error: () => {} },
        ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
      },
    });
    await server.app.accounts.add({ email: EMBEDDED_ACCOUNT.email, password, keywords: [EMBEDDED_ACCOUNT.keyword] });
  } catch (error) {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const running = server;
  const { email, keyword, to, carrier, port } = EMBEDDED_ACCOUNT;
  return {
    target: `${running.url}${options.path}`,
    inputs: { values: { keyword, email, password, to, carrier, port }, secrets: ['password'] },
    async close() {
      await running.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
