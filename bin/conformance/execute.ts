/**
 * `smskit conformance` as a function: validated CLI options in, the run's outcome out (bin/ maps
 * it to an exit code). Output goes through the `io` the CLI passes (so only bin/ touches the
 * process: its streams, its signals, its files), and so does the target of a run without
 * `--target` (the CLI starts its built-in service: this layer knows no service). A thrown
 * error (ConformanceError, GeneratorError) is the CLI's to print — after every report file has
 * been replaced by one that says why, so that no report of an earlier run is ever left in place.
 */
import { baselineOf, readBaseline, renderBaseline } from '../../conformance/validate/baseline.js';
import { endpointPath } from '../../conformance/catalogue/build.js';
import type { ConformanceCliOptions } from './options.js';
import { readContract } from '../../contract/read/index.js';
import { GeneratorError } from '../../contract/errors.js';
import { toDescriptor } from '../../contract/descriptor/index.js';
import type { WsdlModel } from '../../contract/model/index.js';
import type { ServiceDescriptor } from '../../runtime/descriptor.js';
import { ConformanceError } from '../../conformance/errors.js';
import { listCases, runConformance, type ConformanceOptions } from '../../conformance/index.js';
import type { ConformanceInputs } from '../../conformance/catalogue/inputs.js';
import { readInputsFile } from './inputs-file.js';
import { createProgress, renderErrorReport, renderReport } from '../../conformance/report/index.js';
import { pickSettings } from '../../conformance/run/settings.js';
import type { Report } from '../../conformance/types.js';

export interface CommandIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Writes a report file; the CLI's replaces the file atomically (temp file + rename). */
  readonly writeFile: (path: string, text: string) => void;
  /** Standard error is a terminal (progress redraws one line). */
  readonly isTTY?: boolean;
  /** Aborted on Ctrl-C: the run stops sending and reports what ran. */
  readonly signal?: AbortSignal;
  /** For `$env` values of an inputs file. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Recorded in every report. */
  readonly toolVersion?: string;
  /** Starts the target of a run without `--target`; without it, such a run is refused. */
  readonly embeddedTarget?: (contract: EmbeddedContract) => Promise<EmbeddedTarget>;
  /** Given the finished run's report (after the reporters wrote theirs), for the caller's own notes. */
  readonly onReport?: (report: Report) => void;
}

/** What an embedded target serves: the run's contract, at its endpoint path. */
export interface EmbeddedContract {
  /** The WSDL text, served at `?wsdl`. */
  readonly wsdlText: string;
  /** The endpoint path, e.g. `/service.asmx` (the WSDL address's path). */
  readonly path: string;
  /** Its body limit, the one the over-size cases exceed (`--max-body-bytes`). */
  readonly maxBodyBytes: number;
}

/** A target started for one run, with the inputs it accepts; `close()` removes everything it made. */
export interface EmbeddedTarget {
  /** The endpoint URL, e.g. http://127.0.0.1:41234/service.asmx */
  readonly url: string;
  readonly inputs: ConformanceInputs;
  /** What was started, for the note that names it (the CLI's: its service, at `url`, and what it made). */
  readonly describe?: string;
  close(): Promise<void>;
}

/**
 * How the command ended: `passed` (nothing at or above --fail-on beyond the baseline), `listed`
 * (--list), `baseline-written`, `failed` (checks failed), `incomplete` (--run-timeout cut it
 * short, or its answers cannot be judged; one line on stderr says why), `interrupted` (the
 * signal fired; the reports hold what ran).
 */
export type CommandOutcome = 'passed' | 'listed' | 'baseline-written' | 'failed' | 'incomplete' | 'interrupted';

/** The run's contract: the model, its descriptor, and the WSDL text (served by an embedded target). */
interface Contract {
  readonly model: WsdlModel;
  readonly descriptor: ServiceDescriptor;
  readonly wsdlText: string;
}

interface RunInputs {
  readonly contract: Contract;
  readonly inputs: Omit<ConformanceInputs, 'values'>;
  readonly baseline?: { readonly file: string; readonly baseline: ReturnType<typeof readBaseline> };
}

function baseOptions(
  options: ConformanceCliOptions,
  loaded: RunInputs,
  target: string,
  inputs: ConformanceInputs,
  io: CommandIo,
): ConformanceOptions {
  return {
    ...pickSettings(options),
    ...options.network,
    target,
    wsdlModel: loaded.contract.model,
    inputs,
    // Decided by validateConformanceArgs (the flag, or the CLI's rule for its own contract, whose
    // spec requires every result element); left out, the WSDL's schema decides.
    requireResults: options.requireResults ?? false,
    provenance: {
      toolVersion: io.toolVersion ?? 'unknown',
      wsdlSource: options.wsdl,
      wsdlSha256: loaded.contract.model.hash,
    },
    ...(loaded.baseline === undefined ? {} : { baseline: loaded.baseline }),
    ...(io.signal === undefined ? {} : { signal: io.signal }),
  };
}

function printList(options: ConformanceOptions, io: CommandIo): void {
  const listed = listCases(options);
  for (const c of listed)
    io.stdout(
      `${c.selected ? '  ' : '- '}${c.id.padEnd(52)} ${c.level.padEnd(6)} ${c.selected ? c.description : `(skipped: ${c.skipReason})`}\n`,
    );
  io.stdout(`${listed.filter((c) => c.selected).length} of ${listed.length} cases selected\n`);
}

async function loadInputs(options: ConformanceCliOptions, io: CommandIo): Promise<RunInputs> {
  // The WSDL is fetched with the run's TLS, proxy and HTTP auth (a UsernameToken is for SOAP
  // requests only); the credentials go only to the target's origin (the contract layer).
  const { tls, proxy, auth } = options.contractNetwork ?? options.network ?? {};
  const read = await readContract(options.wsdl, {
    network: {
      ...(tls === undefined ? {} : { tls }),
      ...(proxy === undefined ? {} : { proxy }),
      ...(auth === undefined ? {} : { auth }),
    },
    timeoutMs: options.timeoutMs,
    maxBytes: options.maxResponseBytes,
    ...(options.target === undefined ? {} : { serviceUrl: options.target }),
    ...(options.allowImportHosts === undefined ? {} : { allowImportHosts: options.allowImportHosts }),
  });
  const contract: Contract = { model: read.model, descriptor: toDescriptor(read.model), wsdlText: read.text };
  const inputs = options.inputsFile === undefined ? {} : await readInputsFile(options.inputsFile, io.env ?? {});
  const baseline =
    options.baseline === undefined ? undefined : { file: options.baseline, baseline: readBaseline(options.baseline) };
  return { contract, inputs: { ...inputs, secrets: ['password'] }, ...(baseline === undefined ? {} : { baseline }) };
}

/** What a run without --target (`npm start`) started, so nobody takes it for their own service. */
function embeddedNote(target: EmbeddedTarget): string {
  const what = target.describe ?? `a built-in target at ${target.url}`;
  return `smskit conformance: no --target, so it started ${what}`;
}

const NEXT_STEP =
  'Next: check your own server with `npx smskit conformance --target <URL>` (--wsdl <file or URL> for another contract), or run this service with `npx smskit serve`';

/** Report files that say the run did not happen, and why (so a CI never reads an older one). */
function writeErrorReports(options: ConformanceCliOptions, error: unknown, io: CommandIo): void {
  // A contract that cannot be read is the contract layer's GeneratorError (CONTRACT_UNREADABLE, or the parser's code).
  const code = error instanceof ConformanceError || error instanceof GeneratorError ? error.code : 'ERROR';
  const message = error instanceof Error ? error.message : String(error);
  for (const reporter of options.reporters) {
    if (reporter.out !== undefined) io.writeFile(reporter.out, renderErrorReport(reporter.name, code, message));
  }
}

function writeReports(options: ConformanceCliOptions, report: Report, io: CommandIo): void {
  for (const reporter of options.reporters) {
    const text = renderReport(reporter.name, report);
    if (reporter.out === undefined) io.stdout(text);
    else io.writeFile(reporter.out, text);
  }
}

/** The outcome, and the one line on stderr that says why a run is incomplete or not judged. */
function outcomeOf(options: ConformanceCliOptions, report: Report, io: CommandIo): CommandOutcome {
  const { summary } = report;
  const selected = summary.total - summary.skipped;
  if (summary.interrupted) {
    io.stderr(
      `smskit: interrupted: ${selected - summary.notRun} of ${selected} selected cases ran; the reports hold what ran\n`,
    );
    return 'interrupted';
  }
  if (summary.timedOut) {
    io.stderr(
      `smskit: the run did not finish within ${summary.runTimeoutMs} ms (--run-timeout): ${summary.notRun} of ${selected} selected cases not run\n`,
    );
    return 'incomplete';
  }
  if (summary.diagnosis !== undefined) {
    io.stderr(`smskit: ${summary.diagnosis}\n`);
    return 'incomplete';
  }
  if (options.writeBaseline !== undefined) {
    const baseline = baselineOf(report);
    io.writeFile(options.writeBaseline, renderBaseline(baseline));
    io.stderr(`smskit: wrote ${baseline.failures.length} known failure(s) to ${options.writeBaseline}\n`);
    return 'baseline-written';
  }
  return summary.ok ? 'passed' : 'failed';
}

export async function executeConformance(options: ConformanceCliOptions, io: CommandIo): Promise<CommandOutcome> {
  try {
    return await execute(options, io);
  } catch (error) {
    writeErrorReports(options, error, io);
    throw error;
  }
}

function startEmbedded(options: ConformanceCliOptions, contract: Contract, path: string, io: CommandIo) {
  if (io.embeddedTarget === undefined)
    throw new ConformanceError('CONFORMANCE_OPTIONS', 'no --target given, and no built-in service to start here');
  return io.embeddedTarget({ wsdlText: contract.wsdlText, path, maxBodyBytes: options.maxBodyBytes });
}

async function execute(options: ConformanceCliOptions, io: CommandIo): Promise<CommandOutcome> {
  const loaded = await loadInputs(options, io);
  const path = endpointPath(loaded.contract.descriptor, undefined);
  if (options.list) {
    printList(
      baseOptions(
        options,
        loaded,
        options.target ?? `http://127.0.0.1${path}`,
        { ...loaded.inputs, values: options.inputs },
        io,
      ),
      io,
    );
    return 'listed';
  }
  const embedded = options.target === undefined ? await startEmbedded(options, loaded.contract, path, io) : undefined;
  // Progress and the notes for a person go with the pretty reporter (a machine reading JSON from
  // stdout wants a quiet stderr).
  const forPerson = options.reporters.some((r) => r.name === 'pretty');
  const progress = forPerson ? createProgress({ write: io.stderr, isTTY: io.isTTY === true }) : undefined;
  try {
    const target = embedded?.url ?? options.target!;
    const values = embedded === undefined ? options.inputs : { ...embedded.inputs.values, ...options.inputs };
    const report = await runConformance({
      ...baseOptions(options, loaded, target, { ...loaded.inputs, values }, io),
      ...(progress === undefined
        ? {}
        : {
            // Once the inputs are known to fit the contract (a mistake in them ends the run first).
            onStart: (n: number) => {
              if (embedded !== undefined) io.stderr(`${embeddedNote(embedded)}\n`);
              progress.start(n);
            },
            onCase: progress.onCase,
          }),
    });
    progress?.finish();
    writeReports(options, report, io);
    io.onReport?.(report);
    if (embedded !== undefined && forPerson) io.stderr(`${NEXT_STEP}\n`);
    return outcomeOf(options, report, io);
  } finally {
    progress?.finish();
    await embedded?.close();
  }
}
