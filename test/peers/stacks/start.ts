/**
 * Builds and starts each genuine stack's order service (test/peers/stacks/<stack>/) in a fresh
 * temporary folder, for tests that only need it running (the fuzzer's): the service's endpoints
 * and WSDL addresses, and a close() that stops it and removes the build. The caller checks the
 * stack is installed first (test/helpers/peers.ts).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

/** Runs a build step in `cwd`; its output is shown only when it fails. */
function build(cwd: string, command: string, args: readonly string[]): void {
  execFileSync(command, args, { cwd, stdio: 'pipe', timeout: BUILD_MS });
}

async function started(stack: Stack, dir: string): Promise<PeerProcess> {
  switch (stack) {
    case 'spyne':
      return startPeer(pythonWith('spyne, lxml') ?? 'python3', [here('./spyne/orders_service.py')], {
        ready: (url) => `${url}?wsdl`,
      });
    case 'jaxws': {
      const classpath = '/usr/share/java/*';
      const sources = readdirSync(here('./jaxws/orders/')).map((f) => join(here('./jaxws/orders/'), f));
      build(dir, 'javac', ['-nowarn', '-cp', classpath, '-d', dir, ...sources]);
      build(dir, 'wsgen', ['-cp', dir, '-d', dir, 'orders.Orders']);
      return startPeer('java', ['-cp', `${dir}:${classpath}`, 'orders.Main'], {
        ready: (url) => `${url}/orders-rpc?wsdl`,
      });
    }
    case 'wcf': {
      const exe = join(dir, 'orders.exe');
      const refs = ['-r:System.ServiceModel.dll', '-r:System.Runtime.Serialization.dll'];
      build(dir, 'mcs', ['-nologo', `-out:${exe}`, ...refs, here('./wcf/OrdersService.cs')]);
      return startPeer('mono', [exe], { ready: (url) => `${url}?wsdl` });
    }
    case 'gsoap':
      build(dir, 'soapcpp2', ['-1', '-S', '-L', '-x', '-I/usr/share/gsoap/import', here('./gsoap/orders.h')]);
      build(dir, 'g++', [
        '-O0',
        '-o',
        'orders',
        '-I.',
        here('./gsoap/server.cpp'),
        'soapC.cpp',
        'soapServer.cpp',
        '-lgsoap++',
      ]);
      return startPeer(join(dir, 'orders'), [join(dir, 'Orders.wsdl')], { ready: (url) => `${url}?wsdl` });
  }
}

export async function startStack(stack: Stack): Promise<RunningStack> {
  const dir = mkdtempSync(join(tmpdir(), `smskit-${stack}-`));
  let peer: PeerProcess;
  try {
    peer = await started(stack, dir);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const services =
    stack === 'jaxws'
      ? ['orders', 'orders-rpc'].map((name) => ({
          name,
          endpoint: `${peer.url}/${name}`,
          wsdl: `${peer.url}/${name}?wsdl`,
        }))
      : [{ name: 'orders', endpoint: peer.url, wsdl: `${peer.url}?wsdl` }];
  return {
    services,
    close: async () => {
      await peer.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
