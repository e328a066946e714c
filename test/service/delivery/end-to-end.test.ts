/**
 * The service delivers: messages accepted over the wire go out through a routes file's SMPP route
 * to the SMSC simulator and come back `delivered` with their receipts. What the SMSC received is
 * checked exactly: text (GSM 7-bit with its extension characters, UCS-2 with emoji), part count
 * equal to the stored segment count, destination from the stored E.164 number, source address.
 * The route reaches the SMSC through a relay that can hold what the service sends, so a test can
 * show the client had its answer while the SMSC had seen nothing.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmsServer, type SmsServer } from '../../../service/server.js';
import { startSmsc, type RunningSmsc } from '../../../service/delivery/simulator/index.js';
import { FINAL_STATES, type StoredMessage } from '../../../service/store/index.js';
import { waitFor } from '../../helpers/wait-for.js';

const PASSWORD = 'correct horse battery';
const SMPP_PASSWORD = 'secret12';
const dir = mkdtempSync(join(tmpdir(), 'smskit-delivery-'));
let smsc: RunningSmsc;
let gate: Gate;
let server: SmsServer;
const logged: string[] = [];

interface Gate {
  readonly port: number;
  /** Octets from the service waiting in the relay. */
  held(): number;
  hold(): void;
  release(): void;
  close(): Promise<void>;
}

/** A TCP relay to `target` that passes the SMSC's answers through and can hold the service's PDUs. */
async function startGate(target: number): Promise<Gate> {
  let holding = false;
  const queues = new Map<Socket, Buffer[]>();
  const upstreams = new Map<Socket, Socket>();
  const relay: Server = createServer((client) => {
    const upstream = connect(target, '127.0.0.1');
    queues.set(client, []);
    upstreams.set(client, upstream);
    upstream.on('data', (chunk) => client.write(chunk));
    client.on('data', (chunk) => (holding ? queues.get(client)?.push(chunk) : upstream.write(chunk)));
    const end = (): void => {
      client.destroy();
      upstream.destroy();
      queues.delete(client);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const address = relay.address();
  if (address === null || typeof address === 'string') throw new Error('the relay has no port');
  return {
    port: address.port,
    held: () => [...queues.values()].flat().reduce((sum, chunk) => sum + chunk.length, 0),
    hold: () => {
      holding = true;
    },
    release: () => {
      holding = false;
      for (const [client, queue] of queues) for (const chunk of queue.splice(0)) upstreams.get(client)?.write(chunk);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of queues.keys()) client.destroy();
        relay.close(() => resolve());
      }),
  };
}

beforeAll(async () => {
  smsc = await startSmsc({ systemId: 'smskit', password: SMPP_PASSWORD });
  gate = await startGate(smsc.port);
  const routes = join(dir, 'routes.yaml');
  writeFileSync(
    routes,
    [
      'routes:',
      '  local:',
      '    type: smpp',
      '    host: 127.0.0.1',
      `    port: ${gate.port}`,
      '    systemId: smskit',
      '    passwordEnv: TEST_SMPP_PASSWORD',
      '    source: { address: ACME, ton: 5, npi: 0 }',
      'default: local',
      '',
    ].join('\n'),
  );
  process.env.TEST_SMPP_PASSWORD = SMPP_PASSWORD;
  server = await startSmsServer({
    dbPath: join(dir, 'service.db'),
    routesFile: routes,
    scrypt: { logN: 10, r: 8, p: 1 },
    deliveryTiming: { pollMs: 50 },
    log: (line) => logged.push(line),
  });
  await server.app.accounts.add({ email: 'alice@example.com', password: PASSWORD, keywords: ['ACME'] });
});

afterAll(async () => {
  await server?.close();
  await gate?.close();
  await smsc?.close();
  delete process.env.TEST_SMPP_PASSWORD;
  rmSync(dir, { recursive: true, force: true });
});

async function send(smsmsg: string, smsto = '+14155550123', carrierCode = 'att'): Promise<string> {
  const form = new URLSearchParams({
    keyword: 'ACME',
    emailAddress: 'alice@example.com',
    password: PASSWORD,
    smsto,
    carrierCode,
    smsmsg,
  });
  const response = await fetch(`${server.url}/serviceapi.asmx/SMSSend`, { method: 'POST', body: form });
  const body = await response.text();
  expect(response.status, body).toBe(200);
  const id = /(SMS-[0-9A-Z]{26})</.exec(body)?.[1];
  if (id === undefined) throw new Error(`no id in ${body}`);
  return id;
}

async function finalState(id: string): Promise<StoredMessage> {
  let message: StoredMessage | undefined;
  await waitFor(
    `${id} in a final state`,
    async () => {
      message = await server.app.store.getMessage(id);
      return message !== undefined && FINAL_STATES.has(message.state);
    },
    { state: () => `${message?.state}; log: ${logged.join(' | ')}` },
  );
  if (message === undefined) throw new Error(`${id} not found`);
  return message;
}

describe('a message sent over the wire reaches the SMSC and comes back delivered', () => {
  const texts = {
    gsm: 'Price: 10€ [a] ~b^ {c} \\d| end',
    ucs2: 'Grüße 你好 📱',
    longGsm: 'x'.repeat(300),
    longUcs2: '📱'.repeat(40),
  };

  it.each(Object.entries(texts))('%s', async (_name, text) => {
    const id = await send(text, '+447700900123');
    const message = await finalState(id);
    expect(message).toMatchObject({ state: 'delivered', route: 'local', attempts: 1, possibleDuplicate: false });
    expect(message.smscId).toMatch(/\S/);
    const received = smsc.received.find((m) => m.messageIds.includes(message.smscId ?? ''));
    expect(received).toBeDefined();
    expect(received?.text).toBe(text);
    expect(received?.parts).toBe(message.segments);
    expect(received?.encoding).toBe(message.encoding);
    expect(received?.destination).toMatchObject({ address: '447700900123', ton: 1, npi: 1 });
    expect(received?.source).toMatchObject({ address: 'ACME', ton: 5, npi: 0 });
    const history = await server.app.store.history(id);
    expect(history.map((event) => event.state)).toEqual(['queued', 'sending', 'accepted', 'delivered']);
  });

  it('answers the client before the SMSC has seen the submit', async () => {
    const submits = smsc.stats.submits;
    gate.hold();
    // send() returns only with the client's answer, while everything the service writes to the
    // SMSC waits in the relay; a service that answered after the SMSC accepted would never answer.
    const id = await send('answered first', '+447700900123');
    expect((await server.app.store.getMessage(id))?.state).not.toBe('delivered');
    await waitFor('the submit_sm waiting in the relay', () => gate.held() > 0);
    expect(smsc.stats.submits).toBe(submits);
    gate.release();
    expect((await finalState(id)).state).toBe('delivered');
    expect(smsc.stats.submits).toBe(submits + 1);
  });

  it('never logs the SMPP password', () => {
    expect(logged.join('\n')).toMatch(/\S/);
    expect(logged.join('\n')).not.toContain(SMPP_PASSWORD);
  });
});
