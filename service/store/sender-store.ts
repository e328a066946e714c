/**
 * The callback sender's store in the sender's own thread, from what the service's store handed
 * over (`CallbackStore.senderConnection`): the SQLite writer thread's port, or a PostgreSQL pool
 * of the thread's own. `lost` is told when the connection cannot come back (the SQLite writer
 * thread ended; a PostgreSQL pool reconnects by itself).
 */
import type { SenderCalls, SenderConnection } from './callbacks.js';

export interface SenderStoreHandle {
  readonly calls: SenderCalls;
  close(): Promise<void>;
}

export interface SenderStoreHooks {
  readonly log: (line: string) => void;
  readonly lost: () => void;
}

export async function openSenderStore(
  connection: SenderConnection,
  hooks: SenderStoreHooks,
): Promise<SenderStoreHandle> {
  if (connection.kind === 'postgres') {
    const { openSenderCalls } = await import('./postgres/sender-calls.js');
    return openSenderCalls(connection, hooks.log);
  }
  const { senderStoreOverPort } = await import('./sqlite/callback-channel.js');
  const { port } = connection;
  port.once('close', hooks.lost);
  return {
    calls: senderStoreOverPort(port),
    async close() {
      port.off('close', hooks.lost);
      port.close();
    },
  };
}
