/**
 * `smskit serve` as the status tests need it: two accounts, Alice and Bob, each having sent one
 * message, so a test reads an account's own message and sees the other's refused. Registers the
 * file's set-up and clean-up; the fields are filled once the set-up ran.
 */
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { ServiceAPIClient } from '../../generated/service-api/client.js';
import { addAccount, type ServeProcess, startServe, tempDir } from '../../tools/serve-process.js';

export const ALICE = { email: 'alice@example.com', password: 'alice status password' };
export const BOB = { email: 'bob@example.com', password: 'bob status password' };

export interface StatusService {
  /** The file's temporary folder (the database is in it; a test may build there). */
  readonly dir: string;
  serve: ServeProcess;
  /** The status service's URL (…/statusapi.asmx). */
  statusUrl: string;
  aliceId: string;
  bobId: string;
}

async function send(url: string, account: typeof ALICE): Promise<string> {
  const client = new ServiceAPIClient({ url, binding: 'soap11' });
  try {
    const { SMSSendResult } = await client.SMSSend({
      keyword: 'ACME',
      emailAddress: account.email,
      password: account.password,
      smsto: '+14155550123',
      carrierCode: 'att',
      smsmsg: 'where is it?',
    });
    return SMSSendResult!;
  } finally {
    await client.close();
  }
}

/** `skip`: the file's tests all skip, so nothing is started. */
export function useStatusService(name: string, skip = false): StatusService {
  const dir = tempDir(name);
  const service = { dir: dir.path } as StatusService;
  beforeAll(async () => {
    if (skip) return;
    const db = join(dir.path, 'sms.sqlite');
    for (const account of [ALICE, BOB]) await addAccount(db, { ...account, keywords: ['ACME'] });
    service.serve = await startServe({ db });
    service.statusUrl = service.serve.url.replace(/\/serviceapi\.asmx$/, '/statusapi.asmx');
    service.aliceId = await send(service.serve.url, ALICE);
    service.bobId = await send(service.serve.url, BOB);
  }, 60_000);
  afterAll(async () => {
    await service.serve?.stop();
    dir.remove();
  });
  return service;
}
