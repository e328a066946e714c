/**
 * One packed and installed package for every test file of a run that needs a consumer project
 * (the doc-run parts, the package test): packing builds the library (~15 s) and the install
 * takes ~10 s more, once instead of once per file (test/helpers/once-per-run.ts). Each file still
 * makes its own project folder (its own package.json, sources and output) with `node_modules`
 * linked to the shared install, as the doc-run suite always did for its documents: nothing the
 * tests run writes into `node_modules`.
 */
import { cpSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
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
import { oncePerRun } from './once-per-run.js';

/** A project made by `npm init -y` and `npm pkg set type=module`, with the tarball, the compiler and the Node types installed, and a copy of the tarball. */
export interface ConsumerTemplate {
  readonly template: string;
  readonly tarball: string;
}

type Outcome = { readonly installed: ConsumerTemplate } | { readonly offline: string };

/**
 * The shared install, made now or by another file. Returns the skip line for `group` when npm
 * could not reach the registry (outside CI only; it is printed here), else the template.
 */
export async function sharedConsumer(group: string, fallback: string): Promise<ConsumerTemplate | { skip: string }> {
  const outcome = await oncePerRun('consumer', 'the shared consumer install', () => fallback, installTemplate);
  if ('installed' in outcome) return outcome.installed;
  const skip = offlineReason(group, outcome.offline);
  console.warn(skip);
  return { skip };
}

/** What README.md tells a user to do: a new project, ESM, the tarball, a compiler. */
function installTemplate(dir: string): Outcome {
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
}
