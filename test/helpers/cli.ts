import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const bin = fileURLToPath(new URL('../../bin/smskit.js', import.meta.url));

export interface CliResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

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
