/**
 * Where the contract comes from: a WSDL file (local imports followed by the parser), or a URL
 * (typically `<target>?wsdl`), fetched once and parsed from a temporary file. Either way the
 * result is the model, its descriptor and the WSDL text (served by the embedded service).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { toDescriptor } from '../generator/descriptor.js';
import { parseWsdl } from '../generator/parse/index.js';
import type { WsdlModel } from '../generator/model.js';
import type { ServiceDescriptor } from '../runtime/descriptor.js';
import { ConformanceError } from './errors.js';
import { TransportError } from '../runtime/errors.js';
import { send } from '../runtime/transport.js';

export interface Contract {
  readonly model: WsdlModel;
  readonly descriptor: ServiceDescriptor;
  readonly wsdlText: string;
}

/** Largest WSDL fetched from a URL: the biggest real ASMX WSDLs are well under 1 MiB. */
export const MAX_WSDL_BYTES = 16 * 1024 * 1024;

async function fetchText(url: string, timeoutMs: number, maxBytes: number): Promise<string> {
  const target = new URL(url);
  const pool = new Pool(target.origin, { connections: 1 });
  try {
    const response = await send(pool, { method: 'GET', path: `${target.pathname}${target.search}`, headers: {}, body: undefined }, { timeoutMs, maxResponseBytes: maxBytes, signal: undefined });
    if (response.status !== 200) throw new ConformanceError('CONTRACT_UNREADABLE', `cannot fetch the WSDL ${url}: HTTP ${response.status}`);
    return response.body.toString('utf8');
  } catch (error) {
    if (error instanceof TransportError) throw new ConformanceError('CONTRACT_UNREADABLE', `cannot fetch the WSDL ${url}: ${error.message}`);
    throw error;
  } finally {
    void pool.destroy().catch(() => {});
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

export async function loadContract(wsdl: string, timeoutMs: number, maxBytes = MAX_WSDL_BYTES): Promise<Contract> {
  const isUrl = /^https?:\/\//i.test(wsdl);
  let wsdlText: string;
  try {
    wsdlText = isUrl ? await fetchText(wsdl, timeoutMs, maxBytes) : readFileSync(wsdl, 'utf8');
  } catch (error) {
    if (error instanceof ConformanceError) throw error;
    throw new ConformanceError('CONTRACT_UNREADABLE', `cannot read the WSDL ${wsdl}: ${error instanceof Error ? error.message : String(error)}`);
  }
  // Parser errors (GeneratorError, with file:line) pass through: they already say what is wrong.
  const model = isUrl ? parseText(wsdlText, wsdl) : parseWsdl(wsdl);
  return { model, descriptor: toDescriptor(model), wsdlText };
}
