/**
 * Inputs for the positive cases. The user names values by a short key (`email`, `to`) or by the
 * exact parameter name (`--param smsto=...`); each key is matched to the operation parameters
 * by name, never by position or by knowledge of the service:
 *   1. a parameter of exactly that name; else
 *   2. one whose name equals the key ignoring case; else
 *   3. the single parameter whose name starts or ends with the key, ignoring case
 *      (`email` → `emailAddress`, `to` → `smsto`, `carrier` → `carrierCode`).
 * A key matching no parameter of any operation, or several, is an error. Parameters no input
 * binds are the "free" ones: they carry the case's text (plain, non-ASCII, empty, ...).
 */
import { ConformanceError } from './errors.js';

/** Values by key; `secret` keys are redacted in every output (and `password` always is). */
export interface ConformanceInputs {
  readonly values: Readonly<Record<string, string>>;
  readonly secrets?: readonly string[];
}

function matchKey(key: string, params: readonly string[]): string[] {
  if (params.includes(key)) return [key];
  const lower = key.toLowerCase();
  const equal = params.filter((p) => p.toLowerCase() === lower);
  if (equal.length > 0) return equal;
  return params.filter((p) => p.toLowerCase().startsWith(lower) || p.toLowerCase().endsWith(lower));
}

/**
 * Binds input keys to parameter names for one operation. `allParams` is every parameter name
 * of every operation, so that a key unknown everywhere is reported once, clearly.
 */
export function bindInputs(inputs: ConformanceInputs, params: readonly string[], allParams: readonly string[]): Map<string, string> {
  const bound = new Map<string, string>();
  const boundBy = new Map<string, string>();
  for (const [key, value] of Object.entries(inputs.values)) {
    const everywhere = matchKey(key, [...new Set(allParams)]);
    if (everywhere.length === 0) throw new ConformanceError('CONFORMANCE_OPTIONS', `input "${key}" matches no parameter (parameters: ${[...new Set(allParams)].join(', ')})`);
    if (everywhere.length > 1) throw new ConformanceError('CONFORMANCE_OPTIONS', `input "${key}" is ambiguous: it matches ${everywhere.join(', ')}; use --param <exact name>=<value>`);
    const param = everywhere[0]!;
    if (!params.includes(param)) continue;
    const previous = boundBy.get(param);
    if (previous !== undefined && previous !== param && key !== param) {
      throw new ConformanceError('CONFORMANCE_OPTIONS', `inputs "${previous}" and "${key}" both name parameter ${param}`);
    }
    // An exact name wins over a short key naming the same parameter.
    if (previous === undefined || key === param) {
      bound.set(param, value);
      boundBy.set(param, key);
    }
  }
  return bound;
}

/** The values to redact: every secret key's value and every value bound to a `password` parameter. */
export function secretValues(inputs: ConformanceInputs, allParams: readonly string[]): string[] {
  const secrets = new Set<string>();
  const secretKeys = new Set((inputs.secrets ?? []).map((k) => k.toLowerCase()));
  for (const [key, value] of Object.entries(inputs.values)) {
    const params = matchKey(key, [...new Set(allParams)]);
    const isSecret = secretKeys.has(key.toLowerCase()) || /password/i.test(key) || params.some((p) => /password/i.test(p));
    if (isSecret && value !== '') secrets.add(value);
  }
  return [...secrets];
}
