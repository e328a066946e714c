/**
 * The SSRF guard: a table of addresses (the ranges written here from their RFCs, not computed by
 * the code under test), and the sender with its default settings refusing receivers at loopback,
 * private, link-local and IPv4-mapped addresses and at a name that resolves to loopback, while
 * the receiver listening there counts no request.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { addressRefusal, guardedLookup } from '../../../service/callbacks/address-guard.js';
import { type CallbackReceiver, startCallbackReceiver } from '../../helpers/callback-receiver.js';
import { waitFor } from '../../helpers/wait-for.js';
import { type Harness, newSecret, startSender } from './fixtures.js';

const REFUSED: readonly [string, RegExp][] = [
  ['127.0.0.1', /loopback/],
  ['127.255.1.2', /loopback/],
  ['10.1.2.3', /RFC 1918/],
  ['172.16.0.1', /RFC 1918/],
  ['172.31.255.255', /RFC 1918/],
  ['192.168.10.1', /RFC 1918/],
  ['169.254.169.254', /link-local/],
  ['100.64.0.1', /RFC 6598/],
  ['0.0.0.0', /unspecified/],
  ['224.0.0.1', /multicast/],
  ['::1', /loopback/],
  ['::', /unspecified/],
  ['fe80::1', /link-local/],
  ['fc00::1', /unique local/],
  ['fd12:3456::1', /unique local/],
  ['::ffff:127.0.0.1', /IPv4-mapped loopback/],
  ['::ffff:7f00:1', /IPv4-mapped loopback/],
  ['::ffff:10.0.0.1', /IPv4-mapped private/],
  ['::ffff:169.254.169.254', /IPv4-mapped link-local/],
  ['64:ff9b::a00:1', /NAT64 of private/],
  ['ff02::1', /multicast/],
];
const ALLOWED = [
  '8.8.8.8',
  '1.1.1.1',
  '172.32.0.1',
  '100.128.0.1',
  '192.169.0.1',
  '2001:4860:4860::8888',
  '::ffff:8.8.8.8',
];

describe('addressRefusal', () => {
  it.each(REFUSED)('refuses %s', (address, why) => {
    expect(addressRefusal(address)).toMatch(why);
  });
  it.each(ALLOWED)('allows %s', (address) => {
    expect(addressRefusal(address)).toBeUndefined();
  });

  it('checks every address a name resolves to, and connects only to one that passed', async () => {
    const lookup = guardedLookup(((_name: string, _options: unknown, callback: (...args: unknown[]) => void) =>
      callback(null, [
        { address: '10.0.0.5', family: 4 },
        { address: '93.184.215.14', family: 4 },
      ])) as never);
    const picked = await new Promise((resolve) => lookup('mixed.example', {}, (_e, address) => resolve(address)));
    expect(picked).toBe('93.184.215.14');
    const onlyPrivate = guardedLookup(((_n: string, _o: unknown, callback: (...args: unknown[]) => void) =>
      callback(null, [{ address: '127.0.0.1', family: 4 }])) as never);
    const error = await new Promise((resolve) => onlyPrivate('rebind.example', { all: true }, (e) => resolve(e)));
    expect(String(error)).toMatch(/callback host rebind\.example refused: 127\.0\.0\.1 is loopback/);
  });
});

let harness: Harness | undefined;
let receiver: CallbackReceiver | undefined;
afterEach(async () => {
  await harness?.sender.close(100);
  await receiver?.close();
});

describe('the sender, by default', () => {
  it('refuses loopback, private, link-local and mapped receivers, and a name that resolves to loopback', async () => {
    const secret = newSecret();
    receiver = await startCallbackReceiver(secret);
    const port = receiver.port;
    harness = startSender({ allowPrivate: false });
    const urls = [
      `http://127.0.0.1:${port}/hook`,
      `http://10.0.0.1:${port}/hook`,
      `http://169.254.169.254:${port}/latest/meta-data`,
      `http://[::1]:${port}/hook`,
      `http://[::ffff:127.0.0.1]:${port}/hook`,
      `http://localhost:${port}/hook`,
    ];
    for (const [i, url] of urls.entries()) harness.store.add({ messageId: `SMS-${i}`, state: 'sending', url, secret });
    const firstOutcomes = () => new Map(harness!.store.settled.map((o) => [o.seq, o] as const).reverse());
    await waitFor('six refusals', () => firstOutcomes().size >= 6);
    expect(receiver.received).toHaveLength(0);
    const errors = [...firstOutcomes().values()].map((o) => (o.kind === 'retry' ? o.error : o.kind));
    expect(errors).toHaveLength(6);
    for (const error of errors) expect(error).toMatch(/refused: .*(loopback|RFC 1918|link-local)/);
    expect(errors.find((e) => e.includes('localhost'))).toMatch(/callback host localhost refused/);
    expect(harness.sender.stats().failures.address).toBeGreaterThanOrEqual(6);
    expect(Object.keys(harness.sender.stats().failures)).toEqual(['address']);
  });
});
