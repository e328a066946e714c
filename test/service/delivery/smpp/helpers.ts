/**
 * Shared pieces of the SMPP route tests: messages as the service stores them, route options,
 * a started route that records its log lines and receipts, and the Net::SMPP peer.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OutgoingMessage, Receipt, Route } from '../../../../service/delivery/route.js';
import { createSmppRoute, type SmppRouteDeps } from '../../../../service/delivery/smpp/index.js';
import { SMPP_DEFAULTS, type SmppRouteOptions } from '../../../../service/delivery/smpp/options.js';
import { checkMessage } from '../../../../service/sms/segments.js';
import { waitFor } from '../../../helpers/wait-for.js';
import { scratchDir } from '../../../helpers/scratch.js';

let counter = 0;

/** A message as the service would have stored it (encoding and segments computed at acceptance). */
export function stored(text: string, extra: { port?: number; smsto?: string } = {}): OutgoingMessage {
  const port = extra.port ?? null;
  const checked = checkMessage(text, port !== null, { maxSegments: 10 });
  return {
    id: `SMS-TEST${++counter}`,
    smsto: extra.smsto ?? '+15551234567',
    smsmsg: text,
    encoding: checked.encoding,
    segments: checked.segments,
    port,
    carrierCode: 'att',
  };
}

export function routeOptions(port: number, overrides: Partial<SmppRouteOptions> = {}): SmppRouteOptions {
  return {
    ...SMPP_DEFAULTS,
    host: '127.0.0.1',
    port,
    systemId: 'smskit',
    password: 'secret',
    ...overrides,
  };
}

export interface StartedRoute {
  readonly route: Route;
  readonly logs: string[];
  readonly receipts: Receipt[];
  /** Receipts resolve with this (default: true after recording); replace to hold or fail them. */
  answer: (receipt: Receipt) => Promise<boolean>;
  waitUp(): Promise<void>;
}

export function startRoute(options: SmppRouteOptions, deps: SmppRouteDeps = {}): StartedRoute {
  const route = createSmppRoute('test', options, deps);
  const started: StartedRoute = {
    route,
    logs: [],
    receipts: [],
    answer: async () => true,
    waitUp: () => waitFor('bound', () => route.status().up, { state: () => route.status().detail }),
  };
  route.start({
    receipt: (receipt) => {
      started.receipts.push(receipt);
      return started.answer(receipt);
    },
    log: (line) => started.logs.push(line),
  });
  return started;
}

// The Net::SMPP peer (Debian libnet-smpp-perl)

const PERL_SMSC = fileURLToPath(new URL('../../../peers/smsc/net-smpp-smsc.pl', import.meta.url));

export interface PerlSmsc {
  readonly port: number;
  /** The JSON-lines log it appends to, one line per PDU, written before it answers. */
  readonly out: string;
  /** Every JSON line it wrote so far. */
  lines(): Array<Record<string, unknown>>;
  close(): void;
}

export async function startPerlSmsc(args: readonly string[] = []): Promise<PerlSmsc> {
  const out = join(scratchDir('smskit-perl-smsc-'), 'received.jsonl');
  const child: ChildProcess = spawn('perl', [PERL_SMSC, '--system-id', 'smskit', '--out', out, ...args], {
    env: { ...process.env, SMSKIT_SMSC_PASSWORD: 'secret' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let text = '';
    child.once('exit', (code) => reject(new Error(`net-smpp-smsc.pl exited with ${code}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = /listening (\d+)/.exec(text);
      if (match) resolve(Number(match[1]));
    });
  });
  return {
    port,
    out,
    lines: () => {
      let text = '';
      try {
        text = readFileSync(out, 'utf8');
      } catch {
        return [];
      }
      return text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    close: () => void child.kill('SIGKILL'),
  };
}
