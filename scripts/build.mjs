#!/usr/bin/env node
/**
 * `npm run build`: the package as users install it, in dist/.
 *
 *   dist/runtime, dist/contract, dist/generator, ...      JavaScript and .d.ts (tsconfig.build.json)
 *                                                          behind smskit/runtime, smskit/contract,
 *                                                          smskit/generator, smskit/conformance, smskit/fuzz
 *                                                          (with dist/report, the report kit
 *                                                          conformance and the diff write with)
 *   dist/cli/                                              the CLI bundle bin/smskit.js starts
 *                                                          (scripts/build-cli.mjs)
 *
 * `npm pack` and `npm publish` run it (prepack). In a clone, `npm install` builds only the CLI
 * bundle (prepare): the repo's own commands and tests import the TypeScript sources.
 *
 * Plain .mjs for the same reason as build-cli.mjs. Exit 0 built, 1 the compiler reported errors,
 * 2 the build itself could not run.
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCli, DEFAULT_OUT_DIR } from './build-cli.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Compiles the library with the project's TypeScript 7 (its native tsc: ~2 CPU-seconds where 5.9
 * took ~11; the same JavaScript, declarations differing only in quote style); returns the
 * compiler's exit status.
 */
function compileLibrary(root) {
  const typescript = createRequire(join(root, 'package.json')).resolve('typescript-7/package.json');
  const tsc = join(dirname(typescript), 'bin', 'tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

export async function build({ root = ROOT } = {}) {
  // A file left over from an earlier build (a module since renamed) would ship otherwise.
  rmSync(join(root, 'dist'), { recursive: true, force: true });
  const status = compileLibrary(root);
  if (status !== 0) return status;
  await buildCli({ root, outDir: join(root, DEFAULT_OUT_DIR) });
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  try {
    const status = await build();
    if (status === 0)
      process.stdout.write(`build: dist/ (library and CLI) in ${Math.round(performance.now() - started)} ms\n`);
    else process.stderr.write('build: the TypeScript compiler reported errors (above)\n');
    process.exitCode = status === 0 ? 0 : 1;
  } catch (error) {
    process.stderr.write(`build: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  }
}
