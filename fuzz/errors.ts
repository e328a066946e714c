/** The fuzzer's one error type: a stable code and a message naming the option or the operation. */
export type FuzzErrorCode = 'FUZZ_OPTIONS' | 'NOTHING_TO_FUZZ' | 'FUZZ_BASELINE';

export class FuzzError extends Error {
  override readonly name = 'FuzzError';
  readonly code: FuzzErrorCode;
  constructor(code: FuzzErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}
