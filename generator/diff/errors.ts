/**
 * The diff layer's one error type. Parse errors of either WSDL stay GeneratorErrors (they
 * already say `<file>:<line>: <what>`); DiffError covers what happens before parsing (a file
 * that cannot be read, a URL that cannot be fetched) and the options.
 */

export type DiffErrorCode =
  /** A file cannot be read or a URL cannot be fetched (status, time or size limit). */
  | 'DIFF_INPUT_UNREADABLE'
  /** The committed generated code holds no descriptor smskit can read back. */
  | 'DIFF_DESCRIPTOR_UNREADABLE'
  /** Invalid or conflicting options. */
  | 'DIFF_OPTIONS';

export class DiffError extends Error {
  override readonly name = 'DiffError';
  readonly code: DiffErrorCode;
  readonly file: string;
  readonly line: number;

  constructor(code: DiffErrorCode, what: string, location: { file: string; line: number }) {
    super(`${location.file}:${location.line}: ${what}`);
    this.code = code;
    this.file = location.file;
    this.line = location.line;
  }
}
