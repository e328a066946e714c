/**
 * How to start a worker thread's module from the module that starts it: the `.mjs` entry beside
 * it in the CLI bundle (each thread is an entry of its own, scripts/build-cli.mjs), or in a clone
 * its TypeScript source, loaded through tsx's API (the thread has no loader of its own).
 *
 * SMSKIT_THREAD_BUNDLE names a CLI bundle folder (dist/cli) built from the same sources whose
 * thread entries a process running the sources starts instead: the test suite sets it after its
 * global setup made the bundle fresh. A thread through tsx costs ~0.3 CPU-seconds to start (tsx's
 * loader and its hooks thread, in every thread), and the suite starts hundreds.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface ThreadEntry {
  readonly source: string | URL;
  readonly eval: boolean;
}

/** `callerUrl` is the starter's import.meta.url; the names are relative to it (bundled, then source). */
export function threadEntry(callerUrl: string, bundledName: string, sourceName: string): ThreadEntry {
  const bundled = new URL(bundledName, callerUrl);
  if (callerUrl.endsWith('.mjs') && existsSync(fileURLToPath(bundled))) return { source: bundled, eval: false };
  const prebuilt = process.env.SMSKIT_THREAD_BUNDLE;
  if (prebuilt !== undefined && prebuilt !== '')
    return { source: pathToFileURL(join(prebuilt, bundledName)), eval: false };
  const source = new URL(sourceName, callerUrl).href;
  const api = pathToFileURL(tsxApiPath()).href;
  const code = `import(${JSON.stringify(api)}).then(({ tsImport }) => tsImport(${JSON.stringify(source)}, ${JSON.stringify(source)}))`;
  return { source: code, eval: true };
}

/** tsx's ESM API (its package's "./esm/api" import export), as a file a thread can import. */
function tsxApiPath(): string {
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as {
    exports: Record<string, { import: { default: string } }>;
  };
  return join(dirname(manifest), exports['./esm/api']!.import.default);
}
