/**
 * Child process for the hostile-target suite: calls SMSSend with the generated client on each
 * target given in argv[2] (JSON: { targets: [{ kind, url }], timeoutMs, maxResponseBytes }),
 * all at once, and prints one JSON line per target: how the call ended and how long it took.
 * A child of its own, so that its peak RSS measures the client alone.
 */
import { ServiceAPIClient } from '../../generated/service-api/client.js';

export interface ClientResult {
  readonly kind: string;
  readonly outcome: 'resolved' | 'rejected';
  readonly errorName?: string;
  readonly code?: string;
  readonly message?: string;
  readonly ms: number;
}

interface ChildInput {
  readonly targets: readonly { readonly kind: string; readonly url: string }[];
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
}

async function callOnce(kind: string, url: string, input: ChildInput): Promise<ClientResult> {
  const client = new ServiceAPIClient({
    url,
    binding: 'soap11',
    timeoutMs: input.timeoutMs,
    maxResponseBytes: input.maxResponseBytes,
  });
  const started = performance.now();
  try {
    await client.SMSSend({
      keyword: 'KW',
      emailAddress: 'a@example.com',
      password: 'pw',
      smsto: '+15551234567',
      carrierCode: 'att',
      smsmsg: 'hello',
    });
    return { kind, outcome: 'resolved', ms: Math.round(performance.now() - started) };
  } catch (error) {
    const e = error as Error & { code?: unknown };
    return {
      kind,
      outcome: 'rejected',
      errorName: e.name,
      code: String(e.code),
      message: e.message.split('\n')[0]!.slice(0, 200),
      ms: Math.round(performance.now() - started),
    };
  } finally {
    // A call cut short leaves nothing to wait for; a hostile peer may hold an idle socket open.
    void client.close().catch(() => {});
  }
}

const input = JSON.parse(process.argv[2]!) as ChildInput;
const results = await Promise.all(input.targets.map((t) => callOnce(t.kind, t.url, input)));
for (const result of results) process.stdout.write(`${JSON.stringify(result)}\n`);
