import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot, type CliResult } from '../../tools/serve-process.js';

export { repoRoot, type CliResult };
const bin = join(repoRoot, 'bin', 'smskit.js');

/** Runs `smskit <args>` as a real process (the way users and CI run it). */
export function runCli(
  args: readonly string[],
  options: { cwd?: string; input?: string; env?: NodeJS.ProcessEnv } = {},
): CliResult {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: options.cwd ?? repoRoot,
    input: options.input ?? '',
    env: { ...process.env, ...options.env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
