/**
 * The doc-run's TypeScript examples compiled as `tsc -p .` compiles them in the document's
 * project: the project's own `typescript` package, its tsconfig.json, every diagnostic tsc would
 * print (options, syntax, types, emit), the JavaScript written to its outDir.
 *
 * In the test's process rather than a `tsc` process per compile, so that what every project shares
 * is read once per worker: their node_modules is one install, linked into each project, and each
 * `tsc` run parsed and bound its ~250 declaration files again (@types/node, smskit's own .d.ts,
 * TypeScript's lib files): about 4 CPU-seconds a run, nine runs a suite. A parsed file of
 * node_modules is kept and handed to the next program, as TypeScript's language service shares
 * them between projects; the examples' own files are read fresh every time.
 */
import { createRequire } from 'node:module';
import { isAbsolute, join } from 'node:path';
import type * as TypeScript from 'typescript';

type Compiler = typeof TypeScript;

/** The tsconfig.json of every document's project. */
export const DOC_TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    // As `tsc --init` writes it. The shipped declarations are checked without it by the package
    // test; here it saves checking all of @types/node again at every compile (~10 s each).
    skipLibCheck: true,
    outDir: 'dist',
    rootDir: 'src',
    types: ['node'],
  },
  include: ['src'],
};

export interface CompileOutcome {
  /** What tsc would exit with: 0 when nothing was reported, else 2 (as tsc for diagnostics). */
  readonly status: number;
  /** The diagnostics as tsc prints them (file(line,col): error TSnnnn: …), one per line. */
  readonly output: string;
}

/**
 * Declaration files parsed by each compiler (one per `typescript` install), by the options that
 * shape a parse and bind (every project's own paths left out), then by file and parse options.
 */
const parsedDeclarations = new WeakMap<Compiler, Map<string, Map<string, TypeScript.SourceFile>>>();

/** Compiles the project in `dir` with its tsconfig.json. */
export function compileProject(dir: string): CompileOutcome {
  const ts = createRequire(join(dir, 'package.json'))('typescript') as Compiler;
  const format: TypeScript.FormatDiagnosticsHost = {
    getCurrentDirectory: () => dir,
    getCanonicalFileName: (file) => file,
    getNewLine: () => '\n',
  };
  const configErrors: TypeScript.Diagnostic[] = [];
  const config = ts.getParsedCommandLineOfConfigFile(join(dir, 'tsconfig.json'), undefined, {
    ...ts.sys,
    getCurrentDirectory: () => dir,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => configErrors.push(diagnostic),
  });
  if (config === undefined) return { status: 1, output: ts.formatDiagnostics(configErrors, format) };
  const program = ts.createProgram({
    rootNames: config.fileNames,
    options: config.options,
    ...(config.projectReferences === undefined ? {} : { projectReferences: config.projectReferences }),
    host: hostSharingDeclarations(ts, config.options),
    configFileParsingDiagnostics: config.errors,
  });
  const diagnostics = [...config.errors, ...ts.getPreEmitDiagnostics(program), ...program.emit().diagnostics];
  return { status: diagnostics.length === 0 ? 0 : 2, output: ts.formatDiagnostics(diagnostics, format) };
}

function hostSharingDeclarations(ts: Compiler, options: TypeScript.CompilerOptions): TypeScript.CompilerHost {
  const host = ts.createCompilerHost(options);
  let byOptions = parsedDeclarations.get(ts);
  if (byOptions === undefined) parsedDeclarations.set(ts, (byOptions = new Map()));
  const shape = JSON.stringify(options, (_key, value) =>
    typeof value === 'string' && isAbsolute(value) ? undefined : value,
  );
  let cache = byOptions.get(shape);
  if (cache === undefined) byOptions.set(shape, (cache = new Map()));
  const kept = cache;
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, parse, onError, fresh) => {
    if (!fileName.includes('/node_modules/') || fresh === true) return read(fileName, parse, onError, fresh);
    const key = `${fileName}\n${typeof parse === 'object' ? `${parse.languageVersion}/${parse.impliedNodeFormat}` : parse}`;
    let file = kept.get(key);
    if (file === undefined) {
      file = read(fileName, parse, onError);
      if (file !== undefined) kept.set(key, file);
    }
    return file;
  };
  return host;
}
