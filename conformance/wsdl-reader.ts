/**
 * Reads a WSDL document given as text (the server's `?wsdl` answer) with the generator's own
 * parser and descriptor builder, so the comparison uses the same reading of WSDL as the run.
 * The parser reads files (it follows local imports), so the text goes through a temporary file.
 *
 * The parser is loaded once, before a run (`loadWsdlParser`), so that the check itself stays a
 * synchronous, pure function of the exchange.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toDescriptor } from '../generator/descriptor.js';
import type { WsdlModel } from '../generator/model.js';
import type { ServiceDescriptor } from '../runtime/descriptor.js';

type ParseWsdl = (file: string) => WsdlModel;

let parser: ParseWsdl | undefined;
let loadFailure: string | undefined;

/** Loads the generator's WSDL parser; a failure is kept and reported by the wsdl check. */
export async function loadWsdlParser(): Promise<void> {
  if (parser !== undefined) return;
  try {
    const module = (await import('../generator/parse/index.js')) as { parseWsdl: ParseWsdl };
    parser = module.parseWsdl;
  } catch (error) {
    loadFailure = error instanceof Error ? error.message : String(error);
  }
}

export function descriptorFromWsdlText(text: string | Uint8Array, name = 'served.wsdl'): ServiceDescriptor {
  if (parser === undefined) throw new Error(`the WSDL parser is not available: ${loadFailure ?? 'loadWsdlParser() was not called'}`);
  const dir = mkdtempSync(join(tmpdir(), 'smskit-conformance-'));
  try {
    const file = join(dir, name);
    writeFileSync(file, text);
    return toDescriptor(parser(file));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
