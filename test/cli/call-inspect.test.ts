/**
 * `smskit inspect` and `smskit call` as a user runs them: real processes against the rich peer
 * service served by smskit (the generated skeleton), on every binding.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmskitPeer, type SmskitPeer } from '../helpers/smskit-peers.js';
import { repoRoot } from '../helpers/cli.js';

const bin = fileURLToPath(new URL('../../bin/smskit.js', import.meta.url));
const RICH = 'test/fixtures/asmx/rich.wsdl';

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI without blocking the event loop (the server under test is in this process). */
function smskit(args: readonly string[], input = ''): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [bin, ...args],
      { cwd: repoRoot, timeout: 60_000 },
      (error, stdout, stderr) => {
        const status = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ status, stdout, stderr });
      },
    );
    child.stdin?.end(input);
  });
}

describe('smskit inspect', () => {
  it('prints every operation with its signature, action and path', async () => {
    const run = await smskit(['inspect', RICH]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Port RichServiceHttpGet: http-get at http://localhost/rich.asmx');
    expect(run.stdout).toContain(
      "EchoColors(colors?: ('Red' | 'Green' | 'Blue')[]) -> EchoColorsResult?: ('Red' | 'Green' | 'Blue')[]",
    );
    expect(run.stdout).toContain(
      'MakeShape(kind?: string, size: double) -> MakeShapeResult?: Shape (Rectangle | Square | Circle)',
    );
    expect(run.stdout).toContain('Add [method AddDoubles](a: double, b: double) -> AddDoublesResult: double');
    expect(run.stdout).toContain('      headers in: AuthHeader?: AuthHeader, SessionHeader?: SessionHeader');
    expect(run.stdout).toContain('      GET /SumValues');
  });

  it('--json gives the same facts as data', async () => {
    const run = await smskit(['inspect', RICH, '--json']);
    expect(run.status).toBe(0);
    const data = JSON.parse(run.stdout) as {
      services: { ports: { protocol: string; operations: { name: string; method: string; httpPath?: string }[] }[] }[];
    };
    const get = data.services[0]!.ports.find((p) => p.protocol === 'http-get')!;
    expect(get.operations.map((o) => o.method)).toContain('SumValues');
    expect(get.operations.map((o) => o.method)).not.toContain('EchoOrder');
  });

  it('an unreadable WSDL is exit 2 with one line naming the file', async () => {
    const run = await smskit(['inspect', 'no/such.wsdl']);
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/no\/such\.wsdl/);
  });
});

describe('smskit call', () => {
  let peer: SmskitPeer;
  beforeAll(async () => {
    peer = await startSmskitPeer('rich');
  });
  afterAll(async () => {
    await peer?.close();
  });

  const call = (args: readonly string[], input = ''): Promise<Run> =>
    smskit(['call', RICH, ...args, '--url', peer.url], input);

  it.each(['soap11', 'soap12', 'http-get', 'http-post'])(
    'SumValues over %s: numbers given as JSON numbers or as text',
    async (binding) => {
      const run = await call(['SumValues', '--binding', binding, '--input', '{"values": [6, "3", -40]}']);
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual({ SumValuesResult: -31 });
    },
  );

  it('derived types, longs and bytes round-trip through JSON ($type, decimal strings, base64)', async () => {
    const shapes = [
      { $type: 'Circle', Label: 'c', Radius: 1 },
      null,
      { $type: 'Square', Label: 's', Width: 2, Height: 2, Rotated: true },
    ];
    const run = await call(['EchoShapes', '--binding', 'soap12', '--input', JSON.stringify({ shapes })]);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ EchoShapesResult: shapes });
    const longs = await call(['EchoLongs', '--input', '{"values": ["9223372036854775807", -1]}']);
    expect(JSON.parse(longs.stdout)).toEqual({ EchoLongsResult: ['9223372036854775807', '-1'] });
    const bytes = await call(['EchoBytes', '--binding', 'http-post', '--input', '{"data": "AAEC/w=="}']);
    expect(JSON.parse(bytes.stdout)).toEqual({ EchoBytesResult: 'AAEC/w==' });
  });

  it('input from standard input and a file, SOAP headers in and out', async () => {
    const run = await call(
      [
        'WhoAmI',
        '--input',
        '@-',
        '--soap-headers',
        '{"AuthHeader": {"User": "zoë"}, "SessionHeader": {"SessionId": "s", "Counter": 1}}',
        '--show-headers',
      ],
      '{}',
    );
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      output: { WhoAmIResult: 'zoë' },
      soapHeaders: {
        SessionHeader: { SessionId: 's', Counter: 2 },
        TraceHeader: { Server: 'rich-peer', Operation: 'WhoAmI' },
      },
    });
  });

  it('a value the schema cannot carry is exit 2 naming the path, before anything is sent', async () => {
    const run = await call(['EchoShapes', '--input', '{"shapes": [{"$type": "Shape", "Label": "abstract"}]}']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^smskit: EchoShapes\/shapes\/Shape\[1\]: .*Shape/);
    const wrong = await call(['SumValues', '--input', '{"values": ["six"]}']);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toMatch(/SumValues\/values\/int\[1\]/);
    const unknown = await call(['SumValues', '--input', '{"valuez": [1]}']);
    expect(unknown.stderr).toMatch(/SumValues\/valuez: not a member/);
  });

  it('an operation the binding does not offer, or none of that name, is exit 2 saying which exist', async () => {
    const notOffered = await call(['EchoOrder', '--binding', 'http-get', '--input', '{}']);
    expect(notOffered.status).toBe(2);
    expect(notOffered.stderr).toMatch(/offers EchoOrder on soap11, soap12, not on http-get/);
    const none = await call(['Nope']);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/has no operation Nope \(operations: SumValues, /);
  });

  it('an unreachable service is exit 2 with the transport reason', async () => {
    const run = await smskit(['call', RICH, 'Ping', '--url', 'http://127.0.0.1:9/rich.asmx', '--timeout', '3000']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^smskit: /);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
