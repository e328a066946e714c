/** The codec: descriptor-driven value <-> XML, and the per-XSD-type primitive codecs. */
export { encodeElement, encodeElementWith, encodeComplex, isXmlElement } from './encode.js';
export { decodeElement, decodeComplex, simpleText } from './decode.js';
export { primitiveCodec, isStringLike, type PrimitiveCodec } from './primitives.js';
export { checkEnumeration, resolveValue, type ResolvedValue } from './shared.js';
