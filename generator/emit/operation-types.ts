/** The TypeScript input/output types of a service's methods, shared by client and server. */
import type { ImportDeclarationStructure } from 'ts-morph';
import type { SchemaPlan } from '../../contract/plan/schema.js';
import type { MethodShape, PlannedOperation } from '../../contract/plan/service.js';
import { StructureKind } from './kinds.js';
import { runtime, runtimeImportDeclaration } from './runtime-imports.js';
import { TypeText } from './type-text.js';

export interface MethodTypes {
  /** undefined: the operation takes no input. */
  readonly input?: string;
  /** 'void' when the operation returns nothing. */
  readonly output: string;
  /** Names of the operation's SOAP header types, when it declares header blocks. */
  readonly requestHeaders?: string;
  readonly responseHeaders?: string;
}

export class OperationTypes {
  readonly #schema: SchemaPlan;
  readonly #text: TypeText;
  readonly #synthetic = new Set<string>();

  constructor(schema: SchemaPlan) {
    this.#schema = schema;
    this.#text = new TypeText(schema);
  }

  of(op: PlannedOperation): MethodTypes {
    const input = this.#shape(op.input);
    const output = this.#shape(op.output) ?? 'void';
    const requestHeaders = op.requestHeaders?.tsName;
    const responseHeaders = op.responseHeaders?.tsName;
    for (const name of [requestHeaders, responseHeaders]) if (name !== undefined) this.#synthetic.add(name);
    return {
      ...(input !== undefined ? { input } : {}),
      output,
      ...(requestHeaders !== undefined ? { requestHeaders } : {}),
      ...(responseHeaders !== undefined ? { responseHeaders } : {}),
    };
  }

  /** Names to import from ./types.js, in first-use order. */
  get imports(): string[] {
    return [...new Set([...this.#text.referenced, ...this.#synthetic])];
  }

  get usesXml(): boolean {
    return this.#text.usesXml;
  }

  #shape(shape: MethodShape): string | undefined {
    if (shape.kind === 'empty') return undefined;
    if (shape.kind === 'synthetic') {
      this.#synthetic.add(shape.tsName);
      return shape.tsName;
    }
    if (shape.kind === 'part') return this.#text.value(shape.value);
    return this.#text.value(this.#schema.elements.get(shape.element)!.value);
  }
}

/**
 * The type-only imports a client or server file needs once its methods are typed: the types
 * the methods name (from ./types.js) and XmlElement where a value is XML. Call it after `of()`
 * has seen every operation.
 */
export function methodTypeImports(types: OperationTypes, runtimeImport: string): ImportDeclarationStructure[] {
  return [
    ...(types.imports.length > 0
      ? [
          {
            kind: StructureKind.ImportDeclaration,
            isTypeOnly: true,
            moduleSpecifier: './types.js',
            namedImports: types.imports,
          },
        ]
      : []),
    ...(types.usesXml ? [runtimeImportDeclaration(runtimeImport, [runtime.XmlElement])] : []),
  ];
}
