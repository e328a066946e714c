/**
 * Where the contract comes from: a WSDL file (local imports followed by the parser), or a URL
 * (typically `<target>?wsdl`), fetched once and parsed from a temporary file. Either way the
 * result is the model, its descriptor and the WSDL text (served by the embedded service).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { toDescriptor } from '../generator/descriptor.js';
import { parseWsdl } from '../generator/parse/index.js';
import type { WsdlModel } from '../generator/model.js';
import type { ServiceDescriptor } from '../runtime/descriptor.js';
import { ConformanceError } from './errors.js';
import { classifyTransportError } from './transport.js';

export interface Contract {
  readonly model: WsdlModel;
  readonly descriptor: ServiceDescriptor;
  readonly wsdlText: string;
}

async function fetchText(url: string, timeoutMs: number): Promise<string> {
  let response;
  try {
    response = await request(url, { headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  } catch (error) {
    throw new ConformanceError('CONTRACT_UNREADABLE', `cannot fetch the WSDL ${url}: ${classifyTransportError(error, new URL(url).origin, timeoutMs).message}`);
  }
  const text = await response.body.text();
  if (response.statusCode !== 200) throw new ConformanceError('CONTRACT_UNREADABLE', `cannot fetch the WSDL ${url}: HTTP ${response.statusCode}`);
  return text;
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

export async function loadContract(wsdl: string, timeoutMs: number): Promise<Contract> {
  const isUrl = /^https?:\/\//i.test(wsdl);
  let wsdlText: string;
  try {
    wsdlText = isUrl ? await fetchText(wsdl, timeoutMs) : readFileSync(wsdl, 'utf8');
  } catch (error) {
    if (error instanceof ConformanceError) throw error;
    throw new ConformanceError('CONTRACT_UNREADABLE', `cannot read the WSDL ${wsdl}: ${error instanceof Error ? error.message : String(error)}`);
  }
  // Parser errors (GeneratorError, with file:line) pass through: they already say what is wrong.
  const model = isUrl ? parseText(wsdlText, wsdl) : parseWsdl(wsdl);
  return { model, descriptor: toDescriptor(model), wsdlText };
}
