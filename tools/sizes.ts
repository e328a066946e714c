/**
 * Module and function sizes of the product code, measured with the TypeScript parser so a line
 * count means the same thing everywhere: a module's physical lines, a function's lines from its
 * first to its last (nested functions are measured on their own as well). The architecture test
 * keeps the limits; `node --import tsx tools/sizes.ts` prints the tables the docs quote.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

export const PRODUCT_FOLDERS = [
  'bin',
  'contract',
  'generator',
  'runtime',
  'conformance',
  'service',
  'migrate',
  'fuzz',
  'report',
] as const;
export const MODULE_LIMIT = 400;
export const FUNCTION_LIMIT = 60;

export interface ModuleSize {
  readonly file: string;
  readonly lines: number;
}

export interface FunctionSize {
  readonly file: string;
  readonly name: string;
  readonly line: number;
  readonly lines: number;
}

function typescriptFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : typescriptFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

export function productFiles(root: string): string[] {
  return PRODUCT_FOLDERS.flatMap((folder) => typescriptFiles(join(root, folder))).sort();
}

function functionName(node: ts.Node, source: ts.SourceFile): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name) return named.name.getText(source);
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText(source);
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText(source);
  return '(anonymous)';
}

function isFunctionLike(node: ts.Node): boolean {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessor(node) ||
    ts.isSetAccessor(node)
  );
}

export function measureFile(root: string, path: string): { module: ModuleSize; functions: FunctionSize[] } {
  const text = readFileSync(path, 'utf8');
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const file = relative(root, path);
  const functions: FunctionSize[] = [];
  const visit = (node: ts.Node): void => {
    if (isFunctionLike(node)) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      functions.push({ file, name: functionName(node, source), line: first + 1, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  const lines = text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
  return { module: { file, lines }, functions };
}

export function measure(root: string): { modules: ModuleSize[]; functions: FunctionSize[] } {
  const measured = productFiles(root).map((path) => measureFile(root, path));
  return { modules: measured.map((m) => m.module), functions: measured.flatMap((m) => m.functions) };
}

function main(): void {
  const root = resolve(process.argv[2] ?? '.');
  const { modules, functions } = measure(root);
  const bigModules = modules.filter((m) => m.lines > MODULE_LIMIT).sort((a, b) => b.lines - a.lines);
  const longFunctions = functions.filter((f) => f.lines > FUNCTION_LIMIT).sort((a, b) => b.lines - a.lines);
  const total = modules.reduce((sum, m) => sum + m.lines, 0);
  console.log(`${modules.length} modules, ${total} lines, ${functions.length} functions`);
  console.log(
    `largest module: ${Math.max(...modules.map((m) => m.lines))} lines; longest function: ${Math.max(...functions.map((f) => f.lines))} lines`,
  );
  console.log(`\nmodules over ${MODULE_LIMIT} lines: ${bigModules.length}`);
  for (const m of bigModules) console.log(`| ${m.file} | ${m.lines} |`);
  console.log(`\nfunctions over ${FUNCTION_LIMIT} lines: ${longFunctions.length}`);
  for (const f of longFunctions) console.log(`| ${f.file}:${f.line} | ${f.name} | ${f.lines} |`);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename ?? '')) main();
