/**
 * Clients we did not write reading a message's state from `smskit serve` at /statusapi.asmx,
 * each over every binding it supports, from the WSDL as served (?wsdl) or as committed:
 * - Python zeep, bound to each of the four ports: its own message's state as the answer, and
 *   another account's id refused (a zeep Fault naming UnknownMessage on every port: on the HTTP
 *   ports zeep makes the 500 answer's text its message);
 * - Mono's `wsdl`-generated .NET proxies (SOAP 1.1, SOAP 1.2, HTTP GET, HTTP POST): the state,
 *   the UTC time and the attempts as the .NET serializer reads them; another account's id refused.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceAPIClient } from '../../generated/service-api/client.js';
import { addAccount, type ServeProcess, startServe, tempDir } from '../../tools/serve-process.js';
import { repoRoot } from '../helpers/cli.js';
import {
  buildClient,
  CLIENT_DEADLINE_MS,
  CLIENT_TEST_TIMEOUT_MS,
  failureReport,
  PROTOCOLS,
  run,
} from '../helpers/dotnet-proxy.js';
import { pythonWith, requirePeer } from '../helpers/peers.js';

const ZEEP = requirePeer('zeep', 'peers/status-clients (zeep)');
const MONO = requirePeer('mono-wsdl', 'peers/status-clients (.NET proxies)');
const ZEEP_SCRIPT = fileURLToPath(new URL('./zeep_status_client.py', import.meta.url));
const ALICE = { email: 'alice@example.com', password: 'alice status password' };
const BOB = { email: 'bob@example.com', password: 'bob status password' };

const dir = tempDir('status-clients');
const db = join(dir.path, 'sms.sqlite');
let serve: ServeProcess;
let statusUrl: string;
let aliceId: string;
let bobId: string;

async function send(account: typeof ALICE): Promise<string> {
  const client = new ServiceAPIClient({ url: serve.url, binding: 'soap11' });
  try {
    const { SMSSendResult } = await client.SMSSend({
      keyword: 'ACME',
      emailAddress: account.email,
      password: account.password,
      smsto: '+14155550123',
      carrierCode: 'att',
      smsmsg: 'status please',
    });
    return SMSSendResult!;
  } finally {
    await client.close();
  }
}

beforeAll(async () => {
  if (ZEEP.skip && MONO.skip) return;
  for (const account of [ALICE, BOB]) await addAccount(db, { ...account, keywords: ['ACME'] });
  serve = await startServe({ db });
  statusUrl = serve.url.replace(/\/serviceapi\.asmx$/, '/statusapi.asmx');
  aliceId = await send(ALICE);
  bobId = await send(BOB);
}, 60_000);
afterAll(async () => {
  await serve?.stop();
  dir.remove();
});

/** Alice's message as the service answers it: queued, never attempted, updated when accepted. */
async function aliceState(): Promise<{ state: string; updated: string; attempts: number }> {
  const response = await fetch(
    `${statusUrl}/GetMessageStatus?${new URLSearchParams({ emailAddress: ALICE.email, password: ALICE.password, messageId: aliceId })}`,
  );
  const xml = await response.text();
  const member = (name: string): string => new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)![1]!;
  return { state: member('State'), updated: member('Updated'), attempts: Number(member('Attempts')) };
}

describe.skipIf(ZEEP.skip)('zeep reading GetMessageStatus', () => {
  let results: Record<string, { ok?: Record<string, unknown>; fault?: string; code?: string; error?: string }>;
  beforeAll(async () => {
    const python = pythonWith('zeep');
    if (python === undefined) throw new Error('no python3 can import zeep: install python3-zeep');
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(
        python,
        [ZEEP_SCRIPT, `${statusUrl}?wsdl`, ALICE.email, aliceId, bobId],
        { timeout: 60_000, env: { ...process.env, PYTHONIOENCODING: 'utf-8', SMSKIT_PASSWORD: ALICE.password } },
        (err, out, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(out)),
      ),
    );
    results = JSON.parse(stdout) as typeof results;
  }, 90_000);

  it.each(['StatusAPISoap', 'StatusAPISoap12', 'StatusAPIHttpGet', 'StatusAPIHttpPost'])(
    '%s: reads its own message and is refused another account’s',
    async (port) => {
      const want = await aliceState();
      const own = results[`${port}/own`]!;
      expect(own.error ?? own.fault).toBeUndefined();
      expect(own.ok).toMatchObject({ State: want.state, Attempts: want.attempts, ErrorCode: null, ErrorText: null });
      // zeep reads xs:dateTime into a datetime with its zone: the same instant as sent.
      expect(Date.parse(String(own.ok!.Updated))).toBe(Date.parse(want.updated));
      const other = results[`${port}/other`]!;
      expect(other.ok).toBeUndefined();
      expect(other.error).toBeUndefined();
      expect(other.fault).toMatch(/^UnknownMessage: /);
      if (port.includes('Soap')) expect(other.code).toBe(port.endsWith('12') ? 'soap:Sender' : 'soap:Client');
    },
  );
});

describe.skipIf(MONO.skip)('.NET proxies generated by Mono’s wsdl reading GetMessageStatus', () => {
  beforeAll(async () => {
    await buildClient(dir.path, join(repoRoot, 'wsdl/statusapi.wsdl'), 'status', 'StatusClient.cs', 'StatusClient.exe');
  }, 240_000);

  it.each(PROTOCOLS.map(([ns]) => ns))(
    '%s: reads its own message and is refused another account’s',
    async (ns) => {
      const env = { SMSKIT_PASSWORD: ALICE.password };
      const own = await run(
        'mono',
        ['StatusClient.exe', ns, statusUrl, ALICE.email, aliceId],
        dir.path,
        env,
        CLIENT_DEADLINE_MS,
      );
      expect(own.code, failureReport(own)).toBe(0);
      const [state, updated, attempts, errorCode, errorText] = own.stdout.trim().split('|');
      const want = await aliceState();
      expect({ state, attempts: Number(attempts), errorCode, errorText }).toEqual({
        state: want.state,
        attempts: want.attempts,
        errorCode: '(null)',
        errorText: '(null)',
      });
      expect(Date.parse(updated!)).toBe(Date.parse(want.updated));
      const other = await run(
        'mono',
        ['StatusClient.exe', ns, statusUrl, ALICE.email, bobId],
        dir.path,
        env,
        CLIENT_DEADLINE_MS,
      );
      expect(other.code, failureReport(other)).toBe(1);
      expect(other.stderr).toContain('UnknownMessage');
    },
    CLIENT_TEST_TIMEOUT_MS * 2,
  );
});
