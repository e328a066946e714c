/**
 * The run's settings, each defined once: its flag, its type, its default, the values it accepts
 * and its description. The library's options (`ConformanceOptions` extends `RunSettings`), their
 * validation and defaults (`resolveSettings`, called by `validateOptions`) and the CLI's flags
 * (bin/conformance/options.ts) all come from `SETTINGS`.
 */
import { BOUND_RANGES, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_RUN_TIMEOUT_MS, DEFAULT_TIMEOUT_MS } from './bounds.js';
import { ConformanceError } from '../errors.js';
import { CASE_BINDINGS, LEVELS } from '../types.js';

interface SettingBase {
  /** The CLI flag (`--timeout`); the library's option is the table's key (`timeoutMs`). */
  readonly flag: string;
  readonly alias?: string;
  readonly describe: string;
}

interface IntegerSetting extends SettingBase {
  readonly kind: 'integer';
  readonly min: number;
  readonly max: number;
  readonly default?: number;
  /** How the default is shown in the help. */
  readonly unit?: 'bytes';
}

interface ChoiceSetting<T extends string> extends SettingBase {
  readonly kind: 'choice';
  readonly choices: readonly T[];
  readonly default: T;
}

/** Repeatable; a list with a default is never absent, one without is absent when not given (no filter). */
interface ListSetting<T extends string> extends SettingBase {
  readonly kind: 'list';
  readonly choices?: readonly T[];
  readonly default?: readonly T[];
}

interface BooleanSetting extends SettingBase {
  readonly kind: 'boolean';
  readonly default: boolean;
}

/** `name:value` pairs on the command line, a record in the library. */
interface HeadersSetting extends SettingBase {
  readonly kind: 'headers';
  readonly default: Readonly<Record<string, string>>;
}

export type Setting = IntegerSetting | ChoiceSetting<string> | ListSetting<string> | BooleanSetting | HeadersSetting;

const MiB = 1024 * 1024;

export const SETTINGS = {
  binding: {
    kind: 'list',
    flag: 'binding',
    choices: CASE_BINDINGS,
    describe: 'Only these bindings (repeatable)',
  },
  operation: { kind: 'list', flag: 'operation', describe: 'Only these operations (repeatable)' },
  run: {
    kind: 'list',
    flag: 'run',
    default: [],
    describe: 'Only cases whose id matches a glob (* within a segment, ** across)',
  },
  skip: { kind: 'list', flag: 'skip', default: [], describe: 'Skip cases whose id matches a glob' },
  level: {
    kind: 'choice',
    flag: 'level',
    choices: LEVELS,
    default: 'compat',
    describe: 'Run checks (and cases) of this level and stricter',
  },
  failOn: {
    kind: 'choice',
    flag: 'fail-on',
    choices: LEVELS,
    default: 'must',
    describe: 'Exit 1 when a failure is at or above this level',
  },
  maxFailures: {
    kind: 'integer',
    flag: 'max-failures',
    min: 1,
    max: 1_000_000,
    describe: 'Stop sending after this many failing cases (the rest: not run)',
  },
  requireResults: {
    kind: 'boolean',
    flag: 'require-results',
    default: false,
    describe:
      'Every result element must be in an answer even where the schema makes it optional (the CLI turns it on for the built-in contract)',
  },
  concurrency: {
    kind: 'integer',
    flag: 'concurrency',
    min: 1,
    max: 256,
    default: 16,
    describe: 'Requests in flight (keep-alive connections)',
  },
  timeoutMs: {
    kind: 'integer',
    flag: 'timeout',
    ...BOUND_RANGES.timeoutMs,
    default: DEFAULT_TIMEOUT_MS,
    describe: 'Time limit of each exchange, connect to last body byte (ms)',
  },
  retries: {
    kind: 'integer',
    flag: 'retries',
    min: 0,
    max: 10,
    default: 1,
    describe: 'Retries after a transport error (never after an HTTP answer)',
  },
  maxResponseBytes: {
    kind: 'integer',
    flag: 'max-response-bytes',
    ...BOUND_RANGES.maxResponseBytes,
    default: DEFAULT_MAX_RESPONSE_BYTES,
    unit: 'bytes',
    describe: 'Largest response body read; a larger one fails its case',
  },
  runTimeoutMs: {
    kind: 'integer',
    flag: 'run-timeout',
    ...BOUND_RANGES.runTimeoutMs,
    default: DEFAULT_RUN_TIMEOUT_MS,
    describe: 'Time limit of the whole run (ms); cases it cuts off are reported as not run, exit 2',
  },
  headers: {
    kind: 'headers',
    flag: 'header',
    alias: 'H',
    default: {},
    describe: 'Extra request header name:value (repeatable)',
  },
  maxBodyBytes: {
    kind: 'integer',
    flag: 'max-body-bytes',
    min: 1024,
    max: 1024 * MiB,
    default: 4 * MiB,
    unit: 'bytes',
    describe: "The server's body limit, exceeded by the over-size cases",
  },
} as const satisfies Readonly<Record<string, Setting>>;

type Settings = typeof SETTINGS;
export type SettingName = keyof Settings;

/** The value type of a setting. */
type ValueOf<S> = S extends IntegerSetting
  ? number
  : S extends BooleanSetting
    ? boolean
    : S extends HeadersSetting
      ? Readonly<Record<string, string>>
      : S extends { readonly kind: 'choice'; readonly choices: readonly (infer T)[] }
        ? T
        : S extends { readonly kind: 'list'; readonly choices: readonly (infer T)[] }
          ? readonly T[]
          : readonly string[];

type WithDefault = { [K in SettingName]: Settings[K] extends { readonly default: unknown } ? K : never }[SettingName];

/** The run's settings as a caller gives them: each optional, SETTINGS says the default. */
export type RunSettings = { readonly [K in SettingName]?: ValueOf<Settings[K]> };

/** After `resolveSettings`: defaults filled in; only the settings without a default may be absent. */
export type ResolvedSettings = { readonly [K in WithDefault]: ValueOf<Settings[K]> } & {
  readonly [K in Exclude<SettingName, WithDefault>]?: ValueOf<Settings[K]>;
};

export const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];

/** How a setting is named in a message: `timeoutMs` for the library, `--timeout` on the command line. */
export type SettingLabel = (name: SettingName) => string;

const optionLabel: SettingLabel = (name) => name;
export const flagLabel: SettingLabel = (name) => `--${SETTINGS[name].flag}`;

function refuse(message: string): never {
  throw new ConformanceError('CONFORMANCE_OPTIONS', message);
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function resolveOne(setting: Setting, value: unknown, label: string): unknown {
  switch (setting.kind) {
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value) || value < setting.min || value > setting.max)
        refuse(`${label} must be an integer from ${setting.min} to ${setting.max}, got ${String(value)}`);
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') refuse(`${label} must be true or false, got ${String(value)}`);
      return value;
    case 'choice':
      if (!setting.choices.includes(value as string))
        refuse(`${label} must be one of ${setting.choices.join(', ')}, got ${String(value)}`);
      return value;
    case 'list': {
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) refuse(`${label} must be a list of text`);
      const unknown = setting.choices === undefined ? [] : value.filter((v) => !setting.choices!.includes(v));
      if (unknown.length > 0) refuse(`${label}: unknown ${unknown.join(', ')} (one of ${setting.choices!.join(', ')})`);
      return Object.freeze([...value]);
    }
    case 'headers': {
      if (typeof value !== 'object' || value === null) refuse(`${label} must map header names to values`);
      const headers: Record<string, string> = {};
      for (const [name, text] of Object.entries(value)) {
        if (!HEADER_NAME.test(name) || typeof text !== 'string' || /[\r\n]/.test(text))
          refuse(`${label}: invalid extra header ${JSON.stringify(name)}`);
        headers[name.toLowerCase()] = text;
      }
      return Object.freeze(headers);
    }
  }
}

/** Validates the settings given and fills in the defaults; a bad value is a CONFORMANCE_OPTIONS error. */
export function resolveSettings(given: RunSettings, label: SettingLabel = optionLabel): ResolvedSettings {
  const resolved: Record<string, unknown> = {};
  for (const name of SETTING_NAMES) {
    const setting: Setting = SETTINGS[name];
    const value = given[name] ?? ('default' in setting ? setting.default : undefined);
    if (value !== undefined) resolved[name] = resolveOne(setting, value, label(name));
  }
  return resolved as ResolvedSettings;
}

/** The settings among `options` (the rest of a larger options object left out). */
export function pickSettings(options: RunSettings): RunSettings {
  const picked: Record<string, unknown> = {};
  for (const name of SETTING_NAMES) if (options[name] !== undefined) picked[name] = options[name];
  return picked as RunSettings;
}
