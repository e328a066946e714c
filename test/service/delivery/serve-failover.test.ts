/**
 * The new route settings as users run them: `smskit serve --routes` with a failover route whose
 * primary is down (nothing listens) and whose backup keeps two binds to the simulator, receipts
 * written in decimal for hex ids. A message sent over HTTP is delivered through the backup;
 * /healthz shows the route degraded with each member; /metrics has the member gauges and the
 * backup's two binds; `smskit outbox --id --json` shows the SMSC ids as an array.
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startSmsc } from '../../../service/delivery/simulator/index.js';
import { addAccount, runCliAsync, startServe, tempDir } from '../../../tools/serve-process.js';
import { waitFor } from '../../helpers/wait-for.js';

const dir = tempDir('serve-failover');
afterAll(() => dir.remove());

/** A port nothing listens on: taken, then given back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

it('delivers through the backup of a failover route, and reports members and binds', async () => {
  const smsc = await startSmsc({ systemId: 'smskit', password: 'secret12', ids: 'hex', receiptIds: 'decimal' });
  const routes = join(dir.path, 'routes.yaml');
  writeFileSync(
    routes,
    `routes:
  primary: { type: smpp, host: 127.0.0.1, port: ${await closedPort()}, systemId: smskit, passwordEnv: FAILOVER_PW }
  backup:
    type: smpp
    host: 127.0.0.1
    port: ${smsc.port}
    systemId: smskit
    passwordEnv: FAILOVER_PW
    binds: 2
    receiptIds: hex-to-decimal
  pair: { failover: [primary, backup] }
default: pair
`,
  );
  const db = join(dir.path, 'service.db');
  await addAccount(db, { email: 'alice@example.com', keywords: ['ACME'], password: 'correct horse battery' });
  process.env.FAILOVER_PW = 'secret12';
  const server = await startServe({ db, args: ['--routes', routes, '--metrics-port', '0'] });
  delete process.env.FAILOVER_PW;
  try {
    const metricsUrl = /metrics: {3}(http:\/\/\S+)\/metrics/.exec(server.output().stdout)?.[1];
    expect(metricsUrl).toBeDefined();
    const form = new URLSearchParams({
      keyword: 'ACME',
      emailAddress: 'alice@example.com',
      password: 'correct horse battery',
      smsto: '+14155550123',
      carrierCode: 'att',
      smsmsg: 'through the backup',
    });
    const body = await (await fetch(`${server.url}/SMSSend`, { method: 'POST', body: form })).text();
    const id = /(SMS-[0-9A-Z]{26})</.exec(body)?.[1] as string;
    expect(id, body).toBeDefined();
    let shown: { message: { state: string; smscIds: string[]; route: string } } | undefined;
    await waitFor('delivered', async () => {
      const result = await runCliAsync(['outbox', '--db', db, '--id', id, '--json']);
      shown = JSON.parse(result.stdout);
      return shown?.message.state === 'delivered';
    });
    expect(shown?.message.route).toBe('pair');
    expect(shown?.message.smscIds).toEqual([smsc.received[0]?.messageIds[0]]);
    expect(shown?.message.smscIds[0]).toMatch(/[a-f]/); // hex, receipted in decimal, matched
    const health = (await (await fetch(`${metricsUrl}/healthz`)).json()) as {
      status: string;
      routes: Array<{ members: Array<{ name: string; up: boolean }> }>;
    };
    expect(health.status).toBe('degraded');
    expect(health.routes[0]?.members.map((m: { name: string; up: boolean }) => [m.name, m.up])).toEqual([
      ['primary', false],
      ['backup', true],
    ]);
    const metrics = await (await fetch(`${metricsUrl}/metrics`)).text();
    expect(metrics).toContain('smskit_route_member_up{route="pair",member="primary"} 0');
    expect(metrics).toContain('smskit_route_member_up{route="pair",member="backup"} 1');
    for (const bind of ['1', '2']) expect(metrics).toContain(`smskit_route_bind_up{route="backup",bind="${bind}"} 1`);
    expect(metrics).toMatch(/smskit_outbox_messages\{state="delivered"\} 1/);
  } finally {
    await server.stop();
    await smsc.close();
  }
});
