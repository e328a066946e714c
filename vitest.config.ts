import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { setAsideExtraCaCerts } from './test/setup/extra-ca-certs.js';
import { useRamTmpdir } from './test/setup/ram-tmpdir.js';
import SlowFirstSequencer from './test/setup/slow-first.js';

// Before any worker or child starts: none of them reads NODE_EXTRA_CA_CERTS's file (~45 ms a
// process), npm's installs excepted (test/setup/extra-ca-certs.ts).
setAsideExtraCaCerts();
// The run's temporary files in RAM where there is a tmpfs with room (test/setup/ram-tmpdir.ts).
useRamTmpdir();

/**
 * The repo's own `smskit/*` imports (generated code, tests) resolve to the TypeScript sources
 * through the "smskit-source" condition of package.json "exports"; a user's project has no such
 * condition and gets the compiled dist/. Setting the list replaces Vite's server defaults, so
 * they are repeated after ours.
 */
const conditions = ['smskit-source', 'module', 'node', 'development|production'];
/** The same for every child process a test starts (a service under tsx, a fuzz server): see .npmrc. */
const inherited = process.env.NODE_OPTIONS ?? '';
const nodeOptions = inherited.includes('--conditions=smskit-source')
  ? inherited
  : `${inherited} --conditions=smskit-source`.trim();

/** One more than the cores (SMSKIT_TEST_WORKERS=N overrides: 1 runs every file in turn). */
const REQUESTED_WORKERS = Number.parseInt(process.env.SMSKIT_TEST_WORKERS ?? '', 10);
const WORKERS = REQUESTED_WORKERS > 0 ? REQUESTED_WORKERS : availableParallelism() + 1;

/**
 * Folders whose test files may share a worker process, one after another, instead of each
 * starting a fresh one: importing the sources again for every file was most of their time (test/runtime
 * alone on a loaded 2-core machine: 147 s isolated, 55 s shared; test/service 515 s, 253 s). Their tests change no global
 * state they do not restore (fake timers, environment variables, the working directory: all put
 * back, or set to the same value by every file) and mock no module. A file that mocks a module
 * (vi.mock), or a folder that starts services with process-wide settings, stays isolated.
 * test/docs and test/reliability share too (2026-11-30): the doc-run parts then load TypeScript
 * and parse its declarations once per worker, not once per part (test/docs 114-118 → 104-112
 * CPU-seconds; five reliability files 21.2 → 17.3).
 */
const SHARED_WORKER = [
  'architecture',
  'cli',
  'conformance',
  'contract',
  'docs',
  'e2e',
  'fuzz',
  'generator',
  'migrate',
  'package',
  'peers',
  'reliability',
  'runtime',
  'security',
  'service',
].map((folder) => `test/${folder}/**/*.test.ts`);
/** Files in those folders that replace a module with a spy (vi.mock): the spy must wrap a fresh import. */
const NEEDS_ISOLATION = ['test/service/accounts/accounts.test.ts', 'test/reliability/auth.test.ts'];

export default defineConfig({
  ssr: { resolve: { conditions } },
  test: {
    // The CLI tests run the shipped bundle: built here when stale, and required by every child.
    // The packed package's consumer projects share one install, in a folder made here.
    globalSetup: ['test/setup/cli-bundle.ts', 'test/setup/run-folder.ts'],
    // The longest files start first, so none is left running alone at the end of the run.
    sequence: { sequencer: SlowFirstSequencer },
    // SMSKIT_TEST_COSTS=<log>: one line per test file, its wall time and CPU (scripts/test-costs.ts ranks them).
    setupFiles: process.env.SMSKIT_TEST_COSTS ? ['test/setup/file-costs.ts'] : [],
    // The skip audit runs beside the default reporter: in CI a skip not on
    // test/setup/expected-skips.ts fails the run.
    reporters: ['default', './test/setup/skip-audit.ts'],
    // Password hashes at scrypt N = 2^10, not 2^15, in every process a test starts: at 15 each
    // `account add` and each verification against its hash cost a quarter of a CPU-second, over
    // hundreds of them a run (docs/service.md, "The cost of new hashes").
    // Worker threads (the SQLite writer, the callback sender) of processes running the sources
    // start from that bundle too, not through tsx (service/threads/thread-entry.ts): a file of
    // store contract tests on the writer thread took 23.5 CPU-seconds through tsx, 8.3 so.
    // Mono keeps a performance-counter area in /dev/shm/mono.<pid> for each process, which a
    // peer the test kills leaves behind; the tests read no counters (test/peers/mono-shared-area.test.ts).
    env: {
      MONO_DISABLE_SHARED_AREA: '1',
      NODE_OPTIONS: nodeOptions,
      SMSKIT_REQUIRE_BUNDLE: '1',
      SMSKIT_SCRYPT_LOG_N: '10',
      SMSKIT_THREAD_BUNDLE: fileURLToPath(new URL('dist/cli/', import.meta.url)),
    },
    // Each project transforms the sources its files import; kept on disk, a module is transformed
    // once a run for all three projects instead of once per project (and not at all on a rerun
    // with the file unchanged). Keyed by the file's content and the resolve settings, in
    // node_modules/.experimental-vitest-cache (`npx vitest --clearCache` empties it).
    experimental: { fsModuleCache: true },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // One more worker than cores (Vitest's default is one fewer: on a 2-core machine every file in
    // turn). Since the files of most folders share a worker, the suite's CPU-seconds fell (~1,000 →
    // ~790 on a fresh clone) and its waits (a 60 s callback outage, peers starting) left the two
    // cores ~10 % idle with two workers; a third fills them at the same CPU-seconds (fresh clones,
    // 2026-11-30, in pairs: two workers 485 / 502 / 481 s of vitest, three 480 / 447 / 421 s).
    // Earlier, with every file in a process of its own, three took longer than two (676 s against
    // 642) and four timed a delivery test out: the run was bound by its CPU then.
    maxWorkers: WORKERS,
    projects: [
      {
        extends: true,
        test: {
          name: 'isolated',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...SHARED_WORKER],
        },
      },
      // Vitest's include and exclude cannot say "this folder but that file", hence a project of their own.
      { extends: true, test: { name: 'isolated-mocks', include: NEEDS_ISOLATION } },
      {
        extends: true,
        test: {
          name: 'shared-worker',
          include: SHARED_WORKER,
          exclude: [...configDefaults.exclude, ...NEEDS_ISOLATION],
          isolate: false,
        },
      },
    ],
  },
});
