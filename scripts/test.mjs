#!/usr/bin/env node
/**
 * `npm test`: Biome's lint, `tsc --noEmit`, `generate --check` and every vitest suite; exit
 * non-zero when any of them fails. Arguments go to vitest (`npm test -- test/runtime`).
 *
 * The three checks run beside the tests, not ahead of them: tsc alone is ~25 s on one core, which
 * on a 2-core machine left the other core idle for as long. Lint and typecheck run at the lowest
 * CPU priority: the tests leave the cores ~15 % idle while they wait (servers starting, timeouts,
 * an outage test's minute), and the checks fill those gaps instead of taking cores from tests.
 * Their output is held and printed after the tests' with one line each; a check that fails stops
 * the tests at once and prints why, as a failing step ahead of them did. `generate --check`
 * finishes before vitest starts: vitest's global setup may rebuild the CLI bundle that command
 * runs from.
 *
 * Plain .mjs, as the build scripts: it must run before anything is compiled.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { constants, setPriority } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(ROOT, 'package.json'));

/** A file of an installed package, whether or not its "exports" name it. */
function packageFile(name, path) {
  return join(dirname(require.resolve(`${name}/package.json`)), path);
}

/** Each check: what the user would type, and the command that does it without npm's start-up. */
const CHECKS = [
  {
    name: 'lint (biome check .)',
    argv: [join(ROOT, 'node_modules', '.bin', 'biome'), 'check', '.'],
    idlePriority: true,
  },
  {
    // TypeScript 7's native compiler (the devDependency typescript-7): the same check in ~8
    // CPU-seconds where TypeScript 5.9's tsc took ~26. The 5.9 package stays for what uses the
    // compiler's JavaScript API (the doc-run projects' compiles, the architecture tests).
    name: 'typecheck (tsc --noEmit)',
    argv: [process.execPath, packageFile('typescript-7', 'bin/tsc'), '-p', 'tsconfig.json', '--noEmit'],
    idlePriority: true,
  },
];
const GENERATE_CHECK = {
  name: 'generate --check',
  argv: [process.execPath, join(ROOT, 'bin', 'smskit.js'), 'generate', '--check'],
};

/** Every process started here, to pass a SIGTERM on to. */
const children = new Set();

/** The lowest priority (nice 19) where the system allows it; else the check runs as it is. */
function lowerPriority(pid) {
  if (pid === undefined) return;
  try {
    setPriority(pid, constants.priority.PRIORITY_LOW);
  } catch {
    // Not permitted here (or no such notion): the check only competes with the tests for CPU.
  }
}

/** Runs a check with its output held; resolves with its exit status, output and duration. */
function runCheck(check) {
  const started = performance.now();
  return new Promise((done) => {
    const child = spawn(check.argv[0], check.argv.slice(1), { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    if (check.idlePriority) lowerPriority(child.pid);
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    const finish = (status) =>
      done({ check, status, output: Buffer.concat(output).toString(), seconds: (performance.now() - started) / 1000 });
    child.on('error', (error) => {
      output.push(Buffer.from(`${error.message}\n`));
      finish(127);
    });
    child.on('close', (code, signal) => finish(code ?? (signal === null ? 1 : 128)));
  });
}

function describe({ check, status, seconds }) {
  return `npm test: ${check.name} ${status === 0 ? 'passed' : `FAILED (exit ${status})`} in ${seconds.toFixed(1)} s`;
}

function reportFailure(result) {
  process.stderr.write(`${result.output.trimEnd()}\n${describe(result)}\n`);
}

const checks = CHECKS.map(runCheck);
const generated = await runCheck(GENERATE_CHECK);
if (generated.status !== 0) {
  reportFailure(generated);
  await Promise.all(checks);
  process.exit(1);
}

const vitest = spawn(process.execPath, [packageFile('vitest', 'vitest.mjs'), 'run', ...process.argv.slice(2)], {
  cwd: ROOT,
  stdio: 'inherit',
});
children.add(vitest);
const testsDone = new Promise((done) =>
  vitest.on('close', (code, signal) => done(code ?? (signal === null ? 1 : 128))),
);
// Ctrl-C reaches every process of the terminal's group, vitest and the checks included: this one
// only waits for them to end. A SIGTERM is for this process alone, so it is passed on.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => {
  for (const child of children) child.kill('SIGTERM');
});

let failed;
let stoppedTests = false;
for (const pending of checks)
  pending.then((result) => {
    if (result.status === 0 || failed !== undefined) return;
    failed = result;
    stoppedTests = vitest.exitCode === null && vitest.signalCode === null && vitest.kill('SIGTERM');
  });

const testStatus = await testsDone;
const results = await Promise.all(checks);
if (failed !== undefined) {
  reportFailure(failed);
  process.stderr.write(
    stoppedTests
      ? 'npm test: the tests were stopped: fix the check above first\n'
      : `npm test: the tests ended (exit ${testStatus}), but the check above failed\n`,
  );
  process.exit(1);
}
for (const result of [generated, ...results]) process.stdout.write(`${describe(result)}\n`);
process.exit(testStatus);
