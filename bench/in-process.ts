/**
 * The generated server's JavaScript per request, without sockets: bench/children/in-process.ts,
 * bundled from this checkout (and with --before from another commit), run one process at a time
 * pinned to CPU 1, the sides alternating from run to run. The steadiest measure of a change to
 * the server's own code: the socket figures of `npm run bench` move by more between rounds than
 * such a change moves them.
 *
 *   npx tsx bench/in-process.ts [--binding soap11,soap12,http-get,http-post] [--runs 3]
 *                               [--requests 300000] [--before REF]
 *
 * A diagnostic, not part of `npm run bench`.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { checkoutBefore } from './lib/before.js';
import { bundleFolder, bundleModule } from './lib/bundle.js';
import { repoRoot } from './lib/procs.js';
import { median, roundOrder } from './lib/stats.js';

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1]! : fallback;
}

function canPin(): boolean {
  try {
    execFileSync('taskset', ['-c', '1', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const DRIVER = 'bench/children/in-process.ts';
const bindings = option('binding', 'soap11,soap12,http-get,http-post').split(',');
const runs = Number(option('runs', '3'));
const requests = option('requests', '300000');
const before = process.argv.includes('--before') ? checkoutBefore(option('before', 'HEAD')) : undefined;
const bundles = bundleFolder(repoRoot, 'in-process');
const pinned = canPin();

try {
  const sides = [{ name: 'this checkout', root: repoRoot }];
  if (before !== undefined) sides.push({ name: `before (${before.commit})`, root: before.root });
  const built = new Map<string, string>();
  // Both sides run this checkout's driver, bundled with the other tree's server code.
  if (before !== undefined) copyFileSync(join(repoRoot, DRIVER), join(before.root, DRIVER));
  for (const [i, side] of sides.entries()) {
    const outDir = join(bundles.dir, String(i));
    mkdirSync(outDir, { recursive: true });
    built.set(side.name, await bundleModule(join(side.root, DRIVER), { root: side.root, outDir }));
  }
  process.stdout.write(
    `| binding | side | µs of CPU per request, ${runs} runs of ${requests} | median |\n|---|---|---|---|\n`,
  );
  for (const binding of bindings) {
    const measured = new Map<string, number[]>();
    for (let run = 0; run < runs; run++) {
      for (const side of roundOrder(sides, run)) {
        const args = [built.get(side.name)!, binding, requests];
        const out = pinned
          ? execFileSync('taskset', ['-c', '1', process.execPath, ...args], { encoding: 'utf8' })
          : execFileSync(process.execPath, args, { encoding: 'utf8' });
        const { cpuUs } = JSON.parse(out) as { cpuUs: number };
        measured.set(side.name, [...(measured.get(side.name) ?? []), cpuUs]);
      }
    }
    for (const side of sides) {
      const values = measured.get(side.name)!;
      const shown = values.map((v) => v.toFixed(2)).join(', ');
      process.stdout.write(`| ${binding} | ${side.name} | ${shown} | ${median(values).toFixed(2)} |\n`);
    }
  }
  if (!pinned) process.stdout.write('\n(not pinned: taskset is missing)\n');
} finally {
  bundles.remove();
  before?.remove();
}
