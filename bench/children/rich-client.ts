/**
 * One client of the rich section, in its own process: `generated` (RichServiceClient),
 * `node-soap` (soap.createClientAsync on rich.wsdl) or `undici` (a Pool sending the prebuilt
 * request bytes: the limit), calling EchoOrder or EchoShapes over SOAP 1.1.
 * argv: kind. IPC requests, answered one at a time:
 *   `{ check: url }`  -> `{ mismatch?: string }`: one call of each operation against a server
 *                        that echoes (the generated one): proves this client sends the payload
 *                        whole and reads the echo back, before anything is measured;
 *   `{ url, op, seconds, callers }` -> `{ cps, failures, error? }`.
 */
import { Pool } from 'undici';
import { RichServiceClient } from '../../test/golden/generated/asmx-rich/rich-service/index.js';
import { nodeSoapInput, RICH_OPS, RICH_PATH, RICH_WSDL, richInput, type RichOp } from '../lib/rich-payloads.js';
import { echoMismatch, firstDifference, richRequest } from '../lib/rich-wire.js';

type Call = () => Promise<unknown>;
interface Caller {
  call(op: RichOp): Call;
  /** Undefined when one call of `op` round-trips the payload whole. */
  check(op: RichOp): Promise<string | undefined>;
}

async function generatedCaller(url: string): Promise<Caller> {
  const client = new RichServiceClient({ url: url + RICH_PATH, binding: 'soap11' });
  const order = richInput('EchoOrder');
  const shapes = richInput('EchoShapes');
  const send = (op: RichOp): Promise<unknown> =>
    op === 'EchoOrder' ? client.EchoOrder(order.input) : client.EchoShapes(shapes.input);
  return {
    call: (op) => () => send(op),
    check: async (op) => firstDifference(richInput(op).output, await send(op), op),
  };
}

async function nodeSoapCaller(url: string): Promise<Caller> {
  const soap = await import('soap');
  const client = await soap.createClientAsync(RICH_WSDL.pathname, { endpoint: url + RICH_PATH });
  const inputs = new Map(RICH_OPS.map((op) => [op, nodeSoapInput(op)]));
  const send = (op: RichOp): Promise<unknown> => client[`${op}Async`](inputs.get(op)) as Promise<unknown>;
  return {
    call: (op) => () => send(op),
    // The echoing server decodes what node-soap sent with the contract: a correct echo in the
    // raw response means the request carried the payload whole; node-soap must also parse it.
    check: async (op) => {
      const [result, rawResponse] = (await send(op)) as [unknown, string];
      if (result === null || typeof result !== 'object' || !(`${op}Result` in result))
        return `node-soap read no ${op}Result`;
      return echoMismatch(op, 200, 'text/xml; charset=utf-8', rawResponse);
    },
  };
}

async function undiciCaller(url: string): Promise<Caller> {
  const pool = new Pool(url, { connections: 32, pipelining: 1 });
  const requests = new Map(
    RICH_OPS.map((op) => {
      const req = richRequest(op);
      const body = Buffer.from(req.body!);
      return [op, { req, body, headers: { ...req.headers, 'content-length': String(body.length) } }] as const;
    }),
  );
  const send = async (op: RichOp): Promise<string> => {
    const { req, body, headers } = requests.get(op)!;
    const res = await pool.request({ path: req.path, method: req.method, headers, body });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}`);
    return text;
  };
  return {
    call: (op) => () => send(op),
    check: async (op) => echoMismatch(op, 200, 'text/xml; charset=utf-8', await send(op)),
  };
}

const FACTORIES: Record<string, (url: string) => Promise<Caller>> = {
  generated: generatedCaller,
  'node-soap': nodeSoapCaller,
  undici: undiciCaller,
};
const kind = process.argv[2] ?? '';
const factory = FACTORIES[kind];
if (factory === undefined) throw new Error(`unknown client kind ${kind}`);
const callers = new Map<string, Promise<Caller>>();
const callerFor = (url: string): Promise<Caller> => callers.get(url) ?? callers.set(url, factory(url)).get(url)!;

async function check(url: string): Promise<{ mismatch?: string }> {
  const caller = await callerFor(url);
  for (const op of RICH_OPS) {
    const mismatch = await caller.check(op);
    if (mismatch !== undefined) return { mismatch: `${op}: ${mismatch}` };
  }
  return {};
}

async function run(
  call: Call,
  seconds: number,
  concurrency: number,
): Promise<{ cps: number; failures: number; error?: string }> {
  let done = 0;
  let failures = 0;
  let firstError: string | undefined;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const loop = async (): Promise<void> => {
    while (performance.now() < deadline) {
      try {
        await call();
        done++;
      } catch (error) {
        failures++;
        firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  return {
    cps: done / ((performance.now() - started) / 1000),
    failures,
    ...(firstError === undefined ? {} : { error: firstError }),
  };
}

type Request = { check: string } | { url: string; op: RichOp; seconds: number; callers: number };

async function answer(request: Request): Promise<unknown> {
  if ('check' in request) return check(request.check);
  return run((await callerFor(request.url)).call(request.op), request.seconds, request.callers);
}

process.on('message', (message) => {
  answer(message as Request).then(
    (r) => process.send!(r),
    (error: unknown) =>
      process.send!({ error: error instanceof Error ? error.message : String(error), mismatch: String(error) }),
  );
});
process.on('disconnect', () => process.exit(0));
process.once('SIGTERM', () => process.exit(0)); // a normal exit, so --cpu-prof writes its profile
process.send!({ ready: true });
