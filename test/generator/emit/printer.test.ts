/**
 * The structure printer (generator/emit/printer.ts): the restated ts-morph enum values, and
 * refusing what it cannot print. Its layout is covered byte for byte by the golden tests.
 */
import {
  StructureKind as TsMorphKind,
  VariableDeclarationKind as TsMorphVarKind,
  type StatementStructures,
} from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { StructureKind, VariableDeclarationKind } from '../../../generator/emit/kinds.js';
import { printFile } from '../../../generator/emit/project.js';
import { printStatement } from '../../../generator/emit/printer.js';

describe('emit kinds', () => {
  it.each(Object.entries(StructureKind))('StructureKind.%s equals ts-morph', (name, value) => {
    expect(value).toBe(TsMorphKind[name as keyof typeof TsMorphKind]);
  });
  it('VariableDeclarationKind.Const equals ts-morph', () => {
    expect(VariableDeclarationKind.Const).toBe(TsMorphVarKind.Const);
  });
});

describe('printer', () => {
  it.each([
    [
      'one-line JSDoc',
      { kind: StructureKind.TypeAlias, isExported: true, name: 'A', type: 'string', docs: [{ description: 'Doc.' }] },
      '/** Doc. */\nexport type A = string;',
    ],
    [
      'multi-line JSDoc with an empty line',
      { kind: StructureKind.TypeAlias, name: 'A', type: 'number', docs: [{ description: 'One.\n\nTwo.' }] },
      '/**\n * One.\n *\n * Two.\n */\ntype A = number;',
    ],
    [
      'empty interface',
      { kind: StructureKind.Interface, isExported: true, name: 'E', extends: [] },
      'export interface E {\n}',
    ],
    [
      'function with a multi-line statement',
      {
        kind: StructureKind.Function,
        name: 'f',
        parameters: [{ name: 'a', type: 'T', hasQuestionToken: true }],
        returnType: 'void',
        statements: ['const x = {\n  a,\n};'],
      },
      'function f(a?: T): void {\n  const x = {\n    a,\n  };\n}',
    ],
  ] as [string, StatementStructures, string][])('%s', (_name, structure, want) => {
    expect(printStatement(structure).join('\n')).toBe(want);
  });

  it('lays a file out as header, imports, declarations', () => {
    const text = printFile('// h', [
      {
        kind: StructureKind.ImportDeclaration,
        isTypeOnly: true,
        moduleSpecifier: 'm',
        namedImports: ['A', { name: 'B', isTypeOnly: false }],
      },
      { kind: StructureKind.TypeAlias, name: 'X', type: 'A' },
      { kind: StructureKind.TypeAlias, name: 'Y', type: 'B' },
    ]);
    expect(text).toBe("// h\n\nimport type { A, B } from 'm';\n\ntype X = A;\n\ntype Y = B;\n");
  });

  it('refuses a structure it does not support', () => {
    expect(() => printStatement({ kind: TsMorphKind.Enum, name: 'E' })).toThrow(/unsupported structure kind/);
  });
});
