/**
 * A fresh folder for one test's files, made inside the run's folder (test/setup/run-folder.ts)
 * so that it goes when the run ends, whatever the test did: a helper that hands out a store or
 * starts a peer writing a log needs no cleanup of its own, and a run leaves nothing in /tmp.
 * Without the run folder (a config that does not name the setup) it is made in the system's
 * temporary folder, as before.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';

/** @param prefix the folder name's start, e.g. `smskit-perl-smsc-` */
export function scratchDir(prefix: string): string {
  return mkdtempSync(join(inject('runFolder') ?? tmpdir(), prefix));
}
