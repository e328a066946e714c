/**
 * The generated clients against genuine ASMX (test/peers/asmx, on Mono): every operation of both
 * peers over every binding ASMX offers for it, with the values ASMX answers (rich-checks.ts,
 * echo-checks.ts). Prints the operation × binding matrix (pass / FAIL / — not offered) once.
 * Skipped, with one line saying why, where Mono or ../shared/asmx-host is absent.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CodecError } from '../../runtime/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Protocol, ServiceDescriptor } from '../../runtime/index.js';
import { ServiceAPIClient, ServiceAPIDescriptor } from '../golden/generated/asmx-echo/service-api/index.js';
import { RichServiceClient, RichServiceDescriptor } from '../golden/generated/asmx-rich/rich-service/index.js';
import { startAsmxPeer, type AsmxPeer, type AsmxSite } from '../helpers/asmx-peer.js';
import { ALL, formatMatrix, offeredBindings, tableProblems, type Cell, type Check } from './binding-checks.js';
import { echoChecks } from './echo-checks.js';
import { FULL_ORDER, richChecks } from './rich-checks.js';
import { requirePeer } from '../helpers/peers.js';

const skipReason = requirePeer('asmx', 'peers/client-vs-asmx').reason;

interface Site<C extends { close(): Promise<void> }> {
  readonly site: AsmxSite;
  readonly descriptor: ServiceDescriptor;
  readonly checks: Readonly<Record<string, readonly Check<C>[]>>;
  readonly client: (url: string, binding: Protocol) => C;
}

const echo: Site<ServiceAPIClient> = {
  site: 'echo',
  descriptor: ServiceAPIDescriptor,
  checks: echoChecks,
  client: (url, binding) => new ServiceAPIClient({ url, binding }),
};
const rich: Site<RichServiceClient> = {
  site: 'rich',
  descriptor: RichServiceDescriptor,
  checks: richChecks,
  client: (url, binding) => new RichServiceClient({ url, binding }),
};

/** Rows "site/method", cells by binding; printed in afterAll. */
const matrix = new Map<string, Map<Protocol, Cell>>();
/** Both peers, started together (each start takes seconds). */
const peers = new Map<AsmxSite, AsmxPeer>();

function defineSite<C extends { close(): Promise<void> }>(s: Site<C>): void {
  describe(`${s.site} peer`, () => {
    const clients = new Map<Protocol, C>();
    beforeAll(() => {
      for (const binding of ALL) clients.set(binding, s.client(peers.get(s.site)!.url, binding));
    });
    afterAll(async () => {
      await Promise.all([...clients.values()].map((c) => c.close()));
    });

    it('has a check for every operation on every binding that carries it, and none elsewhere', () => {
      expect(tableProblems(s.descriptor, s.checks)).toEqual([]);
    });

    const offered = offeredBindings(s.descriptor);
    for (const [method, bindings] of offered) {
      const row = new Map<Protocol, Cell>(ALL.map((b) => [b, bindings.has(b) ? 'FAIL' : '—']));
      matrix.set(`${s.site}/${method}`, row);
      for (const binding of bindings) {
        const checks = (s.checks[method] ?? []).filter((c) => c.bindings.includes(binding));
        it(`${method} over ${binding}: ${checks.map((c) => c.name).join(', ')}`, async () => {
          for (const c of checks) await c.run(clients.get(binding)!, binding);
          row.set(binding, 'pass');
        });
      }
    }
  });
}

/** A server that only counts requests, to show a refused call sends nothing. */
async function countingServer(): Promise<{ url: string; count: () => number; close: () => Promise<void> }> {
  let requests = 0;
  const server = http.createServer((_req, res) => {
    requests++;
    res.writeHead(500).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/rich.asmx`,
    count: () => requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe.skipIf(skipReason !== undefined)('generated clients -> genuine ASMX', () => {
  beforeAll(async () => {
    await Promise.all((['echo', 'rich'] as const).map(async (site) => peers.set(site, await startAsmxPeer(site))));
  }, 120_000);
  afterAll(async () => {
    await Promise.all([...peers.values()].map((peer) => peer.stop()));
    const done = [...matrix.values()].some((row) => [...row.values()].some((cell) => cell === 'pass'));
    if (done) console.log(formatMatrix('Generated clients against genuine ASMX (operation × binding):', matrix));
  });

  defineSite(echo);
  defineSite(rich);

  it('an operation ASMX leaves out of HTTP GET is refused before anything is sent, naming operation and binding', async () => {
    expect(offeredBindings(RichServiceDescriptor).get('EchoOrder')?.has('http-get')).toBe(false);
    const server = await countingServer();
    const client = new RichServiceClient({ url: server.url, binding: 'http-get' });
    try {
      const error = await client.EchoOrder({ order: FULL_ORDER }).then(
        () => undefined,
        (err: unknown) => err as Error,
      );
      expect(error).toBeInstanceOf(CodecError);
      expect(error?.message).toBe('EchoOrder: RichService offers EchoOrder on soap11, soap12, not on http-get');
      expect(server.count()).toBe(0);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
