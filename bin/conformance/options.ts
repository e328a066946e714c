/**
 * `smskit conformance` flags: the run's settings as flags (their names, types, defaults and help
 * come from SETTINGS in conformance/run/settings.ts), the command's own flags (contract, target, inputs, reports,
 * baseline), and the one function that validates them into a frozen `ConformanceCliOptions`
 * (unknown values and conflicts are refused with a CONFORMANCE_OPTIONS error, which the CLI
 * reports as a usage error, exit 2).
 */
import type { Argv } from 'yargs';
import { formatBytes } from '../../conformance/run/bounds.js';
import { ConformanceError } from '../../conformance/errors.js';
import type { RawNetworkOptions } from '../../runtime/network/raw.js';
import { REPORTERS, type ReporterName } from '../../report/names.js';
import {
  flagLabel,
  type ResolvedSettings,
  type RunSettings,
  resolveSettings,
  SETTING_NAMES,
  SETTINGS,
  type Setting,
} from '../../conformance/run/settings.js';

/**
 * A shorthand flag the CLI adds for an input of its own contract: `--<flag> v` is `--param
 * <flag>=v` (the key is matched to parameters like any other), read from `env` when absent.
 */
export interface InputAlias {
  readonly flag: string;
  /** The parameter the flag's value is for, by its name in the contract (default: the flag). */
  readonly param?: string;
  readonly describe: string;
  /** Environment variable read when the flag is absent (keeps secrets out of argv). */
  readonly env?: string;
}

/** What the CLI embeds: its default contract and the input shorthands of that contract. */
export interface ConformanceCliDefaults {
  /** The contract when --wsdl is absent; without one, --wsdl is required. */
  readonly wsdl?: string;
  /** Whether every result element of `wsdl` is required (--require-results when not given). */
  readonly requireResults?: (wsdl: string) => boolean;
  readonly inputAliases: readonly InputAlias[];
  /**
   * Set when the aliases are for a --target only: why (the CLI's embedded target brings its own
   * inputs). An alias given without --target is then refused with this reason.
   */
  readonly aliasesNeedTarget?: string;
}

const FILE_REPORTERS = REPORTERS.filter((name) => name !== 'pretty');

export interface ReporterTarget {
  readonly name: ReporterName;
  /** File to write; undefined: standard output. */
  readonly out?: string;
}

/**
 * The validated command line: the run's settings with their defaults, and the command's own
 * options. `requireResults`: the flag, else the CLI defaults' rule for the contract; absent: off.
 */
export type ConformanceCliOptions = Omit<ResolvedSettings, 'requireResults'> & {
  /** Undefined: the caller's embedded target (the CLI's: the built-in service). */
  readonly target?: string;
  readonly wsdl: string;
  /** Inputs by key (flags) and by exact parameter name or path (--param). */
  readonly inputs: Readonly<Record<string, string>>;
  /** `--inputs FILE`: values per operation and SOAP headers, JSON or YAML. */
  readonly inputsFile?: string;
  readonly requireResults?: boolean;
  /** Known failures: gate on new ones only. */
  readonly baseline?: string;
  /** Write the run's failures as a baseline to this file. */
  readonly writeBaseline?: string;
  readonly list: boolean;
  readonly reporters: readonly ReporterTarget[];
  /**
   * TLS, proxy, HTTP authentication, WS-Security: the CLI reads them from its network flags
   * (bin/network-flags.ts: files and secrets), for the target and for a WSDL URL.
   */
  readonly network?: RawNetworkOptions;
  /**
   * TLS, proxy and HTTP authentication for reading a --wsdl URL when they are not the target's
   * (a run of the built-in service against a WSDL fetched through a proxy); default: `network`.
   */
  readonly contractNetwork?: RawNetworkOptions;
  /** Hosts besides the WSDL's own its remote imports may be fetched from (`*`: any). */
  readonly allowImportHosts?: readonly string[];
};

/** The help's `[default: …]` of a setting given in bytes, in the unit it was most likely given in. */
function defaultDescription(setting: Setting): string | undefined {
  if (setting.kind === 'integer' && setting.unit === 'bytes' && setting.default !== undefined)
    return formatBytes(setting.default);
  return undefined;
}

/**
 * The run's settings as flags. A boolean flag gets no yargs default: a flag not given stays
 * absent, and the CLI decides it (`--require-results` from the contract).
 */
function settingFlags(yargs: Argv): Argv {
  for (const name of SETTING_NAMES) {
    const setting: Setting = SETTINGS[name];
    const shown = defaultDescription(setting);
    const common = {
      describe: setting.describe,
      ...(setting.alias === undefined ? {} : { alias: setting.alias }),
      ...(shown === undefined ? {} : { defaultDescription: shown }),
    };
    if (setting.kind === 'integer')
      yargs.option(setting.flag, {
        type: 'number',
        ...common,
        ...(setting.default === undefined ? {} : { default: setting.default }),
      });
    else if (setting.kind === 'boolean') yargs.option(setting.flag, { type: 'boolean', ...common });
    else if (setting.kind === 'choice')
      yargs.option(setting.flag, { type: 'string', choices: setting.choices, default: setting.default, ...common });
    else if (setting.kind === 'list')
      yargs.option(setting.flag, {
        type: 'string',
        array: true,
        ...common,
        ...(setting.choices === undefined ? {} : { choices: setting.choices }),
      });
    else yargs.option(setting.flag, { type: 'string', array: true, ...common });
  }
  return yargs;
}

function aliasFlags(yargs: Argv, aliases: readonly InputAlias[]): Argv {
  for (const alias of aliases) yargs.option(alias.flag, { type: 'string', describe: alias.describe });
  return yargs;
}

export function conformanceBuilder(yargs: Argv, defaults: ConformanceCliDefaults): Argv {
  yargs
    .option('target', {
      type: 'string',
      describe: 'Service endpoint URL (e.g. http://host:8080/service.asmx); default: start the built-in service',
    })
    .option('wsdl', {
      type: 'string',
      ...(defaults.wsdl === undefined ? { demandOption: true } : { default: defaults.wsdl }),
      describe: 'The contract: a WSDL file, or a URL such as <target>?wsdl',
    })
    .option('inputs', {
      type: 'string',
      describe:
        'Values per operation and SOAP header, JSON or YAML (docs/conformance.md); the rest is generated from the schema',
    })
    .option('param', {
      type: 'string',
      array: true,
      describe:
        'A value for every operation with that parameter: <name or path>=<value> (typed by the schema; JSON for arrays), repeatable',
    });
  return settingFlags(aliasFlags(yargs, defaults.inputAliases))
    .option('baseline', {
      type: 'string',
      describe: 'Known failures (from --write-baseline): reported, not failing the run; exit 1 on new ones only',
    })
    .option('write-baseline', {
      type: 'string',
      describe: "Write this run's failures (at or above --fail-on) as a baseline file; exit 0 when the run completed",
    })
    .option('list', { type: 'boolean', default: false, describe: 'Print the cases a run would send, and send nothing' })
    .option('reporter', {
      type: 'string',
      array: true,
      choices: REPORTERS,
      default: ['pretty'],
      describe: `${REPORTERS.join(' | ')} (repeatable)`,
    })
    .option('out', {
      type: 'string',
      array: true,
      describe: `Output file of each reporter but pretty (${FILE_REPORTERS.join(', ')}), in the order given`,
    });
}

function refuse(message: string): never {
  throw new ConformanceError('CONFORMANCE_OPTIONS', message);
}

function strings(value: unknown, name: string): string[] {
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((v) => (typeof v === 'string' ? v : refuse(`--${name} needs a text value`)));
}

/** `name:value` (a header) or `name=value` (a parameter) pairs; the first separator splits. */
function pairs(list: readonly string[], separator: string, name: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of list) {
    const at = item.indexOf(separator);
    if (at <= 0) refuse(`--${name} ${JSON.stringify(item)}: expected <name>${separator}<value>`);
    out[item.slice(0, at).trim()] = item.slice(at + 1).trim();
  }
  return out;
}

/** The settings given on the command line, in the library's form (a list given empty is not given). */
function settingsFrom(args: Record<string, unknown>): RunSettings {
  const given: Record<string, unknown> = {};
  for (const name of SETTING_NAMES) {
    const setting: Setting = SETTINGS[name];
    const value = args[setting.flag];
    if (value === undefined) continue;
    if (setting.kind === 'headers') given[name] = pairs(strings(value, setting.flag), ':', setting.flag);
    else if (setting.kind !== 'list') given[name] = value;
    else if (strings(value, setting.flag).length > 0) given[name] = strings(value, setting.flag);
  }
  return given as RunSettings;
}

function inputsFrom(
  args: Record<string, unknown>,
  env: Readonly<Record<string, string | undefined>>,
  aliases: readonly InputAlias[],
): Record<string, string> {
  const inputs: Record<string, string> = {};
  for (const alias of aliases) {
    const value = args[alias.flag] ?? (alias.env === undefined ? undefined : env[alias.env]);
    if (value !== undefined) inputs[alias.param ?? alias.flag] = String(value);
  }
  return { ...inputs, ...pairs(strings(args.param, 'param'), '=', 'param') };
}

function reportersFrom(args: Record<string, unknown>): ReporterTarget[] {
  const names = [...new Set(strings(args.reporter, 'reporter'))].map((name) =>
    REPORTERS.includes(name as ReporterName)
      ? (name as ReporterName)
      : refuse(`--reporter must be one of ${REPORTERS.join(', ')}`),
  );
  const outs = strings(args.out, 'out');
  const filed = names.filter((n) => n !== 'pretty');
  if (outs.length > filed.length)
    refuse(`--out given ${outs.length} time(s) for ${filed.length} file reporter(s) (${FILE_REPORTERS.join(', ')})`);
  const targets = names.map((name) =>
    name === 'pretty'
      ? { name }
      : { name, ...(outs[filed.indexOf(name)] === undefined ? {} : { out: outs[filed.indexOf(name)]! }) },
  );
  if (targets.filter((t) => !('out' in t)).length > 1)
    refuse('only one reporter can write to standard output: give the others --out <file>');
  return targets;
}

function refuseAliasesWithoutTarget(args: Record<string, unknown>, defaults: ConformanceCliDefaults): void {
  const flags = defaults.inputAliases.map((a) => a.flag);
  if (defaults.aliasesNeedTarget === undefined || !flags.some((f) => args[f] !== undefined)) return;
  refuse(`${flags.map((f) => `--${f}`).join('/')} apply to a --target; ${defaults.aliasesNeedTarget}`);
}

/** The contract: --wsdl, else the CLI's default (yargs demands --wsdl when there is none). */
function wsdlOf(args: Record<string, unknown>, defaults: ConformanceCliDefaults): string {
  if (typeof args.wsdl === 'string' && args.wsdl !== '') return args.wsdl;
  return defaults.wsdl ?? refuse('--wsdl is required: the contract to check the server against');
}

/** Validates parsed yargs arguments; `env` supplies the aliases' environment fallbacks. */
export function validateConformanceArgs(
  args: Record<string, unknown>,
  env: Readonly<Record<string, string | undefined>>,
  defaults: ConformanceCliDefaults,
): ConformanceCliOptions {
  const inputs = inputsFrom(args, env, defaults.inputAliases);
  const target = typeof args.target === 'string' ? args.target : undefined;
  if (target === undefined) refuseAliasesWithoutTarget(args, defaults);
  const single = (name: string): string | undefined => {
    const value = args[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value.trim() === '') return refuse(`--${name} needs a file name`);
    return value;
  };
  const inputsFile = single('inputs');
  const baseline = single('baseline');
  const writeBaseline = single('write-baseline');
  const { requireResults, ...settings } = resolveSettings(settingsFrom(args), flagLabel);
  const wsdl = wsdlOf(args, defaults);
  const requireGiven = typeof args[SETTINGS.requireResults.flag] === 'boolean';
  const options: ConformanceCliOptions = {
    ...settings,
    wsdl,
    inputs,
    list: args.list === true,
    reporters: reportersFrom({ reporter: args.reporter ?? ['pretty'], out: args.out }),
    ...(requireGiven ? { requireResults } : {}),
    ...(!requireGiven && defaults.requireResults !== undefined
      ? { requireResults: defaults.requireResults(wsdl) }
      : {}),
    ...(target === undefined ? {} : { target }),
    ...(inputsFile === undefined ? {} : { inputsFile }),
    ...(baseline === undefined ? {} : { baseline }),
    ...(writeBaseline === undefined ? {} : { writeBaseline }),
  };
  if (options.list && writeBaseline !== undefined) refuse('--write-baseline needs a run: it cannot go with --list');
  if (options.maxFailures !== undefined && writeBaseline !== undefined)
    refuse('--write-baseline records every failure: it cannot go with --max-failures, which stops the run early');
  return Object.freeze(options);
}
