/**
 * One side of a diff from its model: every service as the runtime sees it. The model comes from
 * the contract layer (contract/read), so the diff reads WSDL exactly as `smskit generate`
 * does, files and URLs alike.
 */
import { toDescriptor } from '../descriptor/index.js';
import type { WsdlModel } from '../model/index.js';
import type { Side } from './types.js';

/** Every service of the model as the runtime sees it. */
export function sideFromModel(label: string, model: WsdlModel): Side {
  return { label, model, services: model.services.map((s) => toDescriptor(model, s.name)) };
}
