/**
 * Reads one side of a diff: a WSDL file (local imports followed) or an http(s) URL such as a
 * server's `?wsdl`, fetched once through the runtime's bounded transport (a time limit and a
 * size limit, as the conformance runner fetches contracts). Both go through the generator's own
 * parser and descriptor builder, so the diff reads WSDL exactly as `smskit generate` does.
 *
 * A fetched document is parsed under its URL, so every location in the report names the URL;
 * its imports are not fetched (the parser never fetches), and an import is reported as such.
 */
import path from 'node:path';
import { Pool } from 'undici';
import { toDescriptor } from '../descriptor/index.js';
import { parseWsdl } from '../parse/index.js';
import type { WsdlModel } from '../model/index.js';
import { TransportError } from '../../runtime/errors.js';
import { send } from '../../runtime/transport.js';
import { DiffError } from './errors.js';
import type { Side } from './types.js';

export interface FetchLimits {
  readonly timeoutMs: number;
  readonly maxBytes: number;
}

/** A WSDL bigger than this is not a contract (the largest real ASMX WSDLs are well under 1 MiB). */
export const DEFAULT_FETCH_LIMITS: FetchLimits = { timeoutMs: 10_000, maxBytes: 16 * 1024 * 1024 };

export function isUrl(input: string): boolean {
  return /^https?:\/\//i.test(input);
}

export async function readSide(input: string, limits: FetchLimits = DEFAULT_FETCH_LIMITS): Promise<Side> {
  const model = isUrl(input) ? parseFetched(input, await fetchWsdl(input, limits)) : parseWsdl(input);
  return sideFromModel(input, model);
}

/** Every service of the model as the runtime sees it. */
export function sideFromModel(label: string, model: WsdlModel): Side {
  return { label, model, services: model.services.map((s) => toDescriptor(model, s.name)) };
}

async function fetchWsdl(url: string, limits: FetchLimits): Promise<Uint8Array> {
  const target = new URL(url);
  const pool = new Pool(target.origin, { connections: 1 });
  try {
    const response = await send(
      pool,
      { method: 'GET', path: `${target.pathname}${target.search}`, headers: {}, body: undefined },
      { timeoutMs: limits.timeoutMs, maxResponseBytes: limits.maxBytes, signal: undefined },
    );
    if (response.status !== 200)
      throw new DiffError('DIFF_INPUT_UNREADABLE', `cannot fetch the WSDL: HTTP ${response.status}`, {
        file: url,
        line: 1,
      });
    return response.body;
  } catch (error) {
    if (error instanceof TransportError)
      throw new DiffError('DIFF_INPUT_UNREADABLE', `cannot fetch the WSDL: ${error.message}`, { file: url, line: 1 });
    throw error;
  } finally {
    void pool.destroy().catch(() => {});
  }
}

/** Parses fetched bytes as if they were a file named by the URL; nothing else can be read. */
function parseFetched(url: string, bytes: Uint8Array): WsdlModel {
  const self = path.resolve(url);
  return parseWsdl(url, {
    readFile: (abs) => {
      if (abs === self) return bytes;
      // The parser names the import and shows `code` as the reason it cannot be read.
      throw Object.assign(new Error('imports of a fetched WSDL are not fetched'), {
        code: 'not fetched: save the WSDL and its imports locally',
      });
    },
  });
}
