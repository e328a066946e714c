/**
 * Work that every test file of a run may need and that costs seconds (packing and installing the
 * package, compiling a peer service): done by the first file to ask, in a folder of the run
 * (test/setup/run-folder.ts), and read by the others, which wait for it. Test files run in
 * several worker processes, so the first asker is chosen by the file system: creating a folder
 * either succeeds or finds it there.
 *
 * `make` gets the folder to work in and returns what the others need (JSON); it must not throw
 * for an outcome the callers handle (say so in the value), and a throw is the same error for all.
 * Without the run folder (a config that does not name the setup) it works in the folder
 * `fallback` returns, a fresh one: nothing is kept from an earlier run.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { waitFor } from './wait-for.js';

/** The bound on waiting for another file's work: a hang, not a slow machine, reaches it. */
const WAIT_MS = 600_000;

type Outcome<T> = { readonly value: T } | { readonly error: string };

/**
 * @param key names the work and its folder in the run folder (letters, digits, dashes)
 * @param what says what is waited for, in a timeout's message
 */
export async function oncePerRun<T>(
  key: string,
  what: string,
  fallback: () => string,
  make: (dir: string) => T | Promise<T>,
): Promise<T> {
  const dir = join(inject('runFolder') ?? fallback(), key);
  mkdirSync(dir, { recursive: true });
  const result = join(dir, 'outcome.json');
  let outcome: Outcome<T>;
  if (claim(dir)) {
    try {
      outcome = { value: await make(dir) };
    } catch (error) {
      outcome = { error: error instanceof Error ? error.message : String(error) };
    }
    writeFileSync(result, JSON.stringify(outcome));
  } else {
    await waitFor(`${what} (made by another test file)`, () => existsSync(result), { timeoutMs: WAIT_MS, pollMs: 200 });
    outcome = JSON.parse(readFileSync(result, 'utf8')) as Outcome<T>;
  }
  if ('error' in outcome) throw new Error(`${what} failed: ${outcome.error}`);
  return outcome.value;
}

function claim(dir: string): boolean {
  try {
    mkdirSync(join(dir, 'claimed'));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}
