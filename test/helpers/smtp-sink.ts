/**
 * A real SMTP server for the e-mail route's tests: aiosmtpd (Debian's python3-aiosmtpd) running
 * test/service/delivery/email/smtp_sink.py, which parses each mail with Python's e-mail parser and reports it
 * as a JSON line. Tests without aiosmtpd skip with one line (`requirePeer('aiosmtpd', …)`); CI installs it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { pythonWith } from './peers.js';
import { waitFor } from './wait-for.js';

const SCRIPT = fileURLToPath(new URL('../service/delivery/email/smtp_sink.py', import.meta.url));
const PYTHON = pythonWith('aiosmtpd');

/** A mail as the sink's parser saw it. */
export interface ArrivedMail {
  readonly mailFrom: string;
  readonly rcptTos: string[];
  readonly to: string;
  readonly from: string;
  readonly subject: string | null;
  readonly messageId: string;
  readonly contentType: string;
  readonly charset: string | null;
  readonly transferEncoding: string | null;
  readonly body: string;
  readonly tls: boolean;
  readonly authenticated: boolean;
}

export interface SmtpSink {
  readonly port: number;
  readonly mails: ArrivedMail[];
  /** Resolves once `count` mails have arrived in all. */
  waitForMails(count: number): Promise<ArrivedMail[]>;
  stop(): Promise<void>;
}

export async function startSmtpSink(
  options: { tls?: { certFile: string; keyFile: string }; auth?: { user: string; pass: string } } = {},
): Promise<SmtpSink> {
  if (PYTHON === undefined) throw new Error('aiosmtpd is not installed');
  const args = [SCRIPT];
  if (options.tls !== undefined) args.push('--tls', options.tls.certFile, options.tls.keyFile);
  if (options.auth !== undefined) args.push('--auth', options.auth.user, options.auth.pass);
  const child: ChildProcess = spawn(PYTHON, args, {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, PYTHONIOENCODING: 'utf-8' },
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const mails: ArrivedMail[] = [];
  let port: number | undefined;
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const parsed = JSON.parse(line) as { port?: number } & ArrivedMail;
    if (parsed.port !== undefined) port = parsed.port;
    else mails.push(parsed);
  });
  await waitFor('listening (smtp_sink.py)', () => port !== undefined || child.exitCode !== null, {
    state: () => stderr,
  });
  if (port === undefined) throw new Error(`smtp_sink.py exited: ${stderr}`);
  return {
    port,
    mails,
    async waitForMails(count) {
      await waitFor(`${count} mail(s) received`, () => mails.length >= count, { state: () => stderr });
      return mails;
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
