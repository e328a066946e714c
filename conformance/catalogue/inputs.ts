/**
 * Inputs for the positive cases: what the user gives, before it meets the schema.
 *
 * - `values`: text by key, from the command line (`--param name=value`, and the shorthand flags
 *   the CLI defines for its own contract). A key names an operation parameter by name,
 *   never by position or by knowledge of the service:
 *     1. a parameter of exactly that name; else
 *     2. one whose name equals the key ignoring case; else
 *     3. the single parameter whose name starts or ends with the key, ignoring case
 *        (`email` → `emailAddress`, `id` → `customerId`).
 *   A key with `/` is a path from a parameter (`order/Customer/Name`). A key matching no
 *   parameter of any operation, or several, is an error. The text is converted by the
 *   parameter's type (`6` for an xs:int; JSON for an array or a complex value).
 * - `operations`: JSON per operation (its method or WSDL name, or `*` for every operation that
 *   has the parameter): `input` by parameter and path, `headers` by SOAP header block
 *   (`--inputs FILE`, JSON or YAML).
 *
 * Everything the user leaves out is a sample built from the schema (samples.ts).
 */
import { ConformanceError } from '../errors.js';

/** One operation's values: its input (by parameter, nested objects or `a/b` paths) and SOAP header blocks. */
export interface OperationInputs {
  readonly input?: Readonly<Record<string, unknown>>;
  readonly headers?: Readonly<Record<string, unknown>>;
}

export interface ConformanceInputs {
  /** Text values by short key, exact parameter name or path (command-line flags). */
  readonly values: Readonly<Record<string, string>>;
  /** Keys of `values` whose values are secrets (redacted); `password` always is. */
  readonly secrets?: readonly string[];
  /** Values per operation (method or WSDL name), and `*` for every operation. */
  readonly operations?: Readonly<Record<string, OperationInputs>>;
  /** More values to redact in every output (an inputs file's `$env` and secret-named values). */
  readonly secretValues?: readonly string[];
  /** Where `operations` came from (a file name), for messages. */
  readonly source?: string;
}

/** Member names that hold secrets: their values are redacted wherever they appear. */
const SECRET_NAME = /password|passwd|secret|token|api[-_]?key|credential/i;

function matchKey(key: string, params: readonly string[]): string[] {
  const head = key.includes('/') ? key.slice(0, key.indexOf('/')) : key;
  if (params.includes(head)) return [head];
  if (key.includes('/')) return [];
  const lower = key.toLowerCase();
  const equal = params.filter((p) => p.toLowerCase() === lower);
  if (equal.length > 0) return equal;
  return params.filter((p) => p.toLowerCase().startsWith(lower) || p.toLowerCase().endsWith(lower));
}

/**
 * Binds input keys to parameter names for one operation: parameter (or path from it) -> text.
 * `allParams` is every parameter name of every operation, so that a key unknown everywhere is
 * reported once, clearly.
 */
export function bindInputs(
  inputs: Pick<ConformanceInputs, 'values'>,
  params: readonly string[],
  allParams: readonly string[],
): Map<string, string> {
  const bound = new Map<string, string>();
  const boundBy = new Map<string, string>();
  const everyParam = [...new Set(allParams)];
  for (const [key, value] of Object.entries(inputs.values)) {
    const everywhere = matchKey(key, everyParam);
    if (everywhere.length === 0)
      throw new ConformanceError(
        'CONFORMANCE_OPTIONS',
        `input "${key}" matches no parameter (parameters: ${everyParam.join(', ') || 'none'})`,
      );
    if (everywhere.length > 1)
      throw new ConformanceError(
        'CONFORMANCE_OPTIONS',
        `input "${key}" is ambiguous: it matches ${everywhere.join(', ')}; use --param <exact name>=<value>`,
      );
    const param = everywhere[0]!;
    if (!params.includes(param)) continue;
    const target = key.includes('/') ? key : param;
    const previous = boundBy.get(target);
    if (previous !== undefined && previous !== target && key !== target) {
      throw new ConformanceError(
        'CONFORMANCE_OPTIONS',
        `inputs "${previous}" and "${key}" both name parameter ${param}`,
      );
    }
    // An exact name wins over a short key naming the same parameter.
    if (previous === undefined || key === target) {
      bound.set(target, value);
      boundBy.set(target, key);
    }
  }
  return bound;
}

function collectSecrets(json: unknown, secretKey: boolean, into: Set<string>): void {
  if (typeof json === 'string' || typeof json === 'number') {
    if (secretKey && String(json) !== '') into.add(String(json));
    return;
  }
  if (Array.isArray(json)) for (const item of json) collectSecrets(item, secretKey, into);
  else if (typeof json === 'object' && json !== null)
    for (const [key, value] of Object.entries(json)) collectSecrets(value, secretKey || SECRET_NAME.test(key), into);
}

/**
 * The values to redact: every secret key's value, every value bound to a parameter or member
 * whose name says it is a secret (`password`, `token`, ...), and the inputs' `secretValues`.
 */
export function secretValues(inputs: ConformanceInputs, allParams: readonly string[]): string[] {
  const secrets = new Set<string>(inputs.secretValues ?? []);
  const secretKeys = new Set((inputs.secrets ?? []).map((k) => k.toLowerCase()));
  for (const [key, value] of Object.entries(inputs.values)) {
    const params = matchKey(key, [...new Set(allParams)]);
    const isSecret =
      secretKeys.has(key.toLowerCase()) || SECRET_NAME.test(key) || params.some((p) => SECRET_NAME.test(p));
    if (isSecret && value !== '') secrets.add(value);
  }
  for (const spec of Object.values(inputs.operations ?? {})) collectSecrets(spec, false, secrets);
  return [...secrets];
}
