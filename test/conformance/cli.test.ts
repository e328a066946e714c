/**
 * The command as the CLI runs it: flags -> validated options -> run -> reporters -> exit code,
 * and a clear one-line reason when the target is unreachable.
 */
import net from 'node:net';
import yargs from 'yargs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedService } from '../../bin/embedded-service.js';
import { CONFORMANCE_DEFAULTS } from '../../bin/conformance-defaults.js';
import { conformanceBuilder, validateConformanceArgs } from '../../bin/conformance/options.js';
import { executeConformance, type CommandIo } from '../../bin/conformance/execute.js';
import { ConformanceError } from '../../conformance/errors.js';

function parse(argv: string[], env: Record<string, string> = {}) {
  const args = conformanceBuilder(yargs(argv).strict(), CONFORMANCE_DEFAULTS).parseSync() as Record<string, unknown>;
  return validateConformanceArgs(args, env, CONFORMANCE_DEFAULTS);
}

function captureIo() {
  const out = { stdout: '', stderr: '', files: new Map<string, string>() };
  const io: CommandIo = {
    stdout: (t) => void (out.stdout += t),
    stderr: (t) => void (out.stderr += t),
    writeFile: (p, t) => void out.files.set(p, t),
    embeddedTarget: startEmbeddedService,
  };
  return { out, io };
}

describe('flags', () => {
  it.each([
    ['--out without a json/junit reporter', ['--out', 'x.json'], /--out given 1 time/],
    ['two reporters on stdout', ['--reporter', 'pretty', '--reporter', 'json'], /only one reporter/],
    ['credentials without a target', ['--email', 'a@b.c'], /apply to a --target/],
    ['a malformed header', ['--target', 'http://h/x', '-H', 'novalue'], /expected <name>:<value>/],
    ['a malformed --param', ['--target', 'http://h/x', '--param', 'port'], /expected <name>=<value>/],
  ])('refuses %s', (_, argv, message) => {
    expect(() => parse(argv)).toThrow(message);
  });

  it('reads the password from the environment and pairs --out with reporters in order', () => {
    const options = parse(
      [
        '--target',
        'http://h/x',
        '--reporter',
        'pretty',
        '--reporter',
        'json',
        '--reporter',
        'junit',
        '--out',
        'r.json',
        '--out',
        'j.xml',
      ],
      { SMSKIT_PASSWORD: 'pw-from-env' },
    );
    expect(options.inputs.password).toBe('pw-from-env');
    expect(options.reporters).toEqual([
      { name: 'pretty' },
      { name: 'json', out: 'r.json' },
      { name: 'junit', out: 'j.xml' },
    ]);
  });
});

describe('running', () => {
  it('runs the embedded default and writes every reporter', async () => {
    const { out, io } = captureIo();
    const outcome = await executeConformance(
      parse(['--reporter', 'pretty', '--reporter', 'json', '--reporter', 'junit', '--out', 'r.json', '--out', 'j.xml']),
      io,
    );
    expect(outcome).toBe('passed');
    expect(out.stdout).toMatch(/^PASS \(--fail-on must\): 83 cases, 83 passed/m);
    // Progress is for terminals, and for logs only after a second (report/progress.ts, tested there);
    // the notes for a person say what was started and what to try next.
    const notes = out.stderr.split('\n').filter((line) => /^smskit conformance: no --target|^Next: /.test(line));
    expect(notes).toHaveLength(2);
    // Whether a progress line appears depends on how long the run took (a loaded machine passes
    // the second): those lines are left out, everything else on stderr must be the two notes.
    const progress = /^smskit conformance: \d+\/\d+ cases, \d+ failed, [\d.]+ s$/;
    const rest = out.stderr.split('\n').filter((line) => line !== '' && !progress.test(line));
    expect(rest).toEqual(notes);
    expect(JSON.parse(out.files.get('r.json')!).summary).toMatchObject({ total: 83, failed: 0 });
    expect(out.files.get('j.xml')).toContain('<testsuites name="smskit conformance" tests="83" failures="0"');
  });

  it('without --target and without an embedded target to start, refuses the run and says so in the reports', async () => {
    const { out, io } = captureIo();
    const { embeddedTarget: _, ...library } = io;
    const error = await executeConformance(parse(['--reporter', 'json', '--out', 'r.json']), library).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConformanceError);
    expect((error as ConformanceError).code).toBe('CONFORMANCE_OPTIONS');
    expect((error as Error).message).toMatch(/no --target given/);
    expect(JSON.parse(out.files.get('r.json')!)).toEqual({
      error: { code: 'CONFORMANCE_OPTIONS', message: (error as Error).message },
    });
  });

  it("a --wsdl that cannot be read is the contract layer's CONTRACT_UNREADABLE, in the reports too", async () => {
    const { out, io } = captureIo();
    const error = await executeConformance(
      parse(['--wsdl', 'no-such.wsdl', '--target', 'http://127.0.0.1:9/x', '--reporter', 'json', '--out', 'r.json']),
      io,
    ).catch((e: unknown) => e);
    expect((error as { code?: unknown }).code).toBe('CONTRACT_UNREADABLE');
    expect(JSON.parse(out.files.get('r.json')!)).toEqual({
      error: { code: 'CONTRACT_UNREADABLE', message: 'no-such.wsdl: cannot read the WSDL file (ENOENT)' },
    });
  });

  it('--list prints the cases a run would send and sends nothing', async () => {
    const { out, io } = captureIo();
    expect(await executeConformance(parse(['--list', '--binding', 'soap12', '--run', '*/soap12/ok']), io)).toBe(
      'listed',
    );
    expect(out.stdout).toContain('  SMSSend/soap12/ok/non-ascii');
    expect(out.stdout).toContain('- SMSSend/soap12/fault/doctype');
    expect(out.stdout).toMatch(/10 of 83 cases selected/);
  });
});

describe('an unreachable target is one clear error', () => {
  const servers: net.Server[] = [];
  const start = async (onConnection: (socket: net.Socket) => void): Promise<number> => {
    const server = net.createServer(onConnection);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as net.AddressInfo).port;
  };
  let closedPort = 0;
  beforeAll(async () => {
    const probe = await start(() => {});
    closedPort = probe;
    await new Promise<void>((resolve) => servers.pop()!.close(() => resolve()));
  });
  afterAll(() => {
    for (const s of servers) s.close();
  });

  const expectUnreachable = async (target: string, reason: RegExp, extra: string[] = []) => {
    const { io } = captureIo();
    const error = await executeConformance(parse(['--target', target, '--retries', '0', ...extra]), io).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConformanceError);
    expect((error as ConformanceError).code).toBe('TARGET_UNREACHABLE');
    expect((error as Error).message).toMatch(reason);
    expect((error as Error).message).not.toContain('\n');
  };

  it('refused', () => expectUnreachable(`http://127.0.0.1:${closedPort}/serviceapi.asmx`, /connection refused/));
  it('DNS', () => expectUnreachable('http://no-such-host.invalid/serviceapi.asmx', /DNS/));
  it('not HTTP', async () => {
    const port = await start((socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n'));
    await expectUnreachable(`http://127.0.0.1:${port}/serviceapi.asmx`, /not HTTP/);
  });
  it('timeout', async () => {
    const port = await start(() => {});
    await expectUnreachable(`http://127.0.0.1:${port}/serviceapi.asmx`, /timeout/, ['--timeout', '300']);
  });
  it('TLS', async () => {
    const port = await start((socket) => socket.end('HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n'));
    await expectUnreachable(`https://127.0.0.1:${port}/serviceapi.asmx`, /TLS/);
  });
});
