/**
 * wsdl/statusapi.wsdl is what genuine ASMX publishes for GetMessageStatus (test/peers/asmx/status,
 * a C# [WebMethod] returning a class, run on Mono): the same text apart from three things smskit
 * takes from wsdl/serviceapi.wsdl instead, the order of the namespace declarations, the port
 * addresses, and the service description written once (Mono repeats it in wsdl:service). And
 * smskit answers with the elements ASMX answers with: the same members, in the same order, in the
 * same namespace, under GetMessageStatusResult over SOAP and the MessageStatus root over HTTP.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmsServer, type SmsServer } from '../../service/server.js';
import { type AsmxPeer, startAsmxPeer } from '../helpers/asmx-peer.js';
import { repoRoot } from '../helpers/cli.js';
import { requirePeer } from '../helpers/peers.js';
import { scratchDir } from '../helpers/scratch.js';

const peer = requirePeer('asmx', 'peers/status-asmx');
const COMMITTED = readFileSync(join(repoRoot, 'wsdl/statusapi.wsdl'), 'utf8');
const ACCOUNT = { emailAddress: 'asmx@example.com', password: 'asmx compare pw' };

/** The WSDL with its root's namespace declarations sorted and its addresses made one. */
function normalized(wsdl: string, origin: string): string {
  const lines = wsdl
    .trimEnd()
    .split(`${origin}/`)
    .join('http://localhost:8080/')
    .split('\n')
    .filter((line, i, all) => !(line.includes('<wsdl:documentation') && all[i - 1]?.includes('<wsdl:service ')));
  lines[1] = lines[1]!.replace(/^(<wsdl:definitions )(.*)(>)$/, (_all, open: string, attrs: string, close: string) => {
    return `${open}${attrs
      .split(/ (?=[\w:]+=")/)
      .sort()
      .join(' ')}${close}`;
  });
  return lines.join('\n');
}

/** The element names under `parent` in document order (the members an answer carries). */
function members(xml: string, parent: string): string[] {
  const inner = new RegExp(`<${parent}[^>]*>([\\s\\S]*)</${parent}>`).exec(xml)?.[1] ?? '';
  return [...inner.matchAll(/<([A-Za-z]+)>/g)].map((m) => m[1]!);
}

describe.skipIf(peer.skip)('the status contract against genuine ASMX', () => {
  let asmx: AsmxPeer;
  let smskit: SmsServer;
  const dir = scratchDir('smskit-status-asmx-');
  let id: string;
  beforeAll(async () => {
    asmx = await startAsmxPeer('status');
    smskit = await startSmsServer({
      dbPath: join(dir, 'db.sqlite'),
      scrypt: { logN: 10, r: 8, p: 1 },
      statusWsdl: COMMITTED,
    });
    await smskit.app.accounts.add({ email: ACCOUNT.emailAddress, password: ACCOUNT.password, keywords: ['ACME'] });
    id = await smskit.app.sms.send({
      operation: 'SMSSend',
      input: { keyword: 'ACME', ...ACCOUNT, smsto: '+14155550123', carrierCode: 'att', smsmsg: 'hi' },
    });
  }, 120_000);
  afterAll(async () => {
    await asmx?.stop();
    await smskit?.close();
  });

  it('publishes the committed WSDL', async () => {
    const served = await (await fetch(`${asmx.url}?WSDL`)).text();
    expect(normalized(served, asmx.origin)).toBe(normalized(COMMITTED, 'http://localhost:8080'));
  });

  it('answers with the same elements over SOAP 1.1 and HTTP GET', async () => {
    const envelope = (messageId: string) =>
      `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><GetMessageStatus xmlns="http://smskit.dev/statusapi/"><emailAddress>${ACCOUNT.emailAddress}</emailAddress><password>${ACCOUNT.password}</password><messageId>${messageId}</messageId></GetMessageStatus></soap:Body></soap:Envelope>`;
    const soap = async (url: string, messageId: string) =>
      (
        await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'text/xml; charset=utf-8',
            soapaction: '"http://smskit.dev/statusapi/GetMessageStatus"',
          },
          body: envelope(messageId),
        })
      ).text();
    const get = async (url: string, messageId: string) =>
      (await fetch(`${url}/GetMessageStatus?${new URLSearchParams({ ...ACCOUNT, messageId })}`)).text();
    const statusUrl = `${smskit.url}/statusapi.asmx`;
    // The peer fills State, Updated and Attempts for any id (no error): what a queued message has too.
    expect(members(await soap(statusUrl, id), 'GetMessageStatusResult')).toEqual(
      members(await soap(asmx.url, id), 'GetMessageStatusResult'),
    );
    const ours = await get(statusUrl, id);
    const theirs = await get(asmx.url, id);
    expect(members(ours, 'MessageStatus')).toEqual(['State', 'Updated', 'Attempts']);
    expect(members(ours, 'MessageStatus')).toEqual(members(theirs, 'MessageStatus'));
    for (const answer of [ours, theirs])
      expect(answer).toMatch(/<MessageStatus [^>]*xmlns="http:\/\/smskit\.dev\/statusapi\/"/);
  });
});
