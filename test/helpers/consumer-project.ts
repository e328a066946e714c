/**
 * A consumer project made from the packed package, the way a user makes one: `npm pack` of a copy
 * of the working tree, an empty project, `npm install` of the tarball. Shared by the package test
 * (test/package/consumer.test.ts) and the doc-run suite (test/docs/), which run in such projects.
 *
 * Offline-friendly: installs take the tarball's dependencies from npm's cache (which `npm ci` of
 * this repo filled) with --prefer-offline; callers skip with one line when npm needs the registry
 * and cannot reach it (OFFLINE). Install scripts run, except better-sqlite3's native compile
 * (about a minute): its binary is copied from the repo's own install of the same version.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { extraCaCertsAsFound } from '../setup/extra-ca-certs.js';
import { repoRoot } from './cli.js';
import { inCi } from './peers.js';

export const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
export const NPX = process.platform === 'win32' ? 'npx.cmd' : 'npx';
/** What a copy of the repo needs to pack: everything but what is never packed or rebuilt anyway. */
const NOT_COPIED = new Set(['node_modules', '.git', 'dist', 'test', 'bench', 'tmp', '.vitest']);

/** The environment of a user's shell: without the npm_* variables of an enclosing `npm test` (its prefix, its lifecycle) and without the repo's NODE_OPTIONS. */
export function npmEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  // NODE_OPTIONS carries the repo's source condition (.npmrc): a user's project has none.
  for (const [key, value] of Object.entries(process.env))
    if (!/^npm_/i.test(key) && key !== 'SMSKIT_PASSWORD' && key !== 'NODE_OPTIONS') env[key] = value;
  return { ...env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false', ...extra };
}

export interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function run(
  command: string,
  args: readonly string[],
  cwd: string,
  timeout = 180_000,
  env: NodeJS.ProcessEnv = {},
): Run {
  const result: SpawnSyncReturns<string> = spawnSync(command, args, {
    cwd,
    env: npmEnv(env),
    encoding: 'utf8',
    timeout,
    input: '',
  });
  return {
    status: result.status,
    stdout: result.stdout ?? '',
    stderr: `${result.stderr ?? ''}${result.error ? `\n${result.error.message}` : ''}`,
  };
}

/** Fails with everything the command printed, so a CI log shows why. */
export function ok(result: Run, what: string): Run {
  if (result.status !== 0)
    throw new Error(`${what} exited ${result.status}\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`);
  return result;
}

export const versionOf = (dir: string): string =>
  (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;

/** Packs a copy of the working tree (building it), so the repo's own dist/ is never rebuilt under running tests. */
export function packWorkingTree(work: string): string {
  const copy = join(work, 'source');
  mkdirSync(copy);
  for (const entry of readdirSync(repoRoot)) {
    if (!NOT_COPIED.has(entry) && !entry.endsWith('.sqlite'))
      cpSync(join(repoRoot, entry), join(copy, entry), { recursive: true });
  }
  symlinkSync(join(repoRoot, 'node_modules'), join(copy, 'node_modules'), 'dir');
  const packed = ok(run(NPM, ['pack', '--json', '--pack-destination', work], copy, 240_000), 'npm pack');
  const [info] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { filename: string }[];
  return join(work, info!.filename);
}

/** Install scripts of every installed package, by package directory. */
function installScripts(nodeModules: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name === '.bin') continue;
      const path = join(dir, entry.name);
      if (entry.name.startsWith('@')) {
        visit(path);
        continue;
      }
      const manifest = join(path, 'package.json');
      if (existsSync(manifest)) {
        const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { scripts?: Record<string, string> };
        const scripts = ['preinstall', 'install', 'postinstall'].filter((name) => pkg.scripts?.[name] !== undefined);
        if (scripts.length > 0 || existsSync(join(path, 'binding.gyp'))) found.set(path, scripts);
      }
      if (existsSync(join(path, 'node_modules'))) visit(join(path, 'node_modules'));
    }
  };
  visit(nodeModules);
  return found;
}

/** Runs what --ignore-scripts skipped; better-sqlite3's compile becomes a copy of the repo's binary when the versions match. */
export function runInstallScripts(project: string): void {
  const nodeModules = join(project, 'node_modules');
  const rebuild: string[] = [];
  for (const dir of installScripts(nodeModules).keys()) {
    const name = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string }).name;
    const repoCopy = join(repoRoot, 'node_modules', name);
    const binary = join('build', 'Release', 'better_sqlite3.node');
    if (name === 'better-sqlite3' && existsSync(join(repoCopy, binary)) && versionOf(repoCopy) === versionOf(dir)) {
      mkdirSync(join(dir, 'build', 'Release'), { recursive: true });
      copyFileSync(join(repoCopy, binary), join(dir, binary));
    } else {
      rebuild.push(name);
    }
  }
  if (rebuild.length > 0) ok(run(NPM, ['rebuild', ...rebuild], project, 300_000), `npm rebuild ${rebuild.join(' ')}`);
}

/** npm's own words for "the registry was needed and could not be reached". */
export const OFFLINE = /ENOTCACHED|EAI_AGAIN|ENOTFOUND|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH/;

/**
 * Installs `packages` (the tarball, the compiler, the Node types) into `project` as README.md
 * tells a user to, from npm's cache where it can. A registry hiccup gets one more try. When npm
 * still cannot reach the registry, outside CI the group skips: the reason is returned and said
 * in one line. In CI, where .ci/run fills the cache, any install error fails.
 */
export function installConsumer(project: string, packages: readonly string[], group: string): string | undefined {
  const offline = installOrOffline(project, packages);
  if (offline === undefined) return undefined;
  const reason = offlineReason(group, offline);
  console.warn(reason);
  return reason;
}

/** The install of installConsumer; npm's error code when it could not reach the registry (outside CI only). */
export function installOrOffline(project: string, packages: readonly string[]): string | undefined {
  const args = ['install', '--prefer-offline', '--ignore-scripts', '--no-package-lock', ...packages];
  // The registry may be behind a proxy whose CA only the machine's extra certificates hold.
  const env = extraCaCertsAsFound();
  let install = run(NPM, args, project, 300_000, env);
  if (install.status !== 0) install = run(NPM, args, project, 300_000, env);
  const offline = install.status === 0 ? undefined : OFFLINE.exec(install.stderr)?.[0];
  if (offline === undefined || inCi) {
    ok(install, `npm install of the tarball (tried twice${inCi ? '; in CI a registry error fails too' : ''})`);
    return undefined;
  }
  return offline;
}

/** The one line a group skips with when npm could not reach the registry (`offline`: npm's error code). */
export const offlineReason = (group: string, offline: string): string =>
  `${group}: skipped — npm install needs the registry for what its cache lacks, and it is unreachable (${offline}, twice)`;

/** npm's reason for skipping everything: it cannot even run. */
export function npmSkipReason(): string | undefined {
  const version = spawnSync(NPM, ['--version'], { encoding: 'utf8', env: npmEnv() });
  return version.status === 0
    ? undefined
    : 'skipped: npm is not runnable here, so the package cannot be packed and installed';
}
