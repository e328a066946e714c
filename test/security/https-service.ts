/**
 * The SMS service on the wire runtime over HTTPS (or HTTP) in this process, for the security
 * tests: a temporary database with one account, `listen` with the TLS options under test, and a
 * count of the requests that reached the HTTP layer (so a test can show that a refused
 * connection handled nothing).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServiceAPIListener } from '../../generated/service-api/server.js';
import { listen, type ListenOptions } from '../../runtime/index.js';
import { openSmsApp, type SmsApp } from '../../service/app.js';

export const ACCOUNT = { email: 'tls@example.com', password: 'tls test password 9', keyword: 'ACME' } as const;

export const GOOD_MESSAGE = {
  keyword: ACCOUNT.keyword,
  emailAddress: ACCOUNT.email,
  password: ACCOUNT.password,
  smsto: '+14155550123',
  carrierCode: 'att',
  smsmsg: 'over TLS',
} as const;

export interface TestService {
  /** e.g. `https://127.0.0.1:41234/serviceapi.asmx` */
  readonly endpoint: string;
  readonly origin: string;
  readonly app: SmsApp;
  /** Requests that reached the HTTP server (after any TLS handshake). */
  handled(): number;
  /** Headers of every request that reached the HTTP server, in order. */
  readonly seenHeaders: http.IncomingHttpHeaders[];
  close(): Promise<void>;
}

export async function startTestService(tls: ListenOptions['tls']): Promise<TestService> {
  const dir = mkdtempSync(join(tmpdir(), 'smskit-security-'));
  const app = await openSmsApp({ dbPath: join(dir, 'service.sqlite'), scrypt: { logN: 10, r: 8, p: 1 } });
  await app.accounts.add({ email: ACCOUNT.email, password: ACCOUNT.password, keywords: [ACCOUNT.keyword] });
  // Served at ?wsdl, so a client can fetch the contract over the same TLS it calls through.
  const wsdl = readFileSync(new URL('../../wsdl/serviceapi.wsdl', import.meta.url), 'utf8');
  const listening = await listen(createServiceAPIListener(app.handlers, { wsdl }), tls === undefined ? {} : { tls });
  const seenHeaders: http.IncomingHttpHeaders[] = [];
  listening.server.on('request', (req: http.IncomingMessage) => seenHeaders.push(req.headers));
  return {
    endpoint: `${listening.url}/serviceapi.asmx`,
    origin: listening.url,
    app,
    handled: () => seenHeaders.length,
    seenHeaders,
    close: async () => {
      await listening.close();
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
