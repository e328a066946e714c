/**
 * Builds and starts each genuine stack's order service (test/peers/stacks/<stack>/), for tests
 * that only need it running (the fuzzer's), and builds them for the tests of each stack: once a
 * run (test/helpers/once-per-run.ts), since the fuzzer's file and the stack's own compile the
 * same sources (g++, javac and wsgen, mcs: seconds each). The caller checks the stack is
 * installed first (test/helpers/peers.ts).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { oncePerRun } from '../../helpers/once-per-run.js';
import { pythonWith } from '../../helpers/peers.js';
import { type PeerProcess, startPeer } from './harness.js';

export type Stack = 'spyne' | 'jaxws' | 'wcf' | 'gsoap';

export interface RunningStack {
  /** Each service it publishes: its endpoint and its WSDL's URL (JAX-WS publishes two). */
  readonly services: readonly { readonly name: string; readonly endpoint: string; readonly wsdl: string }[];
  close(): Promise<void>;
}

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));
const BUILD_MS = 180_000;
/** The JAX-WS service's class path: its build folder is put in front. */
const JAXWS_CLASSPATH = '/usr/share/java/*';
/**
 * javac, wsgen and the JAX-WS service run on the JVM's quick compiler only: a test's few hundred
 * requests end long before the optimising one pays back the CPU it spends (the JAX-WS fuzz test,
 * build included: 23.4 → 16.0 CPU-seconds). The JVM says "Picked up JAVA_TOOL_OPTIONS" on stderr.
 */
const JVM_ENV = { JAVA_TOOL_OPTIONS: '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC' };

/** Runs a build step in `cwd` with `env` added to this process's; its output is shown only when it fails. */
function build(cwd: string, command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): void {
  execFileSync(command, args, { cwd, env: { ...process.env, ...env }, stdio: 'pipe', timeout: BUILD_MS });
}

/** Compiles the stack's service into `dir`: `orders` and `Orders.wsdl` for gSOAP, the classes for JAX-WS, `orders.exe` for WCF. */
function compile(stack: BuiltStack, dir: string): void {
  switch (stack) {
    case 'jaxws': {
      const sources = readdirSync(here('./jaxws/orders/')).map((f) => join(here('./jaxws/orders/'), f));
      build(dir, 'javac', ['-nowarn', '-cp', JAXWS_CLASSPATH, '-d', dir, ...sources], JVM_ENV);
      for (const service of ['orders.Orders', 'orders.Shapes'])
        build(dir, 'wsgen', ['-cp', dir, '-d', dir, service], JVM_ENV);
      return;
    }
    case 'wcf': {
      const refs = ['-r:System.ServiceModel.dll', '-r:System.Runtime.Serialization.dll'];
      build(dir, 'mcs', ['-nologo', `-out:${join(dir, 'orders.exe')}`, ...refs, here('./wcf/OrdersService.cs')]);
      return;
    }
    case 'gsoap': {
      build(dir, 'soapcpp2', ['-1', '-S', '-L', '-x', '-I/usr/share/gsoap/import', here('./gsoap/orders.h')]);
      const sources = [here('./gsoap/server.cpp'), 'soapC.cpp', 'soapServer.cpp'];
      build(dir, 'g++', ['-O0', '-o', 'orders', '-I.', ...sources, '-lgsoap++']);
      return;
    }
  }
}

/** The stacks with something to compile (spyne's service is a Python script). */
type BuiltStack = Exclude<Stack, 'spyne'>;

/** The folder with the stack's compiled service, built by the first caller of the run. Read-only for the callers: the run removes it. */
export function builtStack(stack: BuiltStack): Promise<string> {
  const fallback = (): string => mkdtempSync(join(tmpdir(), 'smskit-stacks-'));
  return oncePerRun(`stack-${stack}`, `the ${stack} build`, fallback, (dir) => {
    compile(stack, dir);
    return dir;
  });
}

/** Starts the JAX-WS service (its document and rpc endpoints) from its build. */
export function startJaxws(dir: string): Promise<PeerProcess> {
  return startPeer('java', ['-cp', `${dir}:${JAXWS_CLASSPATH}`, 'orders.Main'], {
    env: JVM_ENV,
    // JAX-WS RI builds an endpoint's WSDL on its first request, seconds on a busy machine: each
    // is asked for here, with start-up's patience, so a test's own read (10 s) meets a warm peer.
    ready: (url) => ['orders-rpc', 'orders', 'shapes'].map((name) => `${url}/${name}?wsdl`),
  });
}

export function startGsoap(dir: string): Promise<PeerProcess> {
  return startPeer(join(dir, 'orders'), [join(dir, 'Orders.wsdl')], { ready: (url) => `${url}?wsdl` });
}

export function startWcf(dir: string): Promise<PeerProcess> {
  return startPeer('mono', [join(dir, 'orders.exe')], { ready: (url) => `${url}?wsdl` });
}

async function started(stack: Stack): Promise<PeerProcess> {
  switch (stack) {
    case 'spyne':
      return startPeer(pythonWith('spyne, lxml') ?? 'python3', [here('./spyne/orders_service.py')], {
        ready: (url) => `${url}?wsdl`,
      });
    case 'jaxws':
      return startJaxws(await builtStack('jaxws'));
    case 'wcf':
      return startWcf(await builtStack('wcf'));
    case 'gsoap':
      return startGsoap(await builtStack('gsoap'));
  }
}

export async function startStack(stack: Stack): Promise<RunningStack> {
  const peer = await started(stack);
  const services =
    stack === 'jaxws'
      ? ['orders', 'orders-rpc'].map((name) => ({
          name,
          endpoint: `${peer.url}/${name}`,
          wsdl: `${peer.url}/${name}?wsdl`,
        }))
      : [{ name: 'orders', endpoint: peer.url, wsdl: `${peer.url}?wsdl` }];
  return { services, close: () => peer.close() };
}
