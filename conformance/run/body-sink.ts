/**
 * A response body collected under a byte limit. Pieces are copied into one growing buffer
 * (doubling, so the copying is linear in the body) rather than kept as a list: a target that
 * sends its body a byte per packet would otherwise cost a Buffer object per byte, many times
 * the body's own size. The limit is checked before anything is copied.
 */
import { responseTooLarge } from './bounds.js';

const INITIAL_CAPACITY = 16 * 1024;

/** What an observer may see of a body still arriving. */
export interface BodyProgress {
  readonly length: number;
  prefix(max: number): Uint8Array;
}

export class BodySink implements BodyProgress {
  readonly #limit: number;
  #buffer: Buffer = Buffer.alloc(0);
  #length = 0;

  constructor(limit: number) {
    this.#limit = limit;
  }

  get length(): number {
    return this.#length;
  }

  /** Adds a piece; throws a RESPONSE_TOO_LARGE BoundHit once the body would pass the limit. */
  append(piece: Uint8Array): void {
    if (piece.length === 0) return;
    const needed = this.#length + piece.length;
    if (needed > this.#limit) throw responseTooLarge(this.#limit);
    if (needed > this.#buffer.length) {
      const grown = Buffer.allocUnsafe(
        Math.min(this.#limit, Math.max(INITIAL_CAPACITY, needed, this.#buffer.length * 2)),
      );
      this.#buffer.copy(grown, 0, 0, this.#length);
      this.#buffer = grown;
    }
    this.#buffer.set(piece, this.#length);
    this.#length = needed;
  }

  /** The first `max` bytes, copied (a view would keep the whole buffer alive). */
  prefix(max: number): Uint8Array {
    return Uint8Array.prototype.slice.call(this.#buffer, 0, Math.min(max, this.#length));
  }

  /** The whole body (a view: the evaluation that reads it is the last user of the buffer). */
  bytes(): Uint8Array {
    return new Uint8Array(this.#buffer.buffer, this.#buffer.byteOffset, this.#length);
  }
}
