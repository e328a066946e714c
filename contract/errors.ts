/**
 * The one error type of reading, parsing and planning a WSDL (named `GeneratorError` since the
 * generator was its first user; its name and codes are published and stable). Every refusal
 * carries a stable `code` (callers classify by it, never by message), the file and line that
 * caused it, and a message of the form `<file>:<line>: <what>` naming the QName or construct, so
 * the CLI prints `smskit: ${err.message}` and the user can jump straight to the line.
 */

/** Codes raised while reading a WSDL and its imports (contract/parse). */
export type ParseErrorCode =
  /** The file is not well-formed XML (or not UTF-8, or has a DOCTYPE). */
  | 'WSDL_MALFORMED_XML'
  /** Well-formed XML, but not a WSDL 1.1 `definitions` document (or an import is neither WSDL nor XSD). */
  | 'WSDL_NOT_WSDL'
  /** A QName points at no message / portType / binding / element / type / attribute / group. */
  | 'WSDL_UNRESOLVED_REFERENCE'
  /** A wsdl:import / xsd:import / xsd:include whose location cannot be read (missing, remote). */
  | 'WSDL_IMPORT_UNRESOLVED'
  /** A construct that cannot be modelled faithfully (rpc/encoded, SOAP-ENC arrays, ...). */
  | 'WSDL_UNSUPPORTED'
  /** Two definitions of the same kind share one QName. */
  | 'WSDL_DUPLICATE_DEFINITION'
  /** Structurally wrong WSDL: e.g. a binding operation with no portType counterpart. */
  | 'WSDL_INVALID';

/**
 * Codes raised while turning the model into code (contract/plan and contract/descriptor):
 * a construct or built-in type the generated code cannot represent, or a reference that is
 * not declared. Names never need refusing: the collision rule in naming.ts always ends with a
 * numeric suffix.
 */
export type PlanErrorCode = 'UNSUPPORTED_CONSTRUCT' | 'UNSUPPORTED_TYPE' | 'MISSING_REFERENCE';

/**
 * Raised by the contract layer (contract/read): the WSDL itself cannot be read at all (a
 * missing file, a URL that does not answer 200 with XML, over the size or time limit).
 */
export type ContractErrorCode = 'CONTRACT_UNREADABLE';

export type GeneratorErrorCode = ParseErrorCode | PlanErrorCode | ContractErrorCode;

export interface ErrorLocation {
  readonly file: string;
  /** 0 when the error is about the document as a whole (it is then named without a line). */
  readonly line: number;
}

export class GeneratorError extends Error {
  override readonly name = 'GeneratorError';
  readonly code: GeneratorErrorCode;
  readonly file: string;
  readonly line: number;
  /** The message without the `<file>:<line>: ` prefix. */
  readonly what: string;

  constructor(code: GeneratorErrorCode, what: string, location: ErrorLocation) {
    super(`${location.file}${location.line === 0 ? '' : `:${location.line}`}: ${what}`);
    this.code = code;
    this.file = location.file;
    this.line = location.line;
    this.what = what;
  }

  override toString(): string {
    return this.message;
  }
}

/** Refuses input after parsing: a `GeneratorError` with a stable code and the WSDL location. */
export function refuse(code: PlanErrorCode, message: string, location: ErrorLocation): never {
  throw new GeneratorError(code, message, { file: location.file, line: location.line });
}
