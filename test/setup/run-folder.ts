/**
 * Vitest global setup: a folder for the run, where test files share work done once per run
 * (test/helpers/once-per-run.ts: the packed and installed package, compiled peer services) and
 * make their own scratch folders (test/helpers/scratch.ts). Only made here; the first file that
 * needs a piece of work does it, so a run without such a file does none. Removed when the run
 * ends, with everything in it.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    runFolder: string;
  }
}

/**
 * The run's folder and how many projects use it. Vitest runs a global setup once per project (the
 * three of vitest.config.ts, and the root), in one process but each with a fresh copy of this
 * module, hence a global: they all get the same folder, so files of different projects share
 * their work too, and it is removed with the last one's teardown.
 */
const RUN = Symbol.for('smskit.test.runFolder');
type Shared = { readonly dir: string; users: number };
const held = globalThis as { [RUN]?: Shared };

export default function setup(project: Pick<TestProject, 'provide'>): () => void {
  if (held[RUN] === undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'smskit-test-run-'));
    // Readable by the users peers run as (PostgreSQL's programs run as `postgres` under root).
    chmodSync(dir, 0o755);
    held[RUN] = { dir, users: 0 };
  }
  const run = held[RUN];
  run.users++;
  project.provide('runFolder', run.dir);
  return () => {
    if (--run.users > 0) return;
    rmSync(run.dir, { recursive: true, force: true });
    if (held[RUN] === run) delete held[RUN];
  };
}
