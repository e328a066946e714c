/** The generator's public surface: WSDL -> model -> generated files / descriptor. */
export { parseWsdl } from '../contract/parse/index.js';
export {
  generate,
  generateTree,
  generateTrees,
  type TreeContract,
  type GenerateOptions,
  type GeneratedTree,
} from './generate.js';
export { DEFAULT_RUNTIME_IMPORT } from './emit/runtime-imports.js';
export { toDescriptor } from '../contract/descriptor/index.js';
export {
  readContract,
  contractFromText,
  type Contract,
  type ContractOptions,
} from '../contract/read/index.js';
