/**
 * Vitest global setup: the CLI tests run `bin/smskit.js` as shipped, i.e. the esbuild bundle in
 * dist/cli/, never the sources through tsx. The bundle is rebuilt here only when the shim itself
 * says it is stale (a rebuild removes dist/cli/ first, which would break another test run using
 * it), and every test process gets SMSKIT_REQUIRE_BUNDLE=1 (vitest.config.ts), so a CLI run that
 * would have fallen back to tsx fails instead. Once the bundle is known fresh, the processes of a
 * run are told so (SMSKIT_BUNDLE_VERIFIED, read by bin/smskit.js): each command then skips the
 * shim's ~800 stats, ~18 ms of CPU a start. Not in watch mode, where sources change between
 * reruns: there every command checks for itself, and a stale bundle fails the CLI tests.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

const root = fileURLToPath(new URL('../../', import.meta.url));

function loaderChoice(): string {
  const env: NodeJS.ProcessEnv = { ...process.env, SMSKIT_DEBUG_LOADER: '1' };
  delete env.SMSKIT_NO_BUNDLE;
  delete env.SMSKIT_REQUIRE_BUNDLE;
  delete env.SMSKIT_BUNDLE_VERIFIED;
  const run = spawnSync(process.execPath, ['bin/smskit.js', '--version'], { cwd: root, env, encoding: 'utf8' });
  return /^loader: .*$/m.exec(run.stderr)?.[0] ?? `no loader line (exit ${run.status}): ${run.stderr.trim()}`;
}

export default function setup(project: TestProject): void {
  if (loaderChoice() !== 'loader: bundle') {
    const build = spawnSync(process.execPath, ['scripts/build-cli.mjs'], { cwd: root, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`cannot build the CLI bundle: ${build.stderr.trim()}`);
    const after = loaderChoice();
    if (after !== 'loader: bundle') throw new Error(`the CLI bundle is still not used after a build: ${after}`);
  }
  if (!project.globalConfig.watch) process.env.SMSKIT_BUNDLE_VERIFIED = verifiedBuild();
}

/** The build the shim found fresh, as bin/smskit.js names it: its manifest's path and build time. */
function verifiedBuild(): string {
  const manifest = join(root, 'dist', 'cli', 'manifest.json');
  const { builtAt } = JSON.parse(readFileSync(manifest, 'utf8')) as { builtAt: string };
  return `${manifest}@${builtAt}`;
}
