/**
 * ts-morph's `StructureKind` and `VariableDeclarationKind` values for the structures emit builds.
 * The structure *types* come from ts-morph (type-only imports, erased at run time); the enums are
 * restated here because importing them at run time loads the TypeScript compiler (about 1 s of
 * start-up, more than all of generation). test/generator/emit/printer.test.ts checks they equal ts-morph's.
 */
import type { StructureKind as Kind, VariableDeclarationKind as VarKind } from 'ts-morph';

export const StructureKind = {
  Class: 2 as Kind.Class,
  ExportDeclaration: 11 as Kind.ExportDeclaration,
  Function: 13 as Kind.Function,
  ImportDeclaration: 16 as Kind.ImportDeclaration,
  Interface: 19 as Kind.Interface,
  TypeAlias: 38 as Kind.TypeAlias,
  VariableStatement: 41 as Kind.VariableStatement,
} as const;

export const VariableDeclarationKind = {
  Const: 'const' as unknown as VarKind.Const,
} as const;
