/**
 * The built-in contracts, shipped in the package: the SMS contract (the default WSDL of generate
 * and conformance) and the status contract served beside it at /statusapi.asmx.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { packageFile } from './package-files.js';

/** Its path inside the package, also a module specifier users can resolve (package.json "exports"). */
export const BUILT_IN_WSDL = 'wsdl/serviceapi.wsdl';

/** The status contract (GetMessageStatus), generated with the SMS contract into one tree. */
export const BUILT_IN_STATUS_WSDL = 'wsdl/statusapi.wsdl';

/** What `smskit generate` reads without --wsdl: every built-in contract, in this order. */
export const BUILT_IN_WSDLS = [BUILT_IN_WSDL, BUILT_IN_STATUS_WSDL] as const;

export function builtInWsdlPath(): string {
  return packageFile(BUILT_IN_WSDL);
}

/** The built-in contract as published at `?wsdl` (its addresses are rewritten per request). */
export function builtInWsdlText(): string {
  return readFileSync(builtInWsdlPath(), 'utf8');
}

/** The status contract as published at `/statusapi.asmx?wsdl`. */
export function builtInStatusWsdlText(): string {
  return readFileSync(packageFile(BUILT_IN_STATUS_WSDL), 'utf8');
}

/**
 * How a provenance header names `path` when it is one of the built-in contracts: `smskit/wsdl/…`,
 * stable wherever (and however hoisted) the package is installed; else undefined.
 */
export function builtInLabel(path: string): string | undefined {
  const found = BUILT_IN_WSDLS.find((wsdl) => samePath(path, packageFile(wsdl)));
  return found === undefined ? undefined : `smskit/${found}`;
}

function samePath(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

/** Whether `path` (relative to the working directory, or absolute) is the built-in SMS contract file. */
export function isBuiltInWsdl(path: string): boolean {
  return samePath(path, builtInWsdlPath());
}
