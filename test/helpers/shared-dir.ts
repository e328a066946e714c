/**
 * `../shared`, the folder beside the repository that holds material the project does not own:
 * the real-world WSDL corpus (`wsdl-corpus`), the ASMX host (`asmx-host`), the service spec
 * (`spec`). A fresh clone has no such folder, and `npm test` must still pass there: a test that
 * reads it asks the peer gate (requireShared in test/helpers/peers.ts): it skips with one line
 * outside CI and fails in CI, where .ci/run runs with the folder beside the checkout.
 */
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
