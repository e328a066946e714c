/**
 * The routing table, computed once per descriptor: request path -> what lives there (the SOAP
 * endpoints at the port address, HTTP GET/POST operations at address + location), with what each
 * address takes by media type, built from the bindings' own declarations (BindingWire).
 * Lookups try the exact path first, then its lowercase form (ASMX paths are case-insensitive).
 * Paths are compared as RFC 3986 §6.2.2 compares them: `%53` is `S` (see `equivalentPath`).
 */
import type { ServiceDescriptor } from '../descriptor.js';
import { CodecError } from '../errors.js';
import { compileHttpBinding, isUnusable, soapWrappers, type HttpOperation } from '../http/binding.js';
import { HTTP_GET_WIRE } from '../http/get.js';
import { HTTP_POST_WIRE } from '../http/post.js';
import { compileSoapEndpoint, type SoapEndpoint } from '../soap/endpoint.js';
import { soap11 } from '../soap-version/soap11.js';
import { soap12 } from '../soap-version/soap12.js';
import type { SoapVersion } from '../soap-version/version.js';
import { addressPath, type BindingWire } from '../wire.js';

/**
 * What takes a POST body of one media type at an address, with the declaration of its binding
 * (all fields always set: one object shape).
 */
export type BodyTaker =
  | { readonly soap: SoapVersion; readonly post?: undefined; readonly wire: BindingWire }
  | { readonly soap?: undefined; readonly post: HttpOperation; readonly wire: BindingWire };

/** What is served at one path: the bindings' endpoints and operations there. */
export interface ServedAddress {
  readonly soap11?: SoapEndpoint;
  readonly soap12?: SoapEndpoint;
  readonly get?: HttpOperation;
  readonly post?: HttpOperation;
  /**
   * POST bodies by media type (from the bindings' declarations): what takes each here. A SOAP
   * endpoint takes the media type of either version (the type only hints the version, the
   * envelope's namespace decides), so a 1.1 request at a 1.2-only address is answered in SOAP.
   */
  readonly bodies: ReadonlyMap<string, BodyTaker>;
  /** The declarations of the bindings served here, in the order a 415 lists them. */
  readonly wires: readonly BindingWire[];
}

type Served = { -readonly [K in 'soap11' | 'soap12' | 'get' | 'post']?: ServedAddress[K] };

export interface RouteTable {
  readonly exact: ReadonlyMap<string, ServedAddress>;
  readonly lower: ReadonlyMap<string, ServedAddress>;
  /**
   * The last path found and its address. Clients send the same path again and again, and a
   * comparison with the last one is cheaper than hashing the fresh string for a map lookup.
   */
  lastPath: string | undefined;
  lastRoute: ServedAddress | undefined;
}

/** `basePath` overrides the port addresses (for a descriptor without addresses, or mounting). */
export function compileRoutes(d: ServiceDescriptor, basePath: string | undefined): RouteTable {
  const served = new Map<string, Served>();
  const routeAt = (address: string): Served => {
    const path = equivalentPath(address);
    let route = served.get(path);
    if (route === undefined) served.set(path, (route = {}));
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
  const exact = new Map<string, ServedAddress>();
  for (const [path, route] of served) exact.set(path, withDeclarations(route));
  const lower = new Map<string, ServedAddress>();
  for (const [path, route] of exact) if (!lower.has(path.toLowerCase())) lower.set(path.toLowerCase(), route);
  return { exact, lower, lastPath: undefined, lastRoute: undefined };
}

/**
 * The path as RFC 3986 §6.2.2 normalises it: an escaped unreserved character (`%53`, `%2E`, `%7E`)
 * is that character, and the hex digits of every other escape are upper case. Clients and proxies
 * differ in what they escape, and RFC 3986 makes `/serviceapi%2Easmx/SMS%53end` the same path as
 * `/serviceapi.asmx/SMSSend`; an escaped reserved character (`%2F`) stays escaped, as it names
 * another path.
 */
export function equivalentPath(path: string): string {
  if (!path.includes('%')) return path;
  return path.replace(/%([0-9A-Fa-f]{2})/g, (escaped, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : escaped.toUpperCase();
  });
}

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/** The bindings at an address with what they declare: the media types they take, in the order a 415 lists them. */
function withDeclarations(served: Served): ServedAddress {
  const bodies = new Map<string, BodyTaker>();
  const wires: BindingWire[] = [];
  const soap = served.soap11 !== undefined || served.soap12 !== undefined;
  for (const version of [soap11, soap12]) {
    if (served[version.protocol] !== undefined) wires.push(version.wire);
    if (soap)
      for (const mediaType of version.wire.mediaTypes)
        bodies.set(mediaType, { soap: version, post: undefined, wire: version.wire });
  }
  if (served.get !== undefined) wires.push(HTTP_GET_WIRE);
  if (served.post !== undefined) {
    wires.push(HTTP_POST_WIRE);
    for (const mediaType of HTTP_POST_WIRE.mediaTypes)
      bodies.set(mediaType, { soap: undefined, post: served.post, wire: HTTP_POST_WIRE });
  }
  return { ...served, bodies, wires };
}

export function lookupRoute(table: RouteTable, path: string): ServedAddress | undefined {
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
