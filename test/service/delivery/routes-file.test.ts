/**
 * The routes file: what a valid file yields (routes, carrier selections, policy, defaults) and a
 * refusal for each kind of mistake, naming file:line:column and the key — never a secret's value.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCarrierTable } from '../../../service/delivery/carriers.js';
import { loadRoutesFile } from '../../../service/delivery/routes-file.js';

const dir = mkdtempSync(join(tmpdir(), 'smskit-routes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const carriers = createCarrierTable();
const env = { SMPP_PASSWORD: 'pw123456' };
let n = 0;

function load(text: string, environment: NodeJS.ProcessEnv = env) {
  const file = join(dir, `routes-${n++}.yaml`);
  writeFileSync(file, text);
  return { file, load: () => loadRoutesFile(file, carriers, environment) };
}

const VALID = `# two SMSCs: one for AT&T, the other for everything else
routes:
  att-smsc:
    type: smpp
    host: smsc.example.net
    systemId: acme
    passwordEnv: SMPP_PASSWORD
    window: 20
    throughput: 50
  main:
    type: smpp
    host: 10.0.0.5
    port: 2776
    systemId: acme
    passwordEnv: SMPP_PASSWORD
    bind: transmitter+receiver
    gsmPacking: packed
    concatenation: sar
carriers:
  ATT: att-smsc
default: main
delivery:
  maxAttempts: 5
  backoff: { initial: 2s, max: 5m, jitter: 0.1 }
  validity: 24h
  lease: 30s
`;

describe('a valid file', () => {
  it('yields the routes, their carriers, the policy and the defaults', () => {
    const config = load(VALID).load();
    expect(config.routes.map((r) => [r.name, r.kind, r.carriers])).toEqual([
      ['att-smsc', 'smpp', { only: ['att'] }],
      ['main', 'smpp', { except: ['att'] }],
    ]);
    expect(config.policy).toEqual({
      maxAttempts: 5,
      initialBackoffMs: 2_000,
      maxBackoffMs: 300_000,
      jitter: 0.1,
      validityMs: 86_400_000,
    });
    expect(config.leaseMs).toBe(30_000);
    expect(config.stateDurability).toBe('normal');
    expect(config.unrouted).toEqual([]);
  });

  it('without a default route, names the carrier codes whose messages stay queued', () => {
    const config = load(VALID.replace('default: main\n', '')).load();
    expect(config.unrouted).toContain('verizon');
    expect(config.unrouted).toContain('auto');
    expect(config.unrouted).not.toContain('att');
  });

  it('reads JSON too', () => {
    const json = JSON.stringify({
      routes: { s: { type: 'smpp', host: 'h', systemId: 'x', passwordEnv: 'SMPP_PASSWORD' } },
      default: 's',
    });
    expect(load(json).load().routes[0]?.name).toBe('s');
  });
});

describe('mistakes are refused with file:line:column and the key', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['unknown top-level key', `${VALID}extra: 1\n`, /:27:1: extra is not a known setting here/],
    [
      'misspelt route option',
      VALID.replace('    window: 20', '    windw: 20'),
      /:8:5: routes\.att-smsc\.windw is not a known setting/,
    ],
    [
      'port out of range',
      VALID.replace('port: 2776', 'port: 70000'),
      /:13:5: routes\.main\.port must be an integer from 1 to 65535/,
    ],
    [
      'unknown route type',
      VALID.replace('type: smpp\n    host: 10', 'type: carrier-pigeon\n    host: 10'),
      /:11:5: routes\.main\.type must be one of smpp/,
    ],
    [
      'carrier code not in the table',
      VALID.replace('  ATT: att-smsc', '  ATX: att-smsc'),
      /:20:3: carriers\.ATX is not a carrier code/,
    ],
    [
      'carrier mapped to an unknown route',
      VALID.replace('  ATT: att-smsc', '  ATT: nowhere'),
      /:20:3: carriers\.ATT names route "nowhere"/,
    ],
    ['default names no route', VALID.replace('default: main', 'default: other'), /:21:1: default names no route/],
    [
      'bad duration',
      VALID.replace('validity: 24h', 'validity: forever'),
      /:25:3: delivery\.validity must be a duration/,
    ],
    [
      'max backoff below initial',
      VALID.replace('max: 5m', 'max: 1s'),
      /delivery\.backoff\.max must not be shorter than initial/,
    ],
    ['YAML syntax', 'routes:\n  a: [unclosed\n', /routes-\d+\.yaml:\d+:\d+: /],
    ['duplicate key', 'routes: {}\nroutes: {}\n', /routes-\d+\.yaml:2:1: /],
    ['no routes', 'default: x\n', /routes must name at least one route/],
    ['password over the SMPP limit', VALID, /passwordEnv names a password longer than 8 characters/],
    [
      'binds out of range',
      VALID.replace('    window: 20', '    binds: 0'),
      /:8:5: routes\.att-smsc\.binds must be an integer from 1 to 32/,
    ],
    [
      'unknown receipt id format',
      VALID.replace('    window: 20', '    receiptIds: octal'),
      /:8:5: routes\.att-smsc\.receiptIds must be one of as-is, hex-to-decimal, decimal-to-hex/,
    ],
    [
      'receipt timeout too short',
      VALID.replace('    window: 20', '    receiptTimeout: 10ms'),
      /:8:5: routes\.att-smsc\.receiptTimeout must be from 1000 ms/,
    ],
  ];
  it.each(cases)('%s', (name, text, message) => {
    const environment = name === 'password over the SMPP limit' ? { SMPP_PASSWORD: 'much-too-long-password' } : env;
    const { file, load: read } = load(text, environment);
    let error: unknown;
    try {
      read();
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message.startsWith(file)).toBe(true);
    expect((error as Error).message).not.toContain('much-too-long-password');
  });

  it('a password variable that is not set is named, and no value is ever printed', () => {
    expect(() => load(VALID).load()).not.toThrow();
    expect(() => load(VALID, {}).load()).toThrow(
      /:7:5: routes\.att-smsc\.passwordEnv names SMPP_PASSWORD, which is not set/,
    );
  });

  it('a missing file is one line naming it', () => {
    expect(() => loadRoutesFile(join(dir, 'absent.yaml'), carriers)).toThrow(
      /absent\.yaml: cannot read the routes file \(ENOENT\)/,
    );
  });
});
