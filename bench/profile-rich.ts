/**
 * Profiles one server or client of the rich section for 5 s on one operation:
 *   npx tsx bench/profile-rich.ts server [generated|node-soap|bare] [EchoOrder|EchoShapes] [profile-dir]
 *   npx tsx bench/profile-rich.ts client [generated|node-soap|undici] [EchoOrder|EchoShapes] [profile-dir]
 * The profiled process writes a --cpu-prof profile into profile-dir (default bench/profiles);
 * servers are loaded by the load generator, clients call the bare server with 32 callers.
 */
import { ask, forkChild, installCleanup, killAll, nextMessage, stopChild } from './lib/procs.js';
import type { RichOp } from './lib/rich-payloads.js';
import { richRequest } from './lib/rich-wire.js';
import { exchange, startLoadGenerator, startServer, type FixedResponses, type ServerKind } from './lib/servers.js';

installCleanup();
const side = process.argv[2] ?? 'server';
const kind = process.argv[3] ?? 'generated';
const op = (process.argv[4] ?? 'EchoOrder') as RichOp;
const dir = process.argv[5] ?? new URL('profiles', import.meta.url).pathname;
const request = richRequest(op);
try {
  const generated = await startServer('generated', undefined, 'rich-server.ts');
  const captured = await exchange(generated.url, request);
  const responses: FixedResponses = {
    [request.headers.soapaction!]: { contentType: captured.contentType, body: captured.body },
  };
  await stopChild(generated.child);
  if (side === 'server') {
    process.env.BENCH_PROFILE = dir;
    const server = await startServer(kind as ServerKind, kind === 'bare' ? responses : undefined, 'rich-server.ts');
    delete process.env.BENCH_PROFILE;
    const load = await startLoadGenerator();
    const result = await load.run({ url: server.url, request, connections: 32, seconds: 5 });
    process.stdout.write(
      `${kind} server ${op}: ${Math.round(result.rps)} req/s, ${result.failures} failures; profile in ${dir}/rich-${kind}\n`,
    );
    await Promise.all([stopChild(server.child), stopChild(load.child)]);
  } else {
    const bare = await startServer('bare', responses, 'rich-server.ts');
    const client = await forkChild('rich-client.ts', [kind], ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
    await nextMessage(client, 30_000, 'client start');
    const result = await ask<{ cps: number; failures: number }>(
      client,
      { url: bare.url, op, seconds: 5, callers: 32 },
      60_000,
      'client run',
    );
    process.stdout.write(
      `${kind} client ${op}: ${Math.round(result.cps)} calls/s, ${result.failures} failures; profile in ${dir}\n`,
    );
    await Promise.all([stopChild(client), stopChild(bare.child)]);
  }
} finally {
  killAll();
}
