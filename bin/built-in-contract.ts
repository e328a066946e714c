/** The built-in contract as published at `?wsdl` (its addresses are rewritten per request). */
import { readFileSync } from 'node:fs';

export function builtInWsdlText(): string {
  return readFileSync(new URL('../wsdl/serviceapi.wsdl', import.meta.url), 'utf8');
}
