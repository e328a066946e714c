/**
 * How the emit layer refuses input: a `GeneratorError` with a stable code and the WSDL location.
 * TEMPORARY placeholder until generator/errors.ts (owned by the parser) lands.
 */
import type { SourceLocation } from '../model.js';

export class GeneratorError extends Error {
  readonly code: string;
  readonly file: string;
  readonly line: number;

  constructor(code: string, message: string, location: { file: string; line: number }) {
    super(message);
    this.name = 'GeneratorError';
    this.code = code;
    this.file = location.file;
    this.line = location.line;
  }
}

export type EmitErrorCode = 'UNSUPPORTED_CONSTRUCT' | 'UNSUPPORTED_TYPE' | 'NAME_COLLISION' | 'MISSING_REFERENCE';

export function refuse(code: EmitErrorCode, message: string, source: SourceLocation): never {
  throw new GeneratorError(code, message, { file: source.file, line: source.line });
}
