/**
 * The diff layer's one error type. Parse errors of either WSDL stay GeneratorErrors (they
 * already say `<file>:<line>: <what>`); DiffError covers what the diff reads itself: a URL that
 * cannot be fetched, a committed descriptor that cannot be read back. Options are the CLI's.
 */

export type DiffErrorCode =
  /** The committed generated code holds no descriptor smskit can read back. */
  'DIFF_DESCRIPTOR_UNREADABLE';

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
