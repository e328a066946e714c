/** The conformance layer's one error type: a stable code and a message fit for the user. */

export type ConformanceErrorCode =
  /** Options are invalid (unknown flag value, conflicting selection, bad glob). */
  | 'CONFORMANCE_OPTIONS'
  /** A value the user gave (flags, --inputs file) does not fit the contract: names the operation and path. */
  | 'CONFORMANCE_INPUTS'
  /** The selection runs no case at all (a --run pattern that matches nothing, say). */
  | 'NOTHING_SELECTED'
  /** The catalogue could not be built from the descriptor (a case failed validation). */
  | 'CONFORMANCE_CATALOGUE'
  /** The target could not be reached at all: refused, DNS, timeout, TLS, not HTTP. */
  | 'TARGET_UNREACHABLE';

export class ConformanceError extends Error {
  override readonly name = 'ConformanceError';
  readonly code: ConformanceErrorCode;
  constructor(code: ConformanceErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}
