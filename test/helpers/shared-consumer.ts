/**
 * One packed and installed package for every test file of a run that needs a consumer project
 * (the doc-run parts, the package test): packing builds the library (~15 s) and the install
 * takes ~10 s more, once instead of once per file. The first file to ask does the work; the
 * others wait for its result. Each file still makes its own project folder (its own package.json,
 * sources and output) with `node_modules` linked to the shared install, as the doc-run suite
 * always did for its documents: nothing the tests run writes into `node_modules`.
 *
 * The folder comes from the global setup test/setup/shared-consumer.ts, which removes it after
 * the run; without it (a config that does not name the setup) each file installs in its own
 * `fallback` folder, as before.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { inject } from 'vitest';
import { repoRoot } from './cli.js';
import {
  installOrOffline,
  NPM,
  offlineReason,
  ok,
  packWorkingTree,
  run,
  runInstallScripts,
  versionOf,
} from './consumer-project.js';
import { waitFor } from './wait-for.js';

/** A project made by `npm init -y` and `npm pkg set type=module`, with the tarball, the compiler and the Node types installed, and a copy of the tarball. */
export interface ConsumerTemplate {
  readonly template: string;
  readonly tarball: string;
}

type Outcome = { readonly installed: ConsumerTemplate } | { readonly offline: string } | { readonly error: string };

/** The bound on waiting for another file's install: a hang, not a slow machine, reaches it. */
const WAIT_MS = 600_000;

/**
 * The shared install, made now or by another file. Returns the skip line for `group` when npm
 * could not reach the registry (outside CI only; it is printed here), else the template.
 */
export async function sharedConsumer(group: string, fallback: string): Promise<ConsumerTemplate | { skip: string }> {
  const dir = inject('sharedConsumerDir') ?? fallback;
  mkdirSync(dir, { recursive: true });
  const result = join(dir, 'outcome.json');
  let outcome: Outcome;
  if (claim(dir)) {
    outcome = installTemplate(dir);
    writeFileSync(result, JSON.stringify(outcome));
  } else {
    await waitFor('the shared consumer install (made by another test file)', () => existsSync(result), {
      timeoutMs: WAIT_MS,
      pollMs: 200,
    });
    outcome = JSON.parse(readFileSync(result, 'utf8')) as Outcome;
  }
  if ('error' in outcome) throw new Error(`the shared consumer install failed: ${outcome.error}`);
  if ('installed' in outcome) return outcome.installed;
  const skip = offlineReason(group, outcome.offline);
  console.warn(skip);
  return { skip };
}

/** True for the one caller that makes the install: creating a folder either succeeds or finds it there. */
function claim(dir: string): boolean {
  try {
    mkdirSync(join(dir, 'claimed'));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** What README.md tells a user to do: a new project, ESM, the tarball, a compiler. */
function installTemplate(dir: string): Outcome {
  try {
    const template = join(dir, 'template');
    mkdirSync(template);
    const tarball = process.env.SMSKIT_CONSUMER_TARBALL ?? packWorkingTree(dir);
    ok(run(NPM, ['init', '-y'], template), 'npm init -y');
    ok(run(NPM, ['pkg', 'set', 'type=module'], template), 'npm pkg set type=module');
    // The same compiler and Node types as the repo: they are in npm's cache already.
    const typescript = `typescript@${versionOf(join(repoRoot, 'node_modules', 'typescript'))}`;
    const nodeTypes = `@types/node@${versionOf(join(repoRoot, 'node_modules', '@types', 'node'))}`;
    const offline = installOrOffline(template, [tarball, typescript, nodeTypes]);
    if (offline !== undefined) return { offline };
    runInstallScripts(template);
    cpSync(tarball, join(template, basename(tarball)));
    return { installed: { template, tarball } };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}
