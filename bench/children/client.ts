/**
 * One client under test, in its own process, calling SMSSend (SOAP 1.1) on the bare server with
 * `callers` concurrent loops: `generated` (ServiceAPIClient), `node-soap` (soap.createClientAsync)
 * or `undici` (a Pool sending the same prebuilt bytes: the limit).
 * argv: kind url [ca-file]. IPC request `{ seconds, callers }` -> `{ cps, failures }`.
 * With a CA file (an https:// url), `generated` takes it as `tls.ca` and `undici` as `connect.ca`.
 */
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';
import { ServiceAPIClient } from '../../generated/service-api/index.js';
import { FIXED_INPUT, SERVICE_PATH, sendRequest } from '../lib/payloads.js';

type Call = () => Promise<unknown>;

async function makeCall(kind: string, url: string, ca: Buffer | undefined): Promise<Call> {
  const endpoint = url + SERVICE_PATH;
  if (kind === 'generated') {
    const client = new ServiceAPIClient({
      url: endpoint,
      binding: 'soap11',
      connections: 32,
      ...(ca === undefined ? {} : { tls: { ca } }),
    });
    return () => client.SMSSend(FIXED_INPUT);
  }
  if (kind === 'node-soap') {
    const soap = await import('soap');
    const wsdl = new URL('../../wsdl/serviceapi.wsdl', import.meta.url);
    const client = await soap.createClientAsync(wsdl.pathname, { endpoint });
    return () => client.SMSSendAsync(FIXED_INPUT) as Promise<unknown>;
  }
  if (kind === 'undici') {
    const pool = new Pool(url, { connections: 32, pipelining: 1, ...(ca === undefined ? {} : { connect: { ca } }) });
    const req = sendRequest('soap11', FIXED_INPUT);
    const body = Buffer.from(req.body!);
    const headers = { ...req.headers, 'content-length': String(body.length) };
    return async () => {
      const res = await pool.request({ path: req.path, method: req.method, headers, body });
      await res.body.arrayBuffer();
      if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}`);
    };
  }
  throw new Error(`unknown client kind ${kind}`);
}

async function run(call: Call, seconds: number, callers: number): Promise<{ cps: number; failures: number }> {
  let done = 0;
  let failures = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const loop = async (): Promise<void> => {
    while (performance.now() < deadline) {
      try {
        await call();
        done++;
      } catch {
        failures++;
      }
    }
  };
  await Promise.all(Array.from({ length: callers }, loop));
  return { cps: done / ((performance.now() - started) / 1000), failures };
}

const caFile = process.argv[4];
const call = await makeCall(
  process.argv[2] ?? '',
  process.argv[3] ?? '',
  caFile === undefined ? undefined : readFileSync(caFile),
);
process.on('message', (message) => {
  const { seconds, callers } = message as { seconds: number; callers: number };
  run(call, seconds, callers).then(
    (r) => process.send!(r),
    (error: unknown) => process.send!({ error: String(error) }),
  );
});
process.on('disconnect', () => process.exit(0));
process.once('SIGTERM', () => process.exit(0)); // a normal exit, so --cpu-prof writes its profile
process.send!({ ready: true });
