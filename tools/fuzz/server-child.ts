/**
 * The server under test for the fuzz and attack tests, in its own process (started with
 * `--expose-gc`), so a crash is seen as an exit, memory is measured without the test's own
 * allocations, and everything it logs is captured.
 *
 * It serves two listeners on 127.0.0.1:0:
 * - `sms`: the real SMS service (`startSmsServer`, temporary database, one account);
 * - `checked`: the generated `createServiceAPIListener` with handlers that check their inputs
 *   (every field a string or absent, nothing else) and that sometimes refuse (`ServiceError`) or
 *   crash with the password in the error message, so log redaction is exercised too.
 *
 * Protocol (IPC): the parent sends `{ type: 'stats', gc?: boolean }` and gets `{ type: 'stats',
 * rss, heapUsed, logs, inputErrors, keywords }`; `{ type: 'close' }` closes both servers and exits 0.
 */
import type { Socket } from 'node:net';
import { ServiceError, listen, type Listening } from '../../runtime/index.js';
import { createServiceAPIListener, type SMSSend, type SMSSendToPort } from '../../generated/service-api/index.js';
import { startSmsServer } from '../../service/server.js';
import { contractParams, type SmsOperation } from '../contract.js';

export interface ChildConfig {
  readonly dbPath: string;
  readonly email: string;
  readonly password: string;
  readonly keyword: string;
  readonly headersTimeoutMs?: number;
  readonly bodyTimeoutMs?: number;
  readonly maxBodyBytes?: number;
}

export interface ChildReady {
  readonly type: 'ready';
  readonly sms: string;
  readonly checked: string;
  readonly pid: number;
}

export interface ChildStats {
  readonly type: 'stats';
  readonly rss: number;
  readonly heapUsed: number;
  /** Log lines since the previous stats message. */
  readonly logs: string[];
  /** Inputs the checked handlers found malformed (must stay empty). */
  readonly inputErrors: string[];
  /** Keywords the checked handlers were called with, since the previous stats message. */
  readonly keywords: string[];
  /** Connections the SMS service's server has accepted since it started, and of those still open. */
  readonly accepted: number;
  readonly open: number;
}

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? '{}') as ChildConfig;
  let logs: string[] = [];
  let inputErrors: string[] = [];
  let keywords: string[] = [];
  const logger = { error: (line: string) => void logs.push(line) };
  const wire = {
    logger,
    ...(config.headersTimeoutMs === undefined ? {} : { headersTimeoutMs: config.headersTimeoutMs }),
    ...(config.bodyTimeoutMs === undefined ? {} : { bodyTimeoutMs: config.bodyTimeoutMs }),
    ...(config.maxBodyBytes === undefined ? {} : { maxBodyBytes: config.maxBodyBytes }),
  };
  const sms = await startSmsServer({
    dbPath: config.dbPath,
    durability: 'normal', // the fuzz is about parsing, not fsync; crash tests use the default
    scrypt: { logN: 10, r: 8, p: 1 },
    authLimits: { perAccount: { maxFailures: 0, windowMs: 1 }, perAddress: { maxFailures: 0, windowMs: 1 } },
    http: wire,
  });
  await sms.app.accounts.add({ email: config.email, password: config.password, keywords: [config.keyword] });
  let accepted = 0;
  let open = 0;
  sms.server.on('connection', (socket: Socket) => {
    accepted++;
    open++;
    socket.once('close', () => open--);
  });

  const check = (op: SmsOperation, input: SMSSend | SMSSendToPort): string => {
    const record = input as unknown as Record<string, unknown>;
    for (const [key, value] of Object.entries(record)) {
      if (!contractParams(op).includes(key))
        inputErrors.push(`${op}: unexpected field ${JSON.stringify(key).slice(0, 40)}`);
      else if (value !== undefined && typeof value !== 'string') inputErrors.push(`${op}: ${key} is ${typeof value}`);
    }
    // A bounded record (1,000 copies of at most 40 characters), so it does not count as a leak.
    if (keywords.length < 1_000) keywords.push(Buffer.from(String(input.keyword ?? '').slice(0, 40)).toString('utf8'));
    if (input.keyword === 'refuse') throw new ServiceError('Refused', 'Refused on purpose.', { field: 'keyword' });
    if (input.keyword === 'crash') throw new Error(`handler crashed while checking ${String(input.password)}`);
    return `ok ${Object.keys(record).length}`;
  };
  const checkedListener = createServiceAPIListener(
    {
      SMSSend: (input) => ({ SMSSendResult: check('SMSSend', input) }),
      SMSSendToPort: async (input) => ({ SMSSendToPortResult: check('SMSSendToPort', input) }),
    },
    wire,
  );
  const checked: Listening = await listen(checkedListener, { host: '127.0.0.1', port: 0 });

  process.on('message', (message: { type: string; gc?: boolean }) => {
    if (message.type === 'stats') {
      if (message.gc === true && typeof globalThis.gc === 'function') {
        globalThis.gc();
        globalThis.gc();
      }
      const memory = process.memoryUsage();
      const stats: ChildStats = {
        type: 'stats',
        rss: memory.rss,
        heapUsed: memory.heapUsed,
        logs,
        inputErrors,
        keywords,
        accepted,
        open,
      };
      logs = [];
      inputErrors = [];
      keywords = [];
      process.send!(stats);
    } else if (message.type === 'close') {
      void Promise.all([sms.close(), checked.close()]).then(() => process.exit(0));
    }
  });
  const ready: ChildReady = {
    type: 'ready',
    sms: `${sms.url}/serviceapi.asmx`,
    checked: `${checked.url}/serviceapi.asmx`,
    pid: process.pid,
  };
  process.send!(ready);
}

void main().catch((error: unknown) => {
  process.stderr.write(`fuzz server failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(3);
});
