/** How the emit layer refuses input: a `GeneratorError` with a stable code and the WSDL location. */
import { GeneratorError, type EmitErrorCode } from '../errors.js';
import type { SourceLocation } from '../model.js';

export { GeneratorError };

export function refuse(code: EmitErrorCode, message: string, source: SourceLocation): never {
  throw new GeneratorError(code, message, { file: source.file, line: source.line });
}
