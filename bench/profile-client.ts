/**
 * Profiles one client of section 3 (default: generated) against the bare server for 5 s:
 *   npx tsx bench/profile-client.ts [generated|node-soap|undici] [profile-dir]
 * The client process writes a --cpu-prof profile into profile-dir (default bench/profiles).
 */
import { ask, forkChild, installCleanup, killAll, nextMessage, stopChild } from './lib/procs.js';
import { captureResponses, startServer } from './lib/servers.js';

installCleanup();
const kind = process.argv[2] ?? 'generated';
const dir = process.argv[3] ?? new URL('profiles', import.meta.url).pathname;
try {
  const generated = await startServer('generated');
  const bare = await startServer('bare', await captureResponses(generated.url));
  await stopChild(generated.child);
  const client = await forkChild('client.ts', [kind, bare.url], ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
  await nextMessage(client, 30_000, 'client start');
  const result = await ask<{ cps: number }>(client, { seconds: 5, callers: 32 }, 60_000, 'client run');
  process.stdout.write(`${kind}: ${Math.round(result.cps)} calls/s; profile in ${dir}\n`);
  await Promise.all([stopChild(client), stopChild(bare.child)]);
} finally {
  killAll();
}
