/**
 * The rich section's requests and its echo check: the SOAP 1.1 request bytes are built once by
 * the runtime (the generated client sends the same), and every server's answer is decoded by the
 * runtime and compared value by value with what was sent, so a server that answers 200 with a
 * wrong or lossy echo is refused before anything is measured.
 */
import { ServiceClient, parseSoapResponse, soap11 } from '../../runtime/index.js';
import { RichServiceDescriptor } from '../../test/golden/generated/asmx-rich/rich-service/index.js';
import type { HttpRequestSpec } from './payloads.js';
import { RICH_PATH, richInput, type RichOp } from './rich-payloads.js';

/** The SOAP 1.1 request of `op` with the section's payload. */
export function richRequest(op: RichOp): HttpRequestSpec {
  const client = new ServiceClient(RichServiceDescriptor, { url: `http://127.0.0.1${RICH_PATH}`, binding: 'soap11' });
  const wire = client.buildRequest(op, richInput(op).input);
  void client.close();
  return { method: 'POST', path: wire.path, headers: wire.headers, body: wire.body! };
}

function soap11Operation(op: RichOp) {
  const binding = RichServiceDescriptor.bindings.find((b) => b.protocol === 'soap11');
  const descriptor = binding?.operations.find((o) => o.method === op);
  if (descriptor === undefined) throw new Error(`rich.wsdl has no soap11 operation ${op}`);
  return descriptor;
}

/** Undefined when the response is a correct echo of `op`'s payload, else what is wrong. */
export function echoMismatch(op: RichOp, status: number, contentType: string, body: string): string | undefined {
  if (status !== 200) return `HTTP ${status}: ${body.slice(0, 300)}`;
  let output: unknown;
  try {
    output = parseSoapResponse(
      RichServiceDescriptor,
      soap11,
      soap11Operation(op),
      status,
      contentType,
      Buffer.from(body),
    );
  } catch (error) {
    return `the response does not decode: ${error instanceof Error ? error.message : String(error)}`;
  }
  return firstDifference(richInput(op).output, output, op);
}

/** The path and values of the first difference between two decoded values (bytes compared as bytes). */
export function firstDifference(want: unknown, got: unknown, path: string): string | undefined {
  if (want instanceof Uint8Array || got instanceof Uint8Array) {
    const same = want instanceof Uint8Array && got instanceof Uint8Array && Buffer.from(want).equals(Buffer.from(got));
    return same ? undefined : `${path}: bytes differ`;
  }
  if (want === null || got === null || typeof want !== 'object' || typeof got !== 'object') {
    return Object.is(want, got) ? undefined : `${path}: want ${show(want)}, got ${show(got)}`;
  }
  if (Array.isArray(want) !== Array.isArray(got))
    return `${path}: want ${Array.isArray(want) ? 'an array' : 'an object'}`;
  const keys = new Set([...Object.keys(want), ...Object.keys(got)]);
  for (const key of keys) {
    const difference = firstDifference(
      (want as Record<string, unknown>)[key],
      (got as Record<string, unknown>)[key],
      `${path}.${key}`,
    );
    if (difference !== undefined) return difference;
  }
  return undefined;
}

function show(value: unknown): string {
  return typeof value === 'bigint' ? `${value}n` : (JSON.stringify(value) ?? String(value));
}
