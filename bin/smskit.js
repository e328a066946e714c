#!/usr/bin/env node
// The `smskit` command. It runs compiled JavaScript: dist/cli/, an esbuild bundle of bin/cli.ts
// (scripts/build-cli.mjs). An installed package ships that bundle and no TypeScript sources, so
// it always starts the bundle.
//
// In a clone the sources change under it, so the bundle is used only while it was built from
// exactly the current sources: dist/cli/manifest.json lists every file that went into it with its
// mtime and size at build time, and each must still have both. Any difference, a missing file or
// an unreadable manifest runs the sources through tsx's loader instead (~0.4 s slower); never
// stale code. Limit: a file *added* since the build is not seen, so a new file that changes how
// an unchanged import resolves (say foo.js beside foo.ts) is missed; every other new module is
// only reachable through an edited, hence stale, importer.
// SMSKIT_NO_BUNDLE=1 forces tsx; SMSKIT_DEBUG_LOADER=1 prints the choice to stderr;
// SMSKIT_REQUIRE_BUNDLE=1 (set by the test suite, so every CLI test runs what is shipped) refuses
// to fall back to tsx and exits 2 naming why the bundle cannot be used.
// SMSKIT_BUNDLE_VERIFIED=<manifest path>@<its builtAt> is a parent's word that it has just checked
// this very build (the test suite's setup does, then starts ~700 commands): the ~800 stats, ~18 ms
// a start, are skipped. Any other build (a rebuild, another copy) is checked as usual.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('../', import.meta.url);
const bundle = new URL('dist/cli/', root);
// Plain path strings for the per-file checks: a URL per manifest entry cost ~5 ms a start.
const rootPath = fileURLToPath(root);
const debug = process.env.SMSKIT_DEBUG_LOADER === '1';
let checkedByParent = false;

/** What SMSKIT_BUNDLE_VERIFIED holds for this build: the manifest's path and build time. */
function verifiedBuild(manifest) {
  return `${fileURLToPath(new URL('manifest.json', bundle))}@${manifest.builtAt}`;
}

/** Returns undefined when the bundle can be used, else why not. */
function bundleRejection() {
  if (process.env.SMSKIT_NO_BUNDLE === '1') return 'SMSKIT_NO_BUNDLE=1';
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(new URL('manifest.json', bundle), 'utf8'));
  } catch {
    return 'no readable dist/cli/manifest.json';
  }
  if (
    manifest?.format !== 1 ||
    typeof manifest.entry !== 'string' ||
    !Array.isArray(manifest.files) ||
    manifest.files.length === 0
  ) {
    return 'unknown manifest format';
  }
  if (typeof manifest.builtAt === 'string' && process.env.SMSKIT_BUNDLE_VERIFIED === verifiedBuild(manifest)) {
    checkedByParent = true;
    return undefined;
  }
  for (const file of manifest.files) {
    const stat = statSync(rootPath + file.path, { throwIfNoEntry: false });
    if (!stat) return `${file.path} is gone`;
    if (stat.mtimeMs !== file.mtimeMs || stat.size !== file.size) return `${file.path} changed since the build`;
  }
  return undefined;
}

async function startBundle(why) {
  if (debug) process.stderr.write(`loader: bundle${why}\n`);
  // Stack traces (--verbose) then name the TypeScript sources rather than dist/ chunks.
  if (process.argv.includes('--verbose')) process.setSourceMapsEnabled(true);
  await import(new URL('cli.mjs', bundle).href);
}

/**
 * The sources through tsx, with the "smskit-source" export condition added so the package's own
 * `smskit/runtime` imports (generated/) resolve to runtime/index.ts rather than to dist/. A
 * condition cannot be added to a running process by flag, hence a resolve hook.
 */
async function startSources(rejection) {
  if (debug) process.stderr.write(`loader: tsx (${rejection})\n`);
  const { register } = await import('tsx/esm/api');
  register();
  const { register: registerHook } = await import('node:module');
  const hook =
    'export function resolve(specifier, context, next) { return next(specifier, { ...context, conditions: [...context.conditions, "smskit-source"] }); }';
  registerHook(`data:text/javascript,${encodeURIComponent(hook)}`);
  await import('./cli.ts');
}

if (!existsSync(new URL('bin/cli.ts', root))) {
  if (!existsSync(new URL('cli.mjs', bundle))) {
    process.stderr.write(
      `smskit: the package is incomplete: ${fileURLToPath(new URL('cli.mjs', bundle))} is missing (reinstall smskit)\n`,
    );
    process.exitCode = 2;
  } else {
    await startBundle(' (installed package)');
  }
} else {
  const rejection = bundleRejection();
  if (rejection === undefined)
    await startBundle(checkedByParent ? ' (checked by the parent: SMSKIT_BUNDLE_VERIFIED)' : '');
  else if (process.env.SMSKIT_REQUIRE_BUNDLE === '1' && process.env.SMSKIT_NO_BUNDLE !== '1') {
    process.stderr.write(
      `smskit: SMSKIT_REQUIRE_BUNDLE=1 and the CLI bundle is stale (${rejection}): run node scripts/build-cli.mjs\n`,
    );
    process.exitCode = 2;
  } else await startSources(rejection);
}
