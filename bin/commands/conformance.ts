/**
 * `smskit conformance`: the conformance runner. With no --target it starts the built-in SMS
 * service on an ephemeral port with a temporary database (the main job's embedded default).
 */
import { writeFileSync } from 'node:fs';
import type { Argv } from 'yargs';
import { conformanceBuilder, validateConformanceArgs } from '../../conformance/cli-options.js';
import type { CliCommand } from './command.js';

async function run(args: Record<string, unknown>): Promise<number> {
  const options = validateConformanceArgs(args, process.env);
  const { executeConformance } = await import('../../conformance/command.js');
  return executeConformance(options, {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    writeFile: (path, text) => writeFileSync(path, text),
  });
}

export const conformanceCommand: CliCommand = {
  command: 'conformance',
  describe: 'Check a server against the contract over all four bindings (no --target: the built-in service)',
  builder: (yargs: Argv) => conformanceBuilder(yargs),
  run,
};
