/**
 * Profiles one server of section 1 under 5 s of load on one binding:
 *   npx tsx bench/profile-server.ts [generated|bare|node-soap] [soap11|soap12|http-get|http-post] [profile-dir]
 * The server process writes a --cpu-prof profile into profile-dir (default bench/profiles).
 */
import type { Protocol } from '../runtime/index.js';
import { FIXED_INPUT, sendRequest } from './lib/payloads.js';
import { installCleanup, killAll, stopChild } from './lib/procs.js';
import { captureResponses, startLoadGenerator, startServer, type ServerKind } from './lib/servers.js';

installCleanup();
const kind = (process.argv[2] ?? 'generated') as ServerKind;
const binding = (process.argv[3] ?? 'soap11') as Protocol;
const dir = process.argv[4] ?? new URL('profiles', import.meta.url).pathname;
try {
  const generated = await startServer('generated');
  const responses = await captureResponses(generated.url);
  await stopChild(generated.child);
  process.env.BENCH_PROFILE = dir;
  const server = await startServer(kind, responses);
  delete process.env.BENCH_PROFILE;
  const load = await startLoadGenerator();
  const result = await load.run({
    url: server.url,
    request: sendRequest(binding, FIXED_INPUT),
    connections: 32,
    seconds: 5,
  });
  process.stdout.write(
    `${kind} ${binding}: ${Math.round(result.rps)} req/s, ${result.ok} requests; profile in ${dir}/${kind}\n`,
  );
  await Promise.all([stopChild(server.child), stopChild(load.child)]);
} finally {
  killAll();
}
