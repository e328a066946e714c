/**
 * A definition the parser left out (parse/broken.ts) stands for the refusal it would have been:
 * whatever needs it is refused for that real cause — its own code, location and reason.
 */
import { GeneratorError, type GeneratorErrorCode } from '../errors.js';
import type { WsdlModel } from '../model/index.js';

/** Throws the refusal `key` (`type:…`, `element:…`, `message:…`) stands for, when it was left out. */
export function throwIfOmitted(model: WsdlModel, key: string): void {
  const omitted = model.omitted?.[key];
  if (omitted !== undefined) throw new GeneratorError(omitted.code as GeneratorErrorCode, omitted.what, omitted.source);
}
