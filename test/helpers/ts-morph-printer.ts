/**
 * The reference printer: the same statement structures printed by ts-morph itself (an in-memory
 * Project with fixed manipulation settings, then `formatText`). Production uses the faster
 * generator/emit/printer.ts (loading TypeScript cost more than all of generation); the
 * differential test requires both to give identical bytes for every golden input.
 */
import {
  IndentationText,
  NewLineKind,
  Project,
  QuoteKind,
  StructureKind,
  ts,
  type FormatCodeSettings,
  type StatementStructures,
  type WriterFunction,
} from 'ts-morph';

const FORMAT: FormatCodeSettings = {
  indentSize: 2,
  tabSize: 2,
  convertTabsToSpaces: true,
  newLineCharacter: '\n',
  insertSpaceAfterCommaDelimiter: true,
  insertSpaceAfterSemicolonInForStatements: true,
  insertSpaceBeforeAndAfterBinaryOperators: true,
  insertSpaceAfterKeywordsInControlFlowStatements: true,
  insertSpaceAfterOpeningAndBeforeClosingNonemptyBraces: true,
  insertSpaceAfterFunctionKeywordForAnonymousFunctions: true,
  placeOpenBraceOnNewLineForFunctions: false,
  placeOpenBraceOnNewLineForControlBlocks: false,
  semicolons: ts.SemicolonPreference.Insert,
};

const blankLine: WriterFunction = (writer) => {
  writer.blankLine();
};

export function createReferenceProject(): Project {
  return new Project({
    useInMemoryFileSystem: true,
    skipAddingFilesFromTsConfig: true,
    manipulationSettings: {
      indentationText: IndentationText.TwoSpaces,
      newLineKind: NewLineKind.LineFeed,
      quoteKind: QuoteKind.Single,
      useTrailingCommas: true,
      usePrefixAndSuffixTextForRename: false,
    },
    compilerOptions: { strict: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext },
  });
}

/** Blank lines after the import block and between declarations, whatever their kind. */
function separateImports(statements: readonly StatementStructures[]): (WriterFunction | StatementStructures)[] {
  const isImport = (s: StatementStructures): boolean => s.kind === StructureKind.ImportDeclaration;
  const last = statements.map(isImport).lastIndexOf(true);
  const out: (WriterFunction | StatementStructures)[] = [...statements.slice(0, last + 1)];
  statements.slice(last + 1).forEach((statement, i) => {
    if (i > 0 || last >= 0) out.push(blankLine);
    out.push(statement);
  });
  return out;
}

/** A `FilePrinter` (generator/generate.ts) that prints through ts-morph. */
export function tsMorphFilePrinter(
  project: Project,
): (header: string, statements: readonly StatementStructures[]) => string {
  let counter = 0;
  return (header, statements) => {
    const file = project.createSourceFile(`/file-${counter++}.ts`, {
      statements: [header, blankLine, ...separateImports(statements)],
    });
    file.formatText(FORMAT);
    const text = file.getFullText().replace(/\n{3,}/g, '\n\n');
    project.removeSourceFile(file);
    return text.endsWith('\n') ? text : `${text}\n`;
  };
}
