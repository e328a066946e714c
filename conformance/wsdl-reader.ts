/**
 * Reads a WSDL document given as text (the server's `?wsdl` answer) with the generator's own
 * parser and descriptor builder, so the comparison uses the same reading of WSDL as the run.
 * The parser reads files (it follows local imports), so the text goes through a temporary file.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toDescriptor } from '../generator/descriptor/index.js';
import { parseWsdl } from '../generator/parse/index.js';
import type { ServiceDescriptor } from '../runtime/descriptor.js';

export function descriptorFromWsdlText(text: string | Uint8Array, name = 'served.wsdl'): ServiceDescriptor {
  const dir = mkdtempSync(join(tmpdir(), 'smskit-conformance-'));
  try {
    const file = join(dir, name);
    writeFileSync(file, text);
    return toDescriptor(parseWsdl(file));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
