/**
 * The table of runtime symbols generated code imports (generator/emit/runtime-imports.ts) is
 * checked by the compiler against the runtime's exports: these tests compile planted sources
 * with tsc (in memory, with the repository's tsconfig) and require the errors a wrong name or a
 * runtime that stopped exporting a symbol must cause, and check the table's values at run time.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  runtime,
  runtimeImportDeclaration,
  runtimeType,
  runtimeValue,
} from '../../../generator/emit/runtime-imports.js';
import * as runtimeIndex from '../../../runtime/index.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const TABLE = join(ROOT, 'generator/emit/runtime-imports.ts');
const RUNTIME_INDEX = join(ROOT, 'runtime/index.ts');
const PLANTED = join(ROOT, 'generator/emit/planted-runtime-use.ts');

function compilerOptions(): ts.CompilerOptions {
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile);
  return ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT).options;
}

/** A program of `roots` over the tree, with `files` (path → text) replacing or adding to it. */
function compile(files: ReadonlyMap<string, string>, roots: string[], reuse?: ts.Program): ts.Program {
  const options = compilerOptions();
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile } = host;
  host.fileExists = (path) => files.has(path) || fileExists(path);
  host.readFile = (path) => files.get(path) ?? readFile(path);
  return ts.createProgram(roots, options, host, reuse);
}

/** The errors tsc reports in one file of the program, as `line: first line of the message`. */
function errorsIn(program: ts.Program, path: string): string[] {
  const file = program.getSourceFile(path)!;
  return ts.getPreEmitDiagnostics(program, file).map((d) => {
    const line = file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1;
    return `${line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n').split('\n')[0]}`;
  });
}

const PLANTED_USE = [
  "import { runtimeType, runtimeValue } from './runtime-imports.js';",
  "runtimeValue('ServiceClient');",
  "runtimeValue('NotInTheRuntime');",
  "runtimeValue('XmlElement');",
  "runtimeType('NotInTheRuntime');",
].join('\n');

describe('the runtime imports table', () => {
  it('names each symbol by its key, and every value symbol is a value of the runtime', () => {
    for (const [key, symbol] of Object.entries(runtime)) {
      expect(symbol.name).toBe(key);
      if (!symbol.typeOnly) expect(runtimeIndex).toHaveProperty(symbol.name);
    }
  });

  it('imports types with `type`, the whole declaration when every name is a type', () => {
    expect(runtimeImportDeclaration('smskit/runtime', [runtime.ServiceClient, runtime.CallOptions])).toMatchObject({
      moduleSpecifier: 'smskit/runtime',
      namedImports: ['ServiceClient', { name: 'CallOptions', isTypeOnly: true }],
    });
    expect(runtimeImportDeclaration('x', [runtime.XmlElement])).toMatchObject({
      isTypeOnly: true,
      namedImports: ['XmlElement'],
    });
  });

  // One program for both cases: the second reuses the first's unchanged files.
  let planted: ts.Program | undefined;

  it('refuses, at compile time, a name the runtime does not export as that kind of symbol', () => {
    planted = compile(new Map([[PLANTED, PLANTED_USE]]), [PLANTED]);
    const errors = errorsIn(planted, PLANTED);
    expect(errors.map((e) => e.split(':')[0])).toEqual(['3', '4', '5']);
    expect(errors[0]).toContain('"NotInTheRuntime"');
    expect(errorsIn(planted, TABLE)).toEqual([]);
    // The helpers themselves stay usable for the names that are right.
    expect(runtimeValue('ServiceClient').typeOnly).toBe(false);
    expect(runtimeType('XmlElement').typeOnly).toBe(true);
  }, 60_000);

  it('fails to compile once the runtime stops exporting a symbol the table names', () => {
    const index = readFileSync(RUNTIME_INDEX, 'utf8');
    const without = index
      .replace(/export type \{ XmlElement, /, 'export type { ')
      .replace(/export \{ ServiceClient, /, 'export { ');
    expect(without).not.toBe(index);
    const errors = errorsIn(compile(new Map([[RUNTIME_INDEX, without]]), [TABLE], planted), TABLE);
    expect(errors.some((e) => e.includes("'XmlElement'"))).toBe(true);
    expect(errors.some((e) => e.includes('"ServiceClient"'))).toBe(true);
  }, 60_000);

  it('fails to compile a table entry whose key is not its name', () => {
    const table = readFileSync(TABLE, 'utf8');
    const swapped = table.replace(
      "CallOptions: runtimeType('CallOptions')",
      "CallOptions: runtimeType('ClientOptions')",
    );
    expect(swapped).not.toBe(table);
    const errors = errorsIn(compile(new Map([[TABLE, swapped]]), [TABLE], planted), TABLE);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('"ClientOptions"');
  }, 60_000);
});
