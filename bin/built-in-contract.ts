/** The built-in contract, shipped in the package: the default WSDL of generate and conformance. */
import { readFileSync, realpathSync } from 'node:fs';
import { packageFile } from './package-files.js';

/** Its path inside the package, also a module specifier users can resolve (package.json "exports"). */
export const BUILT_IN_WSDL = 'wsdl/serviceapi.wsdl';
/** How provenance headers name it: stable wherever (and however hoisted) the package is installed. */
export const BUILT_IN_WSDL_LABEL = `smskit/${BUILT_IN_WSDL}`;

export function builtInWsdlPath(): string {
  return packageFile(BUILT_IN_WSDL);
}

/** The built-in contract as published at `?wsdl` (its addresses are rewritten per request). */
export function builtInWsdlText(): string {
  return readFileSync(builtInWsdlPath(), 'utf8');
}

/** Whether `path` (relative to the working directory, or absolute) is the built-in contract file. */
export function isBuiltInWsdl(path: string): boolean {
  try {
    return realpathSync(path) === realpathSync(builtInWsdlPath());
  } catch {
    return false;
  }
}
