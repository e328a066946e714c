/**
 * Where a verdict says genuine ASMX tolerates what smskit does not, genuine ASMX does. The ASMX
 * echo peer (test/peers/asmx/echo, on Mono) is the OLD server of the `multi--asmx-echo` pair
 * (its WSDL is that pair's old.wsdl), so clients built from the pair's NEW WSDL call it on every
 * binding: SMSSend now carries an optional `priority`, which the smskit runtime of an old server
 * would reject as an unknown element, and ASMX ignores, as the verdict says.
 * Skips with one line when Mono or the ASMX host is absent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWsdl } from '../../../generator/index.js';
import { diffSides } from '../../../contract/diff/compare.js';
import { sideFromModel } from '../../../contract/diff/source.js';
import type { DiffReport } from '../../../contract/diff/types.js';
import { ServiceClient } from '../../../runtime/index.js';
import { startAsmxPeer, type AsmxPeer } from '../../helpers/asmx-peer.js';
import { Sampler } from './samples.js';
import { requirePeer } from '../../helpers/peers.js';

const SKIP = requirePeer('asmx', 'contract/diff/asmx').reason;
const PAIR = 'test/fixtures/diff/multi--asmx-echo';

describe.skipIf(SKIP !== undefined)('verdicts against genuine ASMX', () => {
  let peer: AsmxPeer;
  let report: DiffReport;
  const newSide = SKIP === undefined ? sideFromModel(`${PAIR}/new.wsdl`, parseWsdl(`${PAIR}/new.wsdl`)) : undefined;

  beforeAll(async () => {
    report = diffSides(sideFromModel(`${PAIR}/old.wsdl`, parseWsdl(`${PAIR}/old.wsdl`)), newSide!);
    peer = await startAsmxPeer('echo');
  }, 180_000);

  afterAll(async () => {
    await peer?.stop();
  });

  it.each(['soap11', 'soap12', 'http-get', 'http-post'] as const)(
    'a new client calls the old ASMX server on %s as the verdict says ASMX answers',
    async (protocol) => {
      const d = newSide!.services[0]!;
      const added = report.changes.find((c) => c.rule === 'member-added')!;
      const soap = protocol === 'soap11' || protocol === 'soap12';
      // smskit's own old server would refuse the unknown <priority> on SOAP, and the reason says ASMX ignores it.
      expect(added.breaksServers.includes(protocol)).toBe(soap);
      if (soap)
        expect(added.why.join('\n')).toContain(
          `fails on soap11, soap12: the old server rejects <priority> as an unknown element whenever a new client writes it; genuine ASMX ignores unknown elements`,
        );
      const client = new ServiceClient(d, { url: peer.url, binding: protocol, timeoutMs: 20_000 });
      try {
        const sampler = new Sampler(d, 'full', { values: new Set(), types: new Set() });
        const input = {
          keyword: 'kw',
          emailAddress: 'user@example.com',
          password: 'p4ss',
          smsto: '+15551234567',
          carrierCode: 'ATT',
          smsmsg: 'hi',
          priority: sampler.primitive('string', undefined),
        };
        const output = await client.call<unknown, { SMSSendResult?: string }>('SMSSend', input);
        expect(output.SMSSendResult).toBe('SMSSend|kw|user@example.com|+15551234567|ATT|hi');
      } finally {
        await client.close();
      }
    },
    60_000,
  );
});
