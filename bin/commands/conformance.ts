/**
 * `smskit conformance`: the conformance runner. With no --target it starts the built-in SMS
 * service on an ephemeral port with a temporary database (the main job's embedded default).
 *
 * The process side of the command lives here: stdout/stderr, the environment, report files
 * (each replaced atomically: written beside the target, then renamed over it, so a reader never
 * sees half a report and a failed write never leaves an older one looking current), and Ctrl-C:
 * the first SIGINT stops the run, which waits briefly for the requests in flight, writes the
 * reports of what ran (marked interrupted) and exits 130; a second one exits at once.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Argv } from 'yargs';
import { conformanceBuilder, validateConformanceArgs } from '../../conformance/cli-options.js';
import { isBuiltInWsdl } from '../built-in-contract.js';
import { toolVersion } from '../tool-version.js';
import type { CliCommand } from './command.js';

/** Writes `text` to a temporary file in the same directory, then renames it over `path`. */
export function writeFileAtomic(path: string, text: string): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  try {
    writeFileSync(temp, text);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

async function run(args: Record<string, unknown>): Promise<number> {
  // The built-in contract's spec requires its result element (see --require-results); others: their schema.
  const wsdl = args.wsdl;
  const requireResults = args['require-results'] ?? (typeof wsdl === 'string' && isBuiltInWsdl(wsdl));
  const options = validateConformanceArgs({ ...args, 'require-results': requireResults }, process.env);
  const { executeConformance } = await import('../../conformance/command.js');
  const interrupt = new AbortController();
  const onSigint = (): void => {
    if (interrupt.signal.aborted) process.exit(130);
    process.stderr.write('\nsmskit: interrupted: stopping (Ctrl-C again to quit at once)\n');
    interrupt.abort();
  };
  process.on('SIGINT', onSigint);
  try {
    return await executeConformance(options, {
      stdout: (text) => void process.stdout.write(text),
      stderr: (text) => void process.stderr.write(text),
      writeFile: writeFileAtomic,
      isTTY: process.stderr.isTTY === true,
      signal: interrupt.signal,
      env: process.env,
      toolVersion: toolVersion(),
    });
  } finally {
    process.off('SIGINT', onSigint);
  }
}

export const conformanceCommand: CliCommand = {
  command: 'conformance',
  describe: 'Check a server against a WSDL over all four bindings (no --target: the built-in service)',
  builder: (yargs: Argv) => conformanceBuilder(yargs),
  examples: [
    ['smskit conformance', 'the built-in service, started on an ephemeral port: every case of the built-in contract'],
    [
      'smskit conformance --wsdl calc.wsdl --target http://host/calc.asmx --param intA=6 --param intB=3',
      'any WSDL: values the schema does not give are generated',
    ],
    [
      'smskit conformance --wsdl svc.wsdl --target $URL --inputs inputs.yaml --baseline known.json --reporter pretty --reporter junit --out junit.xml',
      'a CI gate: exit 1 on new failures only',
    ],
  ],
  exitCodes: {
    0: 'no failure at or above --fail-on (not counting --baseline ones); or --write-baseline wrote the baseline',
    1: 'failures at or above --fail-on',
    2: 'usage or input error, unreadable WSDL, unreachable target, no case selected, --run-timeout, or answers that cannot be judged (not this SOAP service; credentials refused). 130: interrupted (Ctrl-C), reports of what ran written',
  },
  run,
};
