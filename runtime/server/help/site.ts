/**
 * What the help pages show, computed once per server from the descriptor: the paths that have a
 * page (each binding's address path, as the routes use them), and every operation with the
 * bindings that carry it (an HTTP binding that cannot, with the reason).
 */
import type { BindingDescriptor, OperationDescriptor, ServiceDescriptor } from '../../descriptor.js';
import { CodecError } from '../../errors.js';
import { compileHttpBinding, isUnusable, soapWrappers, type HttpOperation } from '../../http/binding.js';
import { addressPath } from '../../wire.js';
import { equivalentPath } from '../routes.js';
import { placeholderDescriptor, type PlaceholderDescriptor } from './placeholders.js';
import { serviceDocumentation } from './docs.js';
import type { HelpPagesMode } from './mode.js';

export type HelpBinding =
  | {
      readonly protocol: 'soap11' | 'soap12';
      readonly binding: BindingDescriptor;
      readonly path: string;
      readonly op: OperationDescriptor;
    }
  | {
      readonly protocol: 'http-get' | 'http-post';
      readonly binding: BindingDescriptor;
      readonly base: string;
      readonly hop: HttpOperation;
    }
  | { readonly protocol: 'http-get' | 'http-post'; readonly binding: BindingDescriptor; readonly unusable: string };

export interface HelpOperation {
  readonly name: string;
  readonly documentation: string | undefined;
  /** In the order SOAP 1.1, SOAP 1.2, HTTP GET, HTTP POST. */
  readonly bindings: readonly HelpBinding[];
}

export interface HelpSite {
  readonly d: ServiceDescriptor;
  readonly mode: HelpPagesMode;
  /** By name, in name order. */
  readonly operations: ReadonlyMap<string, HelpOperation>;
  /** Lowercased request path -> the page's own path. */
  readonly pages: ReadonlyMap<string, string>;
  /**
   * The last GET path that had no page: an HTTP GET client asks for its operation's path again
   * and again, and a comparison is cheaper than lowercasing and hashing it for a lookup.
   */
  lastMiss: string | undefined;
  /** The SOAP endpoints, for DISCO. */
  readonly soapEndpoints: readonly { readonly binding: BindingDescriptor; readonly path: string }[];
  readonly hasWsdl: boolean;
  /** The service's documentation from the WSDL, read on first use. */
  documentation(): string | undefined;
  /** The descriptor copy the samples are encoded with, made on first use. */
  placeholders(): PlaceholderDescriptor;
}

const ORDER = ['soap11', 'soap12', 'http-get', 'http-post'] as const;

function basePathOf(binding: BindingDescriptor, basePath: string | undefined): string {
  const base = basePath ?? (binding.address === undefined ? undefined : addressPath(binding.address));
  if (base === undefined)
    throw new CodecError('CODEC_DESCRIPTOR', binding.name, 'the binding has no port address: pass options.basePath');
  return base;
}

/** The reason alone: the page names the operation and the binding already. */
function withoutPath(err: CodecError): string {
  const prefix = `${err.path}: `;
  return err.message.startsWith(prefix) ? err.message.slice(prefix.length) : err.message;
}

function operationBindings(
  d: ServiceDescriptor,
  basePath: string | undefined,
): Map<string, { documentation: string | undefined; bindings: HelpBinding[] }> {
  const byName = new Map<string, { documentation: string | undefined; bindings: HelpBinding[] }>();
  const entry = (name: string, documentation: string | undefined) => {
    let e = byName.get(name);
    if (e === undefined) byName.set(name, (e = { documentation, bindings: [] }));
    e.documentation ??= documentation;
    return e;
  };
  const wrappers = soapWrappers(d);
  const bindings = [...d.bindings].sort((a, b) => ORDER.indexOf(a.protocol) - ORDER.indexOf(b.protocol));
  for (const binding of bindings) {
    const base = basePathOf(binding, basePath);
    if (binding.protocol === 'soap11' || binding.protocol === 'soap12') {
      for (const op of binding.operations)
        entry(op.name, op.documentation).bindings.push({
          protocol: binding.protocol,
          binding,
          path: base === '' ? '/' : base,
          op,
        });
      continue;
    }
    const protocol = binding.protocol;
    for (const compiled of compileHttpBinding(d, binding, wrappers).values()) {
      if (isUnusable(compiled))
        entry(compiled.name, undefined).bindings.push({ protocol, binding, unusable: withoutPath(compiled.error) });
      else entry(compiled.op.name, compiled.op.documentation).bindings.push({ protocol, binding, base, hop: compiled });
    }
  }
  return byName;
}

export function compileHelpSite(
  d: ServiceDescriptor,
  mode: HelpPagesMode,
  basePath: string | undefined,
  wsdl: string | undefined,
): HelpSite {
  const operations = new Map<string, HelpOperation>();
  const found = operationBindings(d, basePath);
  for (const name of [...found.keys()].sort()) operations.set(name, { name, ...found.get(name)! });
  const pages = new Map<string, string>();
  const soapEndpoints: { binding: BindingDescriptor; path: string }[] = [];
  for (const binding of d.bindings) {
    const base = basePathOf(binding, basePath);
    const path = base === '' ? '/' : base;
    // Keyed as requests are looked up: RFC 3986's equivalent form, then lower case.
    const key = equivalentPath(path).toLowerCase();
    if (!pages.has(key)) pages.set(key, path);
    if (binding.protocol === 'soap11' || binding.protocol === 'soap12') soapEndpoints.push({ binding, path });
  }
  let documentation: { text: string | undefined } | undefined;
  let placeholders: PlaceholderDescriptor | undefined;
  return {
    d,
    mode,
    operations,
    pages,
    lastMiss: undefined,
    soapEndpoints,
    hasWsdl: wsdl !== undefined,
    documentation: () =>
      (documentation ??= { text: wsdl === undefined ? undefined : serviceDocumentation(wsdl, d.name) }).text,
    placeholders: () => (placeholders ??= placeholderDescriptor(d)),
  };
}
