/**
 * The SMSCs the crash tests kill `smskit serve` against, behind one interface: the project's
 * simulator (in this process, on the same `smpp` library as the route) and Net::SMPP (the Perl
 * SMSC in test/peers/smsc, an SMPP implementation smskit shares no code with). Each can SIGKILL a
 * process the moment it sees the next submit_sm, so a kill lands with that submit received by the
 * SMSC and its answer not yet recorded by the route: inside the in-flight window, by construction
 * rather than by luck.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { startSmsc, type RunningSmsc } from '../../service/delivery/simulator/index.js';
import { startPerlSmsc, type PerlSmsc } from '../service/delivery/smpp/helpers.js';

export type SmscKind = 'simulator' | 'net-smpp';

export interface CrashSmsc {
  readonly kind: SmscKind;
  /** The route's lines of a routes file: where the SMSC is and how to bind to it. */
  readonly routeLines: readonly string[];
  /** The environment variable and value the route's password comes from. */
  readonly passwordEnv: readonly [string, string];
  /** The text of every whole message received so far, one entry per submit (repeats kept). */
  receivedTexts(): string[];
  /**
   * SIGKILLs `pid` as soon as the SMSC has logged its next submit_sm (from `source`, when given,
   * a route's source address), before answering it.
   */
  killOnNextSubmit(pid: number, source?: string): Promise<void>;
  close(): Promise<void>;
}

export async function startSimulatorSmsc(systemId: string): Promise<CrashSmsc> {
  let armed: { fire: () => void; source: string | undefined } | undefined;
  const smsc: RunningSmsc = await startSmsc({
    systemId,
    password: `${systemId}123`,
    receiptDelayMs: 20,
    keep: 1_000_000,
    // Called before the simulator answers the PDU: the kill cannot come after the route read the answer.
    onPdu: (pdu) => {
      if (pdu.command !== 'submit_sm' || armed === undefined) return;
      if (armed.source !== undefined && pdu.source_addr !== armed.source) return;
      const { fire } = armed;
      armed = undefined;
      fire();
    },
  });
  return {
    kind: 'simulator',
    routeLines: smppRoute(smsc.port, systemId, `${systemId.toUpperCase()}_SIM_PASSWORD`),
    passwordEnv: [`${systemId.toUpperCase()}_SIM_PASSWORD`, `${systemId}123`],
    receivedTexts: () => smsc.received.map((m) => m.text),
    killOnNextSubmit: (pid, source) =>
      new Promise<void>((resolve) => {
        const fire = (): void => {
          process.kill(pid, 'SIGKILL');
          resolve();
        };
        armed = { fire, source };
      }),
    close: () => smsc.close(),
  };
}

/** Net::SMPP answers each submit 20 ms after logging it: the window the kill lands in. */
const PERL_ANSWER_DELAY_MS = 20;

/** `extra`: more flags for the Perl SMSC, e.g. `--many` for several clients at once. */
export async function startNetSmppSmsc(extra: readonly string[] = []): Promise<CrashSmsc> {
  const perl: PerlSmsc = await startPerlSmsc([
    '--answer-delay-ms',
    String(PERL_ANSWER_DELAY_MS),
    '--resend-receipts',
    ...extra,
  ]);
  const log = new LogTail(perl.out);
  return {
    kind: 'net-smpp',
    routeLines: smppRoute(perl.port, 'smskit', 'CRASH_PERL_PASSWORD'),
    passwordEnv: ['CRASH_PERL_PASSWORD', 'secret'],
    receivedTexts: () =>
      perl
        .lines()
        .filter((line) => line.pdu === 'submit_sm')
        // The tests send only [a-z0-9 ], which GSM 03.38's default alphabet codes as ASCII.
        .map((line) => Buffer.from(String(line.short_message), 'hex').toString('latin1')),
    killOnNextSubmit: async (pid, source) => {
      log.skipToEnd();
      const wanted = (line: Record<string, unknown>): boolean =>
        line.pdu === 'submit_sm' && (source === undefined || line.source_addr === source);
      while (!log.readLines().some(wanted)) await new Promise((resolve) => setTimeout(resolve, 1));
      process.kill(pid, 'SIGKILL');
    },
    close: async () => perl.close(),
  };
}

function smppRoute(port: number, systemId: string, passwordEnv: string): string[] {
  return [
    '    type: smpp',
    '    host: 127.0.0.1',
    `    port: ${port}`,
    `    systemId: ${systemId}`,
    `    passwordEnv: ${passwordEnv}`,
    '    reconnect: { initial: 50ms, max: 500ms }',
  ];
}

/** The whole lines a growing JSON-lines file gained since the last read. */
class LogTail {
  private offset = 0;
  private partial = '';
  constructor(private readonly path: string) {}

  skipToEnd(): void {
    this.offset = statSync(this.path, { throwIfNoEntry: false })?.size ?? 0;
    this.partial = '';
  }

  readLines(): Array<Record<string, unknown>> {
    const text = this.partial + this.readNew();
    const lines = text.split('\n');
    this.partial = lines.pop() ?? '';
    return lines.filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  private readNew(): string {
    const size = statSync(this.path, { throwIfNoEntry: false })?.size ?? 0;
    if (size <= this.offset) return '';
    const buffer = Buffer.alloc(size - this.offset);
    const fd = openSync(this.path, 'r');
    try {
      readSync(fd, buffer, 0, buffer.length, this.offset);
    } finally {
      closeSync(fd);
    }
    this.offset = size;
    return buffer.toString('utf8');
  }
}
