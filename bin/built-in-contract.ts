/** The built-in contract: the WSDL text served at `?wsdl` and the generated descriptor. */
import { readFileSync } from 'node:fs';
import { ServiceAPIDescriptor } from '../generated/service-api/descriptor.js';
import type { ServiceDescriptor } from '../runtime/index.js';

/** The contract as published at `?wsdl` (its addresses are rewritten per request). */
export function builtInWsdlText(): string {
  return readFileSync(new URL('../wsdl/serviceapi.wsdl', import.meta.url), 'utf8');
}

export function builtInDescriptor(): ServiceDescriptor {
  return ServiceAPIDescriptor;
}
