/**
 * How the runner reaches its target over a real network: the runtime's network options (one
 * type for a client and a run) and their resolution for raw sockets and a keep-alive pool
 * (runtime/network/raw.ts: TLS, the proxy route from the options or the environment, HTTP auth,
 * the UsernameToken, and every secret listed for the run's redaction).
 */
import type { NetworkOptions as ClientNetworkOptions } from '../../runtime/network/types.js';

/** A run opens raw sockets of its own for some cases, so it takes no dispatcher. */
export type NetworkOptions = Omit<ClientNetworkOptions, 'dispatcher'>;

export {
  type ProxyRoute,
  type RawNetwork as RunnerNetwork,
  resolveRawNetwork as resolveNetwork,
} from '../../runtime/network/raw.js';
