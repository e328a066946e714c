/**
 * Where the contract comes from: a WSDL file (local imports followed by the parser), or a URL
 * (typically `<target>?wsdl`), fetched once — under the runner's own exchange bounds, as the
 * target may be the hostile server under test — and parsed from a temporary file. Either way
 * the result is the model, its descriptor and the WSDL text (served by the embedded service).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toDescriptor } from '../generator/descriptor.js';
import { parseWsdl } from '../generator/parse/index.js';
import type { WsdlModel } from '../generator/model.js';
import type { ServiceDescriptor } from '../runtime/descriptor.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from './bounds.js';
import { ConformanceError } from './errors.js';
import { Transport, TransportFailure } from './transport.js';

export interface Contract {
  readonly model: WsdlModel;
  readonly descriptor: ServiceDescriptor;
  readonly wsdlText: string;
}

async function fetchText(url: string, timeoutMs: number, maxBytes: number): Promise<string> {
  const target = new URL(url);
  const transport = new Transport({
    origin: target.origin,
    concurrency: 1,
    timeoutMs,
    retries: 0,
    maxResponseBytes: maxBytes,
    headers: {},
  });
  try {
    const { response } = await transport.send({
      method: 'GET',
      path: `${target.pathname}${target.search}`,
      headers: {},
    });
    if (response.status !== 200)
      throw new ConformanceError('CONTRACT_UNREADABLE', `cannot fetch the WSDL ${url}: HTTP ${response.status}`);
    return Buffer.from(response.body.buffer, response.body.byteOffset, response.body.byteLength).toString('utf8');
  } catch (error) {
    if (error instanceof TransportFailure)
      throw new ConformanceError('CONTRACT_UNREADABLE', `cannot fetch the WSDL ${url}: ${error.message}`);
    throw error;
  } finally {
    await transport.destroy();
  }
}

function parseText(text: string, label: string): WsdlModel {
  const dir = mkdtempSync(join(tmpdir(), 'smskit-contract-'));
  try {
    const file = join(dir, 'contract.wsdl');
    writeFileSync(file, text);
    return { ...parseWsdl(file), file: label };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function loadContract(
  wsdl: string,
  timeoutMs: number,
  maxBytes = DEFAULT_MAX_RESPONSE_BYTES,
): Promise<Contract> {
  const isUrl = /^https?:\/\//i.test(wsdl);
  let wsdlText: string;
  try {
    wsdlText = isUrl ? await fetchText(wsdl, timeoutMs, maxBytes) : readFileSync(wsdl, 'utf8');
  } catch (error) {
    if (error instanceof ConformanceError) throw error;
    throw new ConformanceError(
      'CONTRACT_UNREADABLE',
      `cannot read the WSDL ${wsdl}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  // Parser errors (GeneratorError, with file:line) pass through: they already say what is wrong.
  const model = isUrl ? parseText(wsdlText, wsdl) : parseWsdl(wsdl);
  return { model, descriptor: toDescriptor(model), wsdlText };
}
