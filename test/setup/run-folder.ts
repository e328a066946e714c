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

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'smskit-test-run-'));
  // Readable by the users peers run as (PostgreSQL's programs run as `postgres` under root).
  chmodSync(dir, 0o755);
  project.provide('runFolder', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
