/**
 * The delivery engine's store in the engine's own thread, from what the service's store handed
 * over (`DeliveryStore.threadConnection`): on SQLite the writer thread's port. `lost` is told when
 * the connection cannot come back (the writer thread ended: the event loop's next write starts a
 * new one, and the delivery thread, started again, gets a port to it).
 */
import type { DeliveryConnection, DeliveryStore } from './delivery.js';

export interface DeliveryStoreHandle {
  readonly store: DeliveryStore;
  close(): Promise<void>;
}

export async function openDeliveryConnection(
  connection: DeliveryConnection,
  lost: () => void,
): Promise<DeliveryStoreHandle> {
  const [{ connectWriter }, { threadedDeliveryStore }] = await Promise.all([
    import('./sqlite/writer.js'),
    import('./sqlite/store.js'),
  ]);
  const { port } = connection;
  port.once('close', lost);
  return {
    store: threadedDeliveryStore(connectWriter(port)),
    async close() {
      port.off('close', lost);
      port.close();
    },
  };
}
