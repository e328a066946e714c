#!/usr/bin/env node
/**
 * Builds the prebuilt CLI bundle that `bin/smskit.js` starts from when it is fresh, so the
 * command does not pay for tsx's loader (about 0.4 s of every run on a 2-core machine).
 *
 *   node scripts/build-cli.mjs [--out-dir <dir>]      (default: <repo>/dist/cli)
 *
 * Output: <out-dir>/cli.mjs, one chunk per lazily imported command module (code splitting keeps
 * every `await import(...)` in bin/commands/ lazy), and <out-dir>/manifest.json: every source
 * file that went into the bundle with the mtime and size it had when esbuild read it, and its
 * sha256. In a clone the shim compares mtime+size with fs.statSync and falls back to tsx on any
 * difference; the published package ships no sources, and its shim always starts the bundle.
 *
 * Plain .mjs on purpose: it runs from `npm install` (prepare) before anything else exists.
 * node_modules stay external where they must (better-sqlite3 is native): they are resolved at
 * run time from the package's own dependencies, so the manifest does not need to cover them.
 * Modules find the package's own files (package.json, wsdl/) by walking up from their URL
 * (bin/package-files.ts), so the out dir may sit at any depth.
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, version as esbuildVersion } from 'esbuild';

export const MANIFEST_NAME = 'manifest.json';
export const MANIFEST_FORMAT = 1;
/** Where the shim (bin/smskit.js) looks for the bundle, relative to the package root. */
export const DEFAULT_OUT_DIR = 'dist/cli';
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Files that shape the bundle without being modules in it. */
const BUILD_INPUTS = ['package.json', 'tsconfig.json', 'scripts/build-cli.mjs'];
export const UNDICI_ENTRY = 'scripts/undici-entry.cjs';
const LOADERS = { '.ts': 'ts', '.mts': 'ts', '.cts': 'ts', '.js': 'js', '.mjs': 'js', '.cjs': 'js', '.json': 'json' };

/**
 * Dependencies that stay in node_modules: native code (better-sqlite3), and pg, an optional
 * dependency loaded only for a postgres:// database (it may be absent; it also requires the
 * optional pg-native, which a bundler cannot resolve). The pure-JS packages
 * the commands load (yargs, undici, saxes, diff) are bundled: resolving and reading their
 * hundreds of files was ~0.15 s of each run. The recorder below puts their files in the
 * manifest too, so an `npm install` that changes them makes the bundle stale. The sources
 * import ts-morph only for types, so nothing of it reaches the bundle.
 */
const KEEP_EXTERNAL = ['better-sqlite3', 'pg'];
/** The package.json "exports" condition that maps the package's own `smskit/*` imports to source. */
export const SOURCE_CONDITION = 'smskit-source';

class BuildError extends Error {
  code = 'CLI_BUILD';
}

/** Reads one file, taking mtime and size from the same descriptor before the read: a write after
 *  the stat makes the manifest stale (safe), never the reverse. */
function readRecorded(abs) {
  const fd = openSync(abs, 'r');
  try {
    const stat = fstatSync(fd);
    const bytes = readFileSync(fd);
    return { stat, bytes };
  } finally {
    closeSync(fd);
  }
}

function record(root, abs, { stat, bytes }) {
  return {
    path: relative(root, abs).split(sep).join('/'),
    mtimeMs: stat.mtimeMs,
    size: stat.size,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}

/** esbuild plugin: loads every source file itself so the manifest records exactly what was read. */
function recordInputs(root, recorded) {
  return {
    name: 'record-inputs',
    setup(b) {
      b.onLoad({ filter: /\.[cm]?[jt]s$|\.json$/ }, (args) => {
        if (args.namespace !== 'file') return undefined;
        const loader = LOADERS[extname(args.path)];
        if (!loader) throw new BuildError(`no loader for ${args.path}`);
        const read = readRecorded(args.path);
        recorded.set(args.path, record(root, args.path, read));
        return { contents: deferSegmenter(args.path, read.bytes), loader };
      });
    },
  };
}

const STRING_WIDTH = /[\\/]node_modules[\\/](?:.+[\\/])?string-width[\\/]index\.js$/;
const EAGER_SEGMENTER = 'const segmenter = new Intl.Segmenter();';
const LAZY_SEGMENTER =
  'let madeSegmenter; const segmenter = { segment: (text) => (madeSegmenter ??= new Intl.Segmenter()).segment(text) };';

/**
 * string-width (yargs' help layout) makes an Intl.Segmenter as it loads: ~25 ms of ICU start-up
 * at every start of the command, for help text most runs never print. In the bundle it is made
 * at its first use instead, with the same results. A version without that line is left as is.
 */
function deferSegmenter(path, bytes) {
  if (!STRING_WIDTH.test(path)) return bytes;
  const text = bytes.toString('utf8');
  return text.includes(EAGER_SEGMENTER) ? text.replace(EAGER_SEGMENTER, LAZY_SEGMENTER) : bytes;
}

/**
 * esbuild plugin: the package's imports of itself (generated/ imports `smskit/runtime`) are
 * source, not node_modules: resolve them through package.json "exports" (its source condition)
 * and bundle them, or the bundle would load a second copy of the runtime from dist/.
 */
function bundleSelfReferences(root) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const exportsMap = pkg.exports && typeof pkg.exports === 'object' ? pkg.exports : {};
  const escaped = pkg.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return {
    name: 'bundle-self-references',
    setup(b) {
      b.onResolve({ filter: new RegExp(`^${escaped}(/|$)`) }, (args) => {
        const subpath = `.${args.path.slice(pkg.name.length)}`;
        const entry = exportsMap[subpath];
        const target = typeof entry === 'string' ? entry : entry?.[SOURCE_CONDITION];
        if (typeof target !== 'string')
          throw new BuildError(
            `${args.path} (from ${args.importer}) has no "${SOURCE_CONDITION}" entry in package.json "exports"`,
          );
        return { path: resolve(root, target) };
      });
    },
  };
}

/** esbuild plugin: `undici` resolves to scripts/undici-entry.cjs (only what the sources use). */
function slimUndici(root) {
  return {
    name: 'slim-undici',
    setup(b) {
      b.onResolve({ filter: /^undici$/ }, () => ({ path: join(root, UNDICI_ENTRY) }));
    },
  };
}

/**
 * Bundles <root>/bin/cli.ts into outDir and writes the manifest. Returns the manifest.
 * The previous contents of outDir are removed first, so no stale chunk survives a rebuild.
 */
export async function buildCli({ root = ROOT, outDir = join(root, DEFAULT_OUT_DIR) } = {}) {
  root = resolve(root);
  outDir = resolve(outDir);
  const recorded = new Map();
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const result = await build({
    absWorkingDir: root,
    // The worker threads are started from files of their own (service/threads/thread-entry.ts).
    entryPoints: {
      cli: 'bin/cli.ts',
      'writer-thread': 'service/store/sqlite/writer-thread.ts',
      'callback-thread': 'service/callbacks/sender-thread.ts',
    },
    outdir: outDir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Node 20 has RegExp's v flag: kept as literals, the Unicode-set patterns of yargs' help
    // layout (string-width) are compiled when first used, not by new RegExp at every start.
    supported: { 'regexp-set-notation': true },
    external: KEEP_EXTERNAL,
    // Bundled CommonJS dependencies (undici) require node: built-ins; ESM output has no require.
    banner: {
      js: "import { createRequire as __smskitCreateRequire } from 'node:module'; const require = __smskitCreateRequire(import.meta.url);",
    },
    outExtension: { '.js': '.mjs' },
    chunkNames: '[name]-[hash]',
    sourcemap: 'linked',
    sourcesContent: false,
    tsconfig: join(root, 'tsconfig.json'),
    metafile: true,
    logLevel: 'warning',
    plugins: [bundleSelfReferences(root), slimUndici(root), recordInputs(root, recorded)],
  });
  const files = [];
  for (const input of Object.keys(result.metafile.inputs)) {
    const abs = resolve(root, input);
    const entry = recorded.get(abs);
    if (!entry) throw new BuildError(`bundle input ${input} was not loaded through the recorder`);
    files.push(entry);
  }
  for (const path of BUILD_INPUTS) {
    const abs = join(root, path);
    files.push(record(root, abs, readRecorded(abs)));
  }
  files.sort((a, b) => a.path.localeCompare(b.path));
  const manifest = {
    format: MANIFEST_FORMAT,
    entry: 'cli.mjs',
    esbuild: esbuildVersion,
    builtAt: new Date().toISOString(),
    files,
  };
  // Written last: a build that failed halfway leaves no manifest, and the shim then uses tsx.
  writeFileSync(join(outDir, MANIFEST_NAME), `${JSON.stringify(manifest, null, 1)}\n`);
  return manifest;
}

function parseArgs(argv) {
  const options = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--out-dir' && argv[i + 1] !== undefined) options.outDir = resolve(argv[++i]);
    else if (arg.startsWith('--out-dir=')) options.outDir = resolve(arg.slice('--out-dir='.length));
    else throw new BuildError(`unknown argument ${arg} (usage: build-cli.mjs [--out-dir <dir>])`);
  }
  return options;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  try {
    const options = parseArgs(process.argv.slice(2));
    const manifest = await buildCli(options);
    const outDir = options.outDir ?? join(ROOT, DEFAULT_OUT_DIR);
    const ms = Math.round(performance.now() - started);
    process.stdout.write(
      `build-cli: ${relative(process.cwd(), join(outDir, manifest.entry)) || manifest.entry} from ${manifest.files.length} files in ${ms} ms\n`,
    );
  } catch (error) {
    process.stderr.write(`build-cli: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = error instanceof BuildError ? 2 : 1;
  }
}
