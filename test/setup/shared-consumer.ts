/**
 * Vitest global setup: the folder the run's test files share one packed and installed package in
 * (test/helpers/shared-consumer.ts). Only made here; the first file that needs it fills it, so a
 * run without such a file packs nothing. Removed when the run ends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    sharedConsumerDir: string;
  }
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'smskit-shared-consumer-'));
  project.provide('sharedConsumerDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
