/**
 * The service delivers: messages accepted over the wire go out through a routes file's SMPP route
 * to the SMSC simulator and come back `delivered` with their receipts. What the SMSC received is
 * checked exactly: text (GSM 7-bit with its extension characters, UCS-2 with emoji), part count
 * equal to the stored segment count, destination from the stored E.164 number, source address.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
let server: SmsServer;
const logged: string[] = [];

beforeAll(async () => {
  smsc = await startSmsc({ systemId: 'smskit', password: SMPP_PASSWORD });
  const routes = join(dir, 'routes.yaml');
  writeFileSync(
    routes,
    [
      'routes:',
      '  local:',
      '    type: smpp',
      '    host: 127.0.0.1',
      `    port: ${smsc.port}`,
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

  it('answers the client before delivery, and never logs the SMPP password', () => {
    expect(logged.join('\n')).not.toContain(SMPP_PASSWORD);
  });
});
