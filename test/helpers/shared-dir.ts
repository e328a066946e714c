/**
 * `../shared`, the folder beside the repository that holds material the project does not own:
 * the real-world WSDL corpus (`wsdl-corpus`), the ASMX host (`asmx-host`), the service spec
 * (`spec`). A fresh clone has no such folder, and `npm test` must still pass there: a test that
 * reads it skips with one line saying why (see sharedSkipReason).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The shared folder as the tests hand paths to the parser (relative to the repo root, the
 * working directory of vitest and of the bench), so that provenance headers and error messages
 * in the goldens do not depend on the machine.
 */
export const SHARED_FROM_ROOT = '../shared';

/** The shared folder, resolved. */
export const sharedDir = resolve(repoRoot, SHARED_FROM_ROOT);

/**
 * Why a test that needs `../shared/<sub>` is skipped, as one line; undefined when the folder
 * is there and the test should run.
 */
export function sharedSkipReason(sub: string): string | undefined {
  if (existsSync(resolve(sharedDir, sub))) return undefined;
  return `skipped: ${SHARED_FROM_ROOT}/${sub} is absent (a clone without the shared folder)`;
}
