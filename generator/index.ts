/** The generator's public surface: WSDL -> model -> generated files / descriptor. */
export { parseWsdl } from './parse/index.js';
export { generate, DEFAULT_RUNTIME_IMPORT, type GenerateOptions } from './generate.js';
export { toDescriptor } from './descriptor/index.js';
