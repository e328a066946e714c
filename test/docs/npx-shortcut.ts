/**
 * The PATH the documentation examples run with. It is the user's (without the node_modules/.bin
 * folders an enclosing `npm test` put on it), so a bare `smskit` fails as it would for a user,
 * and an example writes `npx smskit`.
 *
 * Most examples get an npx shortcut first on that PATH: `npx smskit …` in a project that
 * installed smskit runs its node_modules/.bin/smskit directly, the program npm's npx resolves it
 * to; any other npx command goes to npm's. npm's own start-up is about a second of CPU and the
 * documents call it over a hundred times. npm's npx also puts two processes in front of smskit,
 * which is what a script that starts a server in the background (`&`) and signals `$!` meets
 * (docs/deployment.md, "What npx does to signals"): such examples, and the long-running ones,
 * run with npm's npx itself. So does the package test (test/package/consumer.test.ts).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The user's PATH: without the node_modules/.bin folders an enclosing `npm test` put on it. */
export function userPath(): string {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => !dir.endsWith(join('node_modules', '.bin')))
    .join(delimiter);
}

function npmNpx(): string {
  for (const dir of userPath().split(delimiter)) {
    const npx = join(dir, 'npx');
    if (dir !== '' && existsSync(npx)) return npx;
  }
  throw new Error(`no npx on the PATH (${userPath()})`);
}

/** Makes the shortcut in `work` and returns the PATH with it first. */
export function shortcutPath(work: string): string {
  const folder = join(work, 'npx-shortcut');
  mkdirSync(folder);
  const script = [
    '#!/bin/sh',
    'if [ "$1" = smskit ] && [ -x node_modules/.bin/smskit ]; then',
    '  shift',
    '  exec node_modules/.bin/smskit "$@"',
    'fi',
    `exec '${npmNpx().replaceAll("'", `'\\''`)}' "$@"`,
    '',
  ].join('\n');
  writeFileSync(join(folder, 'npx'), script, { mode: 0o755 });
  return `${folder}${delimiter}${userPath()}`;
}

/** A line that ends by starting a background job (`cmd &`, not `&&`). */
const BACKGROUND_JOB = /(^|[^&])&[ \t]*(#.*)?$/m;

/** Whether an example must meet npm's npx as users do: a long-running one, or one that starts a background job. */
export function needsNpmNpx(code: string, longRunning: boolean): boolean {
  return longRunning || BACKGROUND_JOB.test(code);
}
