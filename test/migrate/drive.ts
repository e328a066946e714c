/**
 * Real clients for the replay proof, each sending its traffic to a URL (a recorder in front of
 * a genuine ASMX peer): Python zeep (the peer tests' scripts), node-soap, and a .NET client
 * built by Mono's `wsdl` tool from the service's ?wsdl and compiled with mcs. Each says what it
 * did, so the test can tell every call went through.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as soap from 'soap';
import { pythonWith } from '../helpers/peers.js';

function run(command: string, args: readonly string[], cwd?: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(
      command,
      args,
      { timeout: 120_000, cwd, env: { ...process.env, PYTHONIOENCODING: 'utf-8' }, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) =>
        err ? reject(new Error(`${command} failed: ${err.message}\n${stderr}`)) : resolve(stdout),
    ),
  );
}

/** A python3 that can import zeep (pyenv shims can shadow Debian's), or undefined. */
export const ZEEP_PYTHON = pythonWith('zeep');

/** Runs a zeep script of test/peers on a WSDL URL; its JSON result. */
export async function runZeep(
  script: 'zeep_client.py' | 'zeep_rich_client.py',
  wsdlUrl: string,
): Promise<Record<string, { ok?: unknown; error?: string }>> {
  if (ZEEP_PYTHON === undefined) throw new Error('no python3 can import zeep');
  const path = fileURLToPath(new URL(`../peers/${script}`, import.meta.url));
  return JSON.parse(await run(ZEEP_PYTHON, [path, wsdlUrl])) as Record<string, { ok?: unknown; error?: string }>;
}

export const NODE_SOAP_PASSWORD = 'node-soap-password-secret';

/** node-soap on the echo service (SOAP 1.1, both operations, a password field) and the rich one. */
export async function runNodeSoap(echoEndpoint: string, richEndpoint: string): Promise<number> {
  const echo = await soap.createClientAsync(`${echoEndpoint}?wsdl`);
  const input = {
    keyword: 'k',
    emailAddress: 'user@example.com',
    password: NODE_SOAP_PASSWORD,
    smsto: '+15551234567',
    carrierCode: 'ATT',
    smsmsg: 'Grüße <&>',
  };
  let calls = 0;
  await echo.SMSSendAsync(input).then(() => calls++);
  await echo.SMSSendToPortAsync({ ...input, port: '8080' }).then(() => calls++);
  const rich = await soap.createClientAsync(`${richEndpoint}?wsdl`);
  await rich.AddAsync({ a: 20, b: 22 }).then(() => calls++);
  await rich.MakeShapeAsync({ kind: 'square', size: 3 }).then(() => calls++);
  await rich.EchoColorAsync({ color: 'Blue' }).then(() => calls++);
  await rich.NullStringAsync({}).then(() => calls++);
  await rich.PingAsync({}).then(() => calls++);
  await rich.SumValuesAsync({ values: { int: [1, 2, 3] } }).then(() => calls++);
  return calls;
}

export const DOTNET_TOKEN = 'dotnet-secret-token';

/** Generates the .NET proxy of the rich service from its ?wsdl, compiles RichCaller.cs with it, runs it. */
export async function runDotnet(richEndpoint: string): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'smskit-dotnet-'));
  try {
    await run('wsdl', ['-nologo', `-out:${join(dir, 'Rich.cs')}`, `${richEndpoint}?wsdl`]);
    const caller = fileURLToPath(new URL('./dotnet/RichCaller.cs', import.meta.url));
    const exe = join(dir, 'RichCaller.exe');
    await run('mcs', [
      '-nologo',
      '-r:System.Web.Services',
      '-r:System.Xml',
      `-out:${exe}`,
      join(dir, 'Rich.cs'),
      caller,
    ]);
    return (await run('mono', [exe, richEndpoint])).trim().split('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
