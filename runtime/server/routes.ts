/**
 * The routing table, computed once per descriptor: request path -> what lives there (the SOAP
 * endpoints at the port address, HTTP GET/POST operations at address + location).
 * Lookups try the exact path first, then its lowercase form (ASMX paths are case-insensitive).
 */
import type { ServiceDescriptor } from '../descriptor.js';
import { CodecError } from '../errors.js';
import { compileHttpBinding, isUnusable, soapWrappers, type HttpOperation } from '../http/binding.js';
import { compileSoapEndpoint, type SoapEndpoint } from '../soap/endpoint.js';
import { addressPath } from '../wire.js';

export interface Route {
  soap11?: SoapEndpoint;
  soap12?: SoapEndpoint;
  get?: HttpOperation;
  post?: HttpOperation;
}

export interface RouteTable {
  readonly exact: ReadonlyMap<string, Route>;
  readonly lower: ReadonlyMap<string, Route>;
  /**
   * The last path found and its route. Clients send the same path again and again, and a
   * comparison with the last one is cheaper than hashing the fresh string for a map lookup.
   */
  lastPath: string | undefined;
  lastRoute: Route | undefined;
}

/** `basePath` overrides the port addresses (for a descriptor without addresses, or mounting). */
export function compileRoutes(d: ServiceDescriptor, basePath: string | undefined): RouteTable {
  const exact = new Map<string, Route>();
  const routeAt = (path: string): Route => {
    let route = exact.get(path);
    if (route === undefined) exact.set(path, (route = {}));
    return route;
  };
  const wrappers = soapWrappers(d);
  for (const binding of d.bindings) {
    const base = basePath ?? (binding.address === undefined ? undefined : addressPath(binding.address));
    if (base === undefined)
      throw new CodecError('CODEC_DESCRIPTOR', binding.name, 'the binding has no port address: pass options.basePath');
    if (binding.protocol === 'soap11' || binding.protocol === 'soap12') {
      routeAt(base === '' ? '/' : base)[binding.protocol] = compileSoapEndpoint(d, binding);
      continue;
    }
    // An operation the binding cannot carry is not routed: its path answers as an unknown
    // method's does (ASMX: "method name is not valid"), while the rest of the binding serves.
    for (const hop of compileHttpBinding(d, binding, wrappers).values()) {
      if (isUnusable(hop)) continue;
      routeAt(`${base}${hop.op.httpPath ?? `/${hop.op.name}`}`)[binding.protocol === 'http-get' ? 'get' : 'post'] = hop;
    }
  }
  const lower = new Map<string, Route>();
  for (const [path, route] of exact) if (!lower.has(path.toLowerCase())) lower.set(path.toLowerCase(), route);
  return { exact, lower, lastPath: undefined, lastRoute: undefined };
}

export function lookupRoute(table: RouteTable, path: string): Route | undefined {
  if (path === table.lastPath) return table.lastRoute;
  const route = table.exact.get(path) ?? table.lower.get(path.toLowerCase());
  if (route !== undefined) {
    table.lastPath = path;
    table.lastRoute = route;
  }
  return route;
}

/** Every operation method the descriptor serves, for checking that each has a handler. */
export function operationMethods(d: ServiceDescriptor): Set<string> {
  const methods = new Set<string>();
  for (const binding of d.bindings) for (const op of binding.operations) methods.add(op.method);
  return methods;
}
