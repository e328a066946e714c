/**
 * The bench's child processes run as one esbuild bundle each, the form `smskit serve` runs in
 * (bin/smskit.js loads the CLI bundle), built from the TypeScript sources of their own checkout.
 * Not under tsx: its transform wraps every function in a `__name(…)` call (keepNames), so it
 * measures code that differs from what ships. Not from dist/, which a clone may lack or hold
 * from an older build. Packages stay external (resolved from node_modules); the package's own
 * `smskit/…` imports, which the generated code uses, resolve to that checkout's sources.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

/** `smskit/runtime` and the others, through package.json's `smskit-source` export condition. */
function sourceSelfImports(root: string): Plugin {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    exports: Record<string, string | Record<string, string>>;
  };
  return {
    name: 'smskit-source',
    setup(b) {
      b.onResolve({ filter: /^smskit\// }, (args) => {
        const entry = manifest.exports[`.${args.path.slice('smskit'.length)}`];
        const source = typeof entry === 'object' ? entry['smskit-source'] : undefined;
        if (source === undefined) return { errors: [{ text: `no smskit-source export for ${args.path}` }] };
        return { path: join(root, source) };
      });
    },
  };
}

/**
 * Each module keeps its own `import.meta.url` (children find the WSDL beside their source), which
 * a bundle would otherwise turn into the bundle file's.
 */
function ownModuleUrls(): Plugin {
  return {
    name: 'own-module-urls',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        if (!source.includes('import.meta.url')) return undefined;
        const url = JSON.stringify(pathToFileURL(args.path).href);
        return { contents: source.replaceAll('import.meta.url', url), loader: 'ts' };
      });
    },
  };
}

export interface BundleOptions {
  /** The checkout the module and its imports come from. */
  readonly root: string;
  /** Where the bundle is written: a folder under some node_modules, so external packages resolve. */
  readonly outDir: string;
  /** Plugins that run before the bundle's own (bench/ablate-server.ts patches sources with one). */
  readonly plugins?: readonly Plugin[];
}

/** Bundles `entry` (a path inside `root`) and returns the bundle's path. */
export async function bundleModule(entry: string, options: BundleOptions): Promise<string> {
  const name = relative(options.root, entry).replaceAll('/', '_').replace(/\.ts$/, '');
  const key = createHash('sha256').update(options.root).digest('hex').slice(0, 8);
  const outfile = join(options.outDir, `${name}-${key}.mjs`);
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    plugins: [...(options.plugins ?? []), sourceSelfImports(options.root), ownModuleUrls()],
    logLevel: 'warning',
  });
  return outfile;
}

/** A fresh folder for bundles under `repoRoot`'s node_modules/.cache, and its removal. */
export function bundleFolder(repoRoot: string, label: string): { dir: string; remove(): void } {
  const dir = join(repoRoot, 'node_modules', '.cache', `smskit-${label}-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
