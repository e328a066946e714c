/**
 * failover and roundRobin entries in the routes file: what a valid file yields (the composite is
 * a route the carriers name; its members are not routes of their own) and a refusal, naming
 * file:line:column and the key, for each mistake: a member that is not a route with a type, the
 * route itself, a list too short or naming one twice, a member named by carriers or default, a
 * member shared by two composites, an unknown key.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createCarrierTable } from '../../../service/delivery/carriers.js';
import { loadRoutesFile } from '../../../service/delivery/routes-file.js';

const dir = mkdtempSync(join(tmpdir(), 'smskit-composite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

function load(text: string) {
  const file = join(dir, `routes-${n++}.yaml`);
  writeFileSync(file, text);
  return loadRoutesFile(file, createCarrierTable(), { SMPP_PASSWORD: 'pw' });
}

const SMSCS = `routes:
  a: { type: smpp, host: a.example.net, systemId: acme, passwordEnv: SMPP_PASSWORD }
  b: { type: smpp, host: b.example.net, systemId: acme, passwordEnv: SMPP_PASSWORD }
  c: { type: smpp, host: c.example.net, systemId: acme, passwordEnv: SMPP_PASSWORD }
`;

it('reads failover and roundRobin routes; their members are reached through them only', () => {
  const config = load(`${SMSCS}  pair: { failover: [a, b], failoverAfter: 3 }
carriers:
  att: pair
default: c
`);
  expect(config.routes.map((r) => [r.name, r.kind])).toEqual([
    ['c', 'smpp'],
    ['pair', 'failover'],
  ]);
  expect(config.routes.find((r) => r.name === 'pair')?.carriers).toEqual({ only: ['att'] });
  const route = config.routes.find((r) => r.name === 'pair')?.create();
  expect(route?.kind).toBe('failover');
  expect(route?.status().members?.map((m) => m.name)).toEqual(['a', 'b']);
  expect(route?.receiptTimeoutMs).toBe(48 * 3_600_000);
  const spread = load(`${SMSCS}  spread: { roundRobin: [a, b, c] }
default: spread
`);
  expect(spread.routes.map((r) => [r.name, r.kind])).toEqual([['spread', 'roundRobin']]);
});

it.each([
  [
    'an unknown member',
    '  pair: { failover: [a, nope] }\n',
    /routes-\d+\.yaml:5:\d+: routes\.pair\.failover names "nope"/,
  ],
  ['itself', '  pair: { failover: [a, pair] }\n', /routes\.pair\.failover cannot name the route itself/],
  ['one member', '  pair: { roundRobin: [a] }\n', /routes\.pair\.roundRobin must be a list of at least 2 route names/],
  ['a member twice', '  pair: { roundRobin: [a, a] }\n', /routes\.pair\.roundRobin names a twice/],
  [
    'a composite member',
    '  pair: { failover: [a, b] }\n  more: { roundRobin: [pair, c] }\n',
    /names "pair", which is not a route of routes with a type/,
  ],
  [
    'a shared member',
    '  pair: { failover: [a, b] }\n  more: { roundRobin: [b, c] }\n',
    /routes\.more shares member b with pair/,
  ],
  ['an unknown key', '  pair: { failover: [a, b], window: 3 }\n', /routes\.pair\.window is not a known setting here/],
  [
    'failoverAfter on round robin',
    '  pair: { roundRobin: [a, b], failoverAfter: 2 }\n',
    /routes\.pair\.failoverAfter is not a known setting/,
  ],
  [
    'a member named by carriers',
    '  pair: { failover: [a, b] }\ncarriers:\n  att: a\n',
    /carriers\.att names a, a member of pair: name pair/,
  ],
  [
    'a member as the default',
    '  pair: { failover: [a, b] }\ndefault: b\n',
    /default names b, a member of pair: name pair/,
  ],
])('refuses %s', (_, entry, message) => {
  expect(() => load(`${SMSCS}${entry}`)).toThrow(message);
});

it('reads binds, receiptIds and receiptTimeout of an SMPP route (and their defaults)', () => {
  const config = load(`routes:
  many: { type: smpp, host: a.example.net, systemId: acme, passwordEnv: SMPP_PASSWORD, binds: 3, receiptIds: hex-to-decimal, receiptTimeout: 2h }
  plain: { type: smpp, host: b.example.net, systemId: acme, passwordEnv: SMPP_PASSWORD }
  quiet: { type: smpp, host: c.example.net, systemId: acme, passwordEnv: SMPP_PASSWORD, receipts: false }
default: many
carriers:
  att: plain
  verizon: quiet
`);
  const [many, plain, quiet] = config.routes.map((r) => r.create());
  expect(many?.status().binds?.map((b) => b.bind)).toEqual([1, 2, 3]);
  expect(many?.status().window).toBe(10); // window × the binds that are up (none yet: one window)
  expect(many?.receiptTimeoutMs).toBe(2 * 3_600_000);
  expect(plain?.status().binds).toHaveLength(1);
  expect(plain?.receiptTimeoutMs).toBe(48 * 3_600_000);
  expect(quiet?.receiptTimeoutMs).toBeUndefined(); // no receipts asked for: accepted is as far as it goes
});
