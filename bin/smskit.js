#!/usr/bin/env node
// The `smskit` command. The toolkit is written in TypeScript and runs from source through tsx's
// loader — unless dist/ holds a bundle built from exactly the current sources
// (scripts/build-cli.mjs, run by `npm install`), which starts without the loader (~0.4 s less).
//
// Fresh means: dist/manifest.json lists every file that went into the bundle with its mtime and
// size at build time, and each still has both. Any difference, a missing file or an unreadable
// manifest selects tsx; never stale code. Limit: a file *added* since the build is not seen, so
// a new file that changes how an unchanged import resolves (say foo.js beside foo.ts) is missed;
// every other new module is only reachable through an edited, hence stale, importer.
// SMSKIT_NO_BUNDLE=1 forces tsx; SMSKIT_DEBUG_LOADER=1 prints the choice to stderr.
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('../', import.meta.url);
const dist = new URL('dist/', root);
// Plain path strings for the per-file checks: a URL per manifest entry cost ~5 ms a start.
const rootPath = fileURLToPath(root);

/** Returns undefined when the bundle can be used, else why not. */
function bundleRejection() {
  if (process.env.SMSKIT_NO_BUNDLE === '1') return 'SMSKIT_NO_BUNDLE=1';
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(new URL('manifest.json', dist), 'utf8'));
  } catch {
    return 'no readable dist/manifest.json';
  }
  if (manifest?.format !== 1 || typeof manifest.entry !== 'string' || !Array.isArray(manifest.files) || manifest.files.length === 0) {
    return 'unknown manifest format';
  }
  for (const file of manifest.files) {
    const stat = statSync(rootPath + file.path, { throwIfNoEntry: false });
    if (!stat) return `${file.path} is gone`;
    if (stat.mtimeMs !== file.mtimeMs || stat.size !== file.size) return `${file.path} changed since the build`;
  }
  return undefined;
}

const rejection = bundleRejection();
const debug = process.env.SMSKIT_DEBUG_LOADER === '1';
if (rejection === undefined) {
  if (debug) process.stderr.write('loader: bundle\n');
  // Stack traces (--verbose) then name the TypeScript sources rather than dist/ chunks.
  if (process.argv.includes('--verbose')) process.setSourceMapsEnabled(true);
  await import(new URL('cli.mjs', dist).href);
} else {
  if (debug) process.stderr.write(`loader: tsx (${rejection})\n`);
  const { register } = await import('tsx/esm/api');
  register();
  await import('./cli.ts');
}
