/** A PostgreSQL store call with its failure mapped to a StorageError, refused once its store is closed. */
import { StorageError } from '../../errors.js';
import { toStorageError } from './errors.js';

export type Call = <R>(what: string, work: () => Promise<R>) => Promise<R>;

export function mappedCall(isClosed: () => boolean): Call {
  return async (what, work) => {
    if (isClosed()) throw new StorageError('StorageClosed', 'the store is closed');
    try {
      return await work();
    } catch (error) {
      throw toStorageError(error, what);
    }
  };
}
