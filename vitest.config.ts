import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/setup/slow-first.js';

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

export default defineConfig({
  ssr: { resolve: { conditions } },
  test: {
    include: ['test/**/*.test.ts'],
    // The CLI tests run the shipped bundle: built here when stale, and required by every child.
    // The packed package's consumer projects share one install, in a folder made here.
    globalSetup: ['test/setup/cli-bundle.ts', 'test/setup/shared-consumer.ts'],
    // The longest files start first, so none is left running alone at the end of the run.
    sequence: { sequencer: SlowFirstSequencer },
    // The skip audit runs beside the default reporter: in CI a skip not on
    // test/setup/expected-skips.ts fails the run.
    reporters: ['default', './test/setup/skip-audit.ts'],
    env: { NODE_OPTIONS: nodeOptions, SMSKIT_REQUIRE_BUNDLE: '1' },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest's default is one worker per core but one (1 on a 2-core machine: every file in turn).
    // Most files wait on child processes and servers rather than compute, so two side by side
    // finish sooner (test/cli on a quiet 2-core machine: 81 s with one worker, 43 s with two,
    // 41 s with three; three made the Net::SMPP crash tests time out on a loaded machine).
    maxWorkers: 2,
  },
});
