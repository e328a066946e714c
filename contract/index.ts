/**
 * The contract layer's public surface: a WSDL read from a file, a URL or text, its resolved
 * model, and the descriptor the runtime reads — what the generator, the conformance runner and
 * record/replay all stand on, published so a user's tool can stand on it too.
 */
export {
  readContract,
  contractFromText,
  isContractUrl,
  type Contract,
  type ContractOptions,
} from './read/index.js';
export { parseWsdl, type ParseOptions } from './parse/index.js';
export type { ModelWarning, QName, WsdlModel } from './model/index.js';
export { toDescriptor } from './descriptor/index.js';
export { descriptorFromWsdlText } from './descriptor/from-text.js';
export {
  describeContract,
  formatDescription,
  type ContractDescription,
} from './descriptor/describe.js';
export { GeneratorError, type GeneratorErrorCode } from './errors.js';
