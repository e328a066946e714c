/**
 * `smskit conformance` as a function: validated CLI options in, exit code out. Output goes
 * through the `io` the CLI passes (so only bin/ touches the process); a thrown error
 * (ConformanceError, GeneratorError) is the CLI's to print, with exit code 2.
 */
import { endpointPath } from './catalogue.js';
import type { ConformanceCliOptions } from './cli-options.js';
import { loadContract, type Contract } from './contract-source.js';
import { startEmbeddedService } from './embedded.js';
import { listCases, runConformance, type ConformanceOptions } from './index.js';
import type { ConformanceInputs } from './inputs.js';
import { createPrettyProgress, renderReport } from './report/index.js';

export interface CommandIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly writeFile: (path: string, text: string) => void;
}

export const EXIT_PASSED = 0;
export const EXIT_CHECKS_FAILED = 1;
/** The run's deadline cut it short: the report is incomplete, as with an unreachable target. */
export const EXIT_RUN_INCOMPLETE = 2;

function baseOptions(options: ConformanceCliOptions, contract: Contract, target: string, inputs: ConformanceInputs): ConformanceOptions {
  return {
    target,
    wsdlModel: contract.model,
    inputs,
    run: options.run,
    skip: options.skip,
    level: options.level,
    failOn: options.failOn,
    concurrency: options.concurrency,
    timeoutMs: options.timeoutMs,
    retries: options.retries,
    maxResponseBytes: options.maxResponseBytes,
    runTimeoutMs: options.runTimeoutMs,
    headers: options.headers,
    ...(options.binding === undefined ? {} : { binding: options.binding }),
    ...(options.operation === undefined ? {} : { operation: options.operation }),
    ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
  };
}

function printList(options: ConformanceOptions, io: CommandIo): void {
  const planned = listCases(options);
  for (const c of planned) io.stdout(`${c.selected ? '  ' : '- '}${c.id.padEnd(52)} ${c.level.padEnd(6)} ${c.selected ? c.description : `(skipped: ${c.skipReason})`}\n`);
  io.stdout(`${planned.filter((c) => c.selected).length} of ${planned.length} cases selected\n`);
}

export async function executeConformance(options: ConformanceCliOptions, io: CommandIo): Promise<number> {
  const contract = await loadContract(options.wsdl, options.timeoutMs, options.maxResponseBytes);
  const path = endpointPath(contract.descriptor, undefined);
  if (options.list) {
    printList(baseOptions(options, contract, options.target ?? `http://127.0.0.1${path}`, { values: options.inputs, secrets: ['password'] }), io);
    return EXIT_PASSED;
  }
  const embedded = options.target === undefined ? await startEmbeddedService({ wsdl: contract.wsdlText, path, ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }) }) : undefined;
  try {
    const target = embedded?.target ?? options.target!;
    const inputs: ConformanceInputs = embedded === undefined ? { values: options.inputs, secrets: ['password'] } : { values: { ...embedded.inputs.values, ...options.inputs }, secrets: ['password'] };
    const pretty = options.reporters.some((r) => r.name === 'pretty');
    const report = await runConformance({ ...baseOptions(options, contract, target, inputs), ...(pretty ? { onCase: createPrettyProgress({ progress: io.stderr }) } : {}) });
    for (const reporter of options.reporters) {
      const text = renderReport(reporter.name, report);
      if (reporter.out === undefined) io.stdout(text);
      else io.writeFile(reporter.out, text);
    }
    const { summary } = report;
    if (summary.timedOut) {
      io.stderr(`smskit: the run did not finish within ${summary.runTimeoutMs} ms (--run-timeout): ${summary.notRun} of ${summary.total - summary.skipped} selected cases not run\n`);
      return EXIT_RUN_INCOMPLETE;
    }
    return summary.ok ? EXIT_PASSED : EXIT_CHECKS_FAILED;
  } finally {
    await embedded?.close();
  }
}
