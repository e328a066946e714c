/**
 * Prints ts-morph statement structures as TypeScript text, in exactly the layout ts-morph's
 * printer followed by `formatText` produced for them (the goldens hold that layout byte for
 * byte). Only the structure kinds and members emit builds are supported; anything else throws,
 * so a new structure can never print silently wrong.
 *
 * Why not ts-morph itself: loading the TypeScript compiler and formatting through it took about
 * 90% of `smskit generate`'s wall time (bench/README.md), for text whose layout is fixed.
 * Multi-line strings (statements, initializers) are printed as written, each continuation line
 * indented by the current level: emitters lay out their own nested lines.
 */
import type {
  ClassDeclarationStructure,
  ExportDeclarationStructure,
  FunctionDeclarationStructure,
  ImportDeclarationStructure,
  ImportSpecifierStructure,
  InterfaceDeclarationStructure,
  JSDocStructure,
  OptionalKind,
  ParameterDeclarationStructure,
  StatementStructures,
  TypeAliasDeclarationStructure,
  VariableStatementStructure,
} from 'ts-morph';
import { StructureKind } from './kinds.js';

type Docs = readonly (OptionalKind<JSDocStructure> | string)[] | undefined;
type Lines = string[];

const INDENT = '  ';

/** One statement as lines (no trailing newline), at the top level. */
export function printStatement(statement: StatementStructures): Lines {
  switch (statement.kind) {
    case StructureKind.ImportDeclaration:
      return [printImport(statement)];
    case StructureKind.ExportDeclaration:
      return [printExport(statement)];
    case StructureKind.TypeAlias:
      return printTypeAlias(statement);
    case StructureKind.Interface:
      return printInterface(statement);
    case StructureKind.Class:
      return printClass(statement);
    case StructureKind.Function:
      return printFunction(statement);
    case StructureKind.VariableStatement:
      return printVariable(statement);
    default:
      throw new Error(`printer: unsupported structure kind ${statement.kind}`);
  }
}

function printImport(s: ImportDeclarationStructure): string {
  if (s.defaultImport !== undefined || s.namespaceImport !== undefined || typeof s.namedImports === 'function')
    throw new Error('printer: only named imports are supported');
  const names = (s.namedImports ?? []).map((n) =>
    typeof n === 'string' ? n : specifier(n as OptionalKind<ImportSpecifierStructure>),
  );
  return `import ${s.isTypeOnly === true ? 'type ' : ''}{ ${names.join(', ')} } from ${quote(s.moduleSpecifier)};`;
}

function specifier(n: OptionalKind<ImportSpecifierStructure>): string {
  if (typeof n.name !== 'string') throw new Error('printer: writer-function import names are not supported');
  return `${n.isTypeOnly === true ? 'type ' : ''}${n.name}${n.alias !== undefined ? ` as ${n.alias}` : ''}`;
}

function printExport(s: ExportDeclarationStructure): string {
  if (s.namedExports !== undefined && (typeof s.namedExports === 'function' || s.namedExports.length > 0))
    throw new Error('printer: named exports are not supported');
  if (s.moduleSpecifier === undefined) throw new Error('printer: an export declaration needs a module specifier');
  return `export * ${s.namespaceExport !== undefined ? `as ${s.namespaceExport} ` : ''}from ${quote(s.moduleSpecifier)};`;
}

function printTypeAlias(s: TypeAliasDeclarationStructure): Lines {
  return [...printDocs(s.docs, ''), `${exported(s.isExported)}type ${s.name} = ${text(s.type)};`];
}

function printInterface(s: InterfaceDeclarationStructure): Lines {
  const bases = s.extends ?? [];
  if (typeof bases === 'function') throw new Error('printer: writer-function extends are not supported');
  const head = `${exported(s.isExported)}interface ${s.name}${bases.length > 0 ? ` extends ${bases.map(text).join(', ')}` : ''} {`;
  const body: Lines = [];
  for (const p of s.properties ?? []) {
    body.push(
      ...printDocs(p.docs, INDENT),
      `${INDENT}${p.isReadonly === true ? 'readonly ' : ''}${p.name}${p.hasQuestionToken === true ? '?' : ''}: ${text(p.type)};`,
    );
  }
  for (const m of s.methods ?? []) {
    body.push(
      ...printDocs(m.docs, INDENT),
      `${INDENT}${m.name}${m.hasQuestionToken === true ? '?' : ''}(${parameters(m.parameters)}): ${text(m.returnType)};`,
    );
  }
  return [...printDocs(s.docs, ''), head, ...body, '}'];
}

function printClass(s: ClassDeclarationStructure): Lines {
  const members: Lines[] = [];
  const fields = (s.properties ?? []).map((p) => [
    ...printDocs(p.docs, INDENT),
    `${INDENT}${p.isReadonly === true ? 'readonly ' : ''}${p.name}${p.hasQuestionToken === true ? '?' : ''}: ${text(p.type)};`,
  ]);
  if (fields.length > 0) members.push(fields.flat());
  for (const c of s.ctors ?? [])
    members.push([
      ...printDocs(c.docs, INDENT),
      ...block(`${INDENT}constructor(${parameters(c.parameters)})`, c.statements, INDENT),
    ]);
  for (const m of s.methods ?? [])
    members.push([
      ...printDocs(m.docs, INDENT),
      ...block(`${INDENT}${m.name}(${parameters(m.parameters)}): ${text(m.returnType)}`, m.statements, INDENT),
    ]);
  const body = members.flatMap((lines, i) => (i === 0 ? lines : ['', ...lines]));
  return [...printDocs(s.docs, ''), `${exported(s.isExported)}class ${s.name} {`, ...body, '}'];
}

function printFunction(s: FunctionDeclarationStructure): Lines {
  return [
    ...printDocs(s.docs, ''),
    ...block(
      `${exported(s.isExported)}function ${s.name}(${parameters(s.parameters)}): ${text(s.returnType)}`,
      s.statements,
      '',
    ),
  ];
}

function printVariable(s: VariableStatementStructure): Lines {
  const decls = s.declarations.map(
    (d) =>
      `${d.name}${d.type !== undefined ? `: ${text(d.type)}` : ''}${d.initializer !== undefined ? ` = ${text(d.initializer)}` : ''}`,
  );
  return [
    ...printDocs(s.docs, ''),
    ...indentLines(`${exported(s.isExported)}${String(s.declarationKind ?? 'let')} ${decls.join(', ')};`, ''),
  ];
}

/** `head {`, the statements one level deeper, `}`. */
function block(head: string, statements: unknown, indent: string): Lines {
  if (statements !== undefined && !Array.isArray(statements))
    throw new Error('printer: statements must be an array of strings');
  const inner = (statements ?? []) as unknown[];
  if (inner.some((s) => typeof s !== 'string')) throw new Error('printer: statements must be strings');
  return [`${head} {`, ...(inner as string[]).flatMap((s) => indentLines(s, indent + INDENT)), `${indent}}`];
}

/** Multi-line text at `indent`: every line gets the indentation, blank lines stay empty. */
function indentLines(value: string, indent: string): Lines {
  return value.split('\n').map((line) => (line === '' ? '' : indent + line));
}

function parameters(list: readonly OptionalKind<ParameterDeclarationStructure>[] | undefined): string {
  return (list ?? [])
    .map((p) => `${p.name}${p.hasQuestionToken === true ? '?' : ''}${p.type !== undefined ? `: ${text(p.type)}` : ''}`)
    .join(', ');
}

/**
 * JSDoc as ts-morph prints it: one line `/** text *\/` for one-line text, else `/**`, ` * line`
 * per line (` *` for an empty one) and ` *\/`.
 */
function printDocs(docs: Docs, indent: string): Lines {
  const out: Lines = [];
  for (const doc of docs ?? []) {
    const description = typeof doc === 'string' ? doc : doc.description;
    if (typeof doc !== 'string' && doc.tags !== undefined && doc.tags.length > 0)
      throw new Error('printer: JSDoc tags are not supported');
    if (typeof description !== 'string') throw new Error('printer: JSDoc text must be a string');
    const lines = description.split(/\r?\n/);
    if (lines[0] === '') lines.shift();
    if (lines.length <= 1) out.push(`${indent}/** ${lines[0] ?? ''} */`);
    else out.push(`${indent}/**`, ...lines.map((l) => `${indent} *${l === '' ? '' : ` ${l}`}`), `${indent} */`);
  }
  return out;
}

function text(value: unknown): string {
  if (typeof value !== 'string') throw new Error('printer: types and initializers must be strings');
  return value;
}

function exported(flag: boolean | undefined): string {
  return flag === true ? 'export ' : '';
}

function quote(specifier: string): string {
  return `'${specifier.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
