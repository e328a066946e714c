/**
 * XSD built-in -> TypeScript primitive: the table in docs/generator.md ("XSD → TypeScript type
 * mapping"), as code. It is the `ts` fact of the runtime's primitive table (runtime/primitives.ts),
 * which the codecs read too, so the generated type and the wire value cannot disagree.
 */

import { PRIMITIVES, xsdBuiltin, type PrimitiveName, type TsPrimitive } from '../../runtime/primitives.js';

export type { TsPrimitive };

/** The primitive and its TS type for an XSD built-in local name, or undefined when the built-in is unsupported. */
export function tsTypeOfXsd(xsdLocal: string): { readonly xsd: PrimitiveName; readonly ts: TsPrimitive } | undefined {
  const xsd = xsdBuiltin(xsdLocal);
  return xsd === undefined ? undefined : { xsd, ts: PRIMITIVES[xsd].ts };
}
