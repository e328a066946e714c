/** A request as the bindings build it and the client (or the conformance runner) sends it. */
export interface WireRequest {
  readonly method: 'GET' | 'POST';
  /** Path and query, relative to the origin. */
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string | undefined;
}

/** The path part of a port address URL ('' for the root), e.g. '/serviceapi.asmx'. */
export function addressPath(address: string): string {
  const path = new URL(address).pathname;
  return path === '/' ? '' : path.replace(/\/+$/, '');
}
