/** What every case builder of one (binding, operation) needs: the contract, the path, the inputs. */
import type { ServiceDescriptor } from '../../runtime/descriptor.js';
import type { OperationContract } from './operation-contract.js';
import type { BuiltInput, InputResult, MethodInputs } from './operation-input.js';

/** Shared per-operation facts the case builders need. */
export interface CaseContext {
  readonly descriptor: ServiceDescriptor;
  readonly contract: OperationContract;
  readonly basePath: string;
  readonly maxBodyBytes: number;
  /** The operation's name in case ids: its WSDL name, or its method where the binding overloads the name. */
  readonly caseName: string;
  /** `<caseName>/<binding>` */
  readonly prefix: string;
  readonly inputs: MethodInputs;
  /** The plain (typical) input every negative case starts from. */
  readonly plain: BuiltInput;
}

export function isBuilt(result: InputResult): result is BuiltInput {
  return !('unusable' in result);
}
