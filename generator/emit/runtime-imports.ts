/**
 * The runtime symbols generated code uses, in one table: every emit module takes a symbol's name
 * (for its import and for the code that names it) and the runtime's module specifier from here.
 * The table is typed against the runtime's real exports, so a symbol the runtime stops exporting
 * (or exports only as a type) fails to compile here instead of in every generated tree.
 */
import type { ImportDeclarationStructure } from 'ts-morph';
import type * as Runtime from '../../runtime/index.js';
import { StructureKind } from './kinds.js';

/** The module specifier generated code imports the runtime from, unless the caller names another. */
export const DEFAULT_RUNTIME_IMPORT = 'smskit/runtime';

/**
 * The runtime's types that generated code names. A type has no `keyof typeof` to check a name
 * against, so each is listed with the runtime's own type: removing the export breaks this line.
 */
interface RuntimeTypes {
  readonly CallOptions: Runtime.CallOptions;
  readonly ClientOptions: Runtime.ClientOptions;
  readonly OperationDescriptor: Runtime.OperationDescriptor;
  readonly OperationHandler: Runtime.OperationHandler;
  readonly RequestContext: Runtime.RequestContext;
  readonly ServerOptions: Runtime.ServerOptions;
  readonly ServiceDescriptor: Runtime.ServiceDescriptor;
  readonly XmlElement: Runtime.XmlElement;
}

/** A value the runtime exports (a class, a function): what `import { X }` can take at run time. */
export type RuntimeValueName = keyof typeof Runtime;
export type RuntimeTypeName = keyof RuntimeTypes;
export type RuntimeName = RuntimeValueName | RuntimeTypeName;

/** One runtime symbol as generated code imports it. */
export interface RuntimeSymbol<Name extends RuntimeName = RuntimeName> {
  readonly name: Name;
  /** Imported with `type`: the generated code names it only in types. */
  readonly typeOnly: boolean;
}

/** A runtime value: only a name the runtime's index exports as a value compiles. */
export function runtimeValue<Name extends RuntimeValueName>(name: Name): RuntimeSymbol<Name> {
  return { name, typeOnly: false };
}

/** A runtime type, imported with `type`: only a name listed in `RuntimeTypes` compiles. */
export function runtimeType<Name extends RuntimeTypeName>(name: Name): RuntimeSymbol<Name> {
  return { name, typeOnly: true };
}

/** Every runtime symbol generated code uses, keyed by its name (the compiler holds each key to its name). */
export const runtime = {
  ServiceClient: runtimeValue('ServiceClient'),
  createRequestListener: runtimeValue('createRequestListener'),
  CallOptions: runtimeType('CallOptions'),
  ClientOptions: runtimeType('ClientOptions'),
  OperationDescriptor: runtimeType('OperationDescriptor'),
  OperationHandler: runtimeType('OperationHandler'),
  RequestContext: runtimeType('RequestContext'),
  ServerOptions: runtimeType('ServerOptions'),
  ServiceDescriptor: runtimeType('ServiceDescriptor'),
  XmlElement: runtimeType('XmlElement'),
} as const satisfies { readonly [Name in RuntimeName]?: RuntimeSymbol<Name> };

/**
 * `import { … } from '<specifier>'` of the given symbols, in the order given: `import type { … }`
 * when every one is type-only, otherwise `type` before each type-only name.
 * @internal Typed with ts-morph, a development dependency: left out of the published
 * declarations, which reach this module for DEFAULT_RUNTIME_IMPORT.
 */
export function runtimeImportDeclaration(
  specifier: string,
  symbols: readonly RuntimeSymbol[],
): ImportDeclarationStructure {
  const typeOnly = symbols.every((symbol) => symbol.typeOnly);
  return {
    kind: StructureKind.ImportDeclaration,
    moduleSpecifier: specifier,
    ...(typeOnly ? { isTypeOnly: true } : {}),
    namedImports: symbols.map((symbol) =>
      typeOnly || !symbol.typeOnly ? symbol.name : { name: symbol.name, isTypeOnly: true },
    ),
  };
}
