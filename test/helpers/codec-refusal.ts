/** What a codec call refuses, as `[code, path, message]` (the message without its path prefix), for table tests. */
import { CodecError } from '../../runtime/errors.js';

export function codecRefusal(run: () => unknown): [string, string, string] {
  try {
    run();
  } catch (error) {
    if (error instanceof CodecError) return [error.code, error.path, error.message.slice(error.path.length + 2)];
    throw error;
  }
  throw new Error('expected a CodecError');
}
