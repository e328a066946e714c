/**
 * `--inputs FILE`: the values a run sends, per operation, as JSON or YAML.
 *
 *     "*":                    # every operation that has the parameter / header
 *       input:
 *         emailAddress: ops@example.com
 *         password: { $env: SMSKIT_PASSWORD }
 *     Add:                    # an operation by method or WSDL name
 *       input: { a: 6, b: 3 }
 *     EchoOrder:
 *       input:
 *         order/Customer/Name: Zoë   # a path, or nested objects
 *     WhoAmI:
 *       headers:
 *         AuthHeader: { User: alice, Token: { $env: RICH_TOKEN } }
 *
 * `{ $env: NAME }` takes the value from the environment and marks it secret (redacted in every
 * output). Values are checked against the contract when the catalogue is built; a mistake is a
 * CONFORMANCE_INPUTS error naming the file, the operation and the path.
 */
import { readFileSync } from 'node:fs';
import { ConformanceError } from '../../conformance/errors.js';
import type { ConformanceInputs, OperationInputs } from '../../conformance/catalogue/inputs.js';

function refuse(file: string, message: string): never {
  throw new ConformanceError('CONFORMANCE_INPUTS', `--inputs ${file}: ${message}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Replaces `{ $env: NAME }` by the variable's value, collecting it as a secret. */
function resolveEnv(
  file: string,
  json: unknown,
  path: string,
  env: Readonly<Record<string, string | undefined>>,
  secrets: Set<string>,
): unknown {
  if (Array.isArray(json)) return json.map((item, i) => resolveEnv(file, item, `${path}[${i + 1}]`, env, secrets));
  if (!isRecord(json)) return json;
  const keys = Object.keys(json);
  if (keys.includes('$env')) {
    const name = json.$env;
    if (keys.length !== 1 || typeof name !== 'string')
      refuse(file, `${path}: { $env: NAME } takes one variable name and nothing else`);
    const value = env[name];
    if (value === undefined) refuse(file, `${path}: the environment variable ${name} is not set`);
    if (value !== '') secrets.add(value);
    return value;
  }
  return Object.fromEntries(
    keys.map((k) => [k, resolveEnv(file, json[k], path === '' ? k : `${path}/${k}`, env, secrets)]),
  );
}

async function parseText(file: string, text: string): Promise<unknown> {
  if (/\.json$/i.test(file)) {
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      return refuse(file, `not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  // yaml is CommonJS: Node's ESM wrapper gives named exports and a default, but the chunk the CLI
  // bundle (esbuild code splitting) makes of it has only the default: take parse from either.
  const yaml: typeof import('yaml') & { default?: typeof import('yaml') } = await import('yaml');
  const { parse } = yaml.default ?? yaml;
  try {
    return parse(text) as unknown;
  } catch (error) {
    return refuse(file, `not valid YAML: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
}

/** The operations' values and the secrets they hold, from the file's text. */
export async function parseInputsFile(
  file: string,
  text: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<Pick<ConformanceInputs, 'operations' | 'secretValues' | 'source'>> {
  const json = await parseText(file, text);
  if (json === null || json === undefined) return { operations: {}, secretValues: [], source: `--inputs ${file}` };
  if (!isRecord(json)) refuse(file, 'expected a mapping of operation names ("*" for all) to { input, headers }');
  const secrets = new Set<string>();
  const operations: Record<string, OperationInputs> = {};
  for (const [name, spec] of Object.entries(json)) {
    if (!isRecord(spec)) refuse(file, `${name}: expected { input: …, headers: … }`);
    for (const part of ['input', 'headers'] as const) {
      if (spec[part] !== undefined && !isRecord(spec[part]))
        refuse(
          file,
          `${name}/${part}: expected a mapping of ${part === 'input' ? 'parameters (or paths)' : 'header blocks'} to values`,
        );
    }
    operations[name] = resolveEnv(file, spec, name, env, secrets) as OperationInputs;
  }
  return { operations, secretValues: [...secrets], source: `--inputs ${file}` };
}

export async function readInputsFile(
  file: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<Pick<ConformanceInputs, 'operations' | 'secretValues' | 'source'>> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return refuse(file, `cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  return parseInputsFile(file, text, env);
}
