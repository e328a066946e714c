/**
 * The genuine ASMX peers (test/peers/asmx, run on Mono) still publish the committed WSDL fixtures
 * (test/fixtures/asmx/*.wsdl). A change to the C# services makes a fixture stale and fails here;
 * refresh the fixture and the captures on purpose (test/fixtures/asmx/README.md).
 * Skipped, with one line saying why, where Mono or ../shared/asmx-host is absent.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAsmxPeer, toFixtureAddresses, type AsmxPeer, type AsmxSite } from '../helpers/asmx-peer.js';
import { requirePeer } from '../helpers/peers.js';

const skipReason = requirePeer('asmx', 'peers/asmx-peer').reason;

const SITES: readonly AsmxSite[] = ['echo', 'rich'];

describe.skipIf(skipReason !== undefined).each(SITES)('ASMX peer %s', (site) => {
  const fixturePath = `test/fixtures/asmx/${site}.wsdl`;
  let peer: AsmxPeer | undefined;

  beforeAll(async () => {
    peer = await startAsmxPeer(site);
  }, 120_000);
  afterAll(async () => {
    await peer?.stop();
  });

  it(`serves ${fixturePath}`, async () => {
    const response = await fetch(`${peer!.url}?WSDL`);
    expect(response.status).toBe(200);
    const served = toFixtureAddresses(await response.text(), peer!.origin);
    const committed = readFileSync(new URL(`../fixtures/asmx/${site}.wsdl`, import.meta.url), 'utf8');
    expect(served, `the ${site} peer's WSDL differs from ${fixturePath}: refresh it if the C# changed on purpose`).toBe(
      committed,
    );
  });

  it('publishes the four bindings', async () => {
    const wsdl = readFileSync(new URL(`../fixtures/asmx/${site}.wsdl`, import.meta.url), 'utf8');
    const bindings = [...wsdl.matchAll(/<wsdl:binding name="([^"]+)"/g)].map((m) => m[1]);
    const service = site === 'echo' ? 'ServiceAPI' : 'RichService';
    expect(bindings).toEqual([`${service}Soap`, `${service}Soap12`, `${service}HttpGet`, `${service}HttpPost`]);
  });

  it('stop() ends the peer', async () => {
    await peer!.stop();
    await expect(fetch(`${peer!.url}?WSDL`)).rejects.toThrow();
  });
});
