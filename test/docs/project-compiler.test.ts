/**
 * The doc-run's compiler (project-compiler.ts) reports what `tsc -p .` reports and writes what it
 * writes, also for a project compiled after another one that shared its declaration files.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';
import { scratchDir } from '../helpers/scratch.js';
import { compileProject, DOC_TSCONFIG } from './project-compiler.js';

describe('compiling a doc-run project', () => {
  const scratch = scratchDir('smskit-project-compiler-');

  /** A project as the doc-run makes one: the repository's node_modules linked in, one source file. */
  function project(name: string, source: string, tsconfig: object = DOC_TSCONFIG): string {
    const dir = join(scratch, name);
    mkdirSync(join(dir, 'src'), { recursive: true });
    symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
    writeFileSync(join(dir, 'src', 'example.ts'), source);
    return dir;
  }

  it('emits a clean project and reports a type error in the next one, as tsc prints it', () => {
    const clean = project(
      'clean',
      "import { readFileSync } from 'node:fs';\nexport const text: string = readFileSync('x', 'utf8');\n",
    );
    expect(compileProject(clean)).toEqual({ status: 0, output: '' });
    expect(readFileSync(join(clean, 'dist', 'example.js'), 'utf8')).toContain("readFileSync('x', 'utf8')");

    // Compiled after the first, with @types/node already parsed: its types must still be there.
    const wrong = project(
      'wrong',
      "import { readFileSync } from 'node:fs';\nexport const size: number = readFileSync('x', 'utf8');\n",
    );
    expect(compileProject(wrong)).toEqual({
      status: 2,
      output: "src/example.ts(2,14): error TS2322: Type 'string' is not assignable to type 'number'.\n",
    });
  });

  it('reports an option error of tsconfig.json and a missing module', () => {
    const options = { ...DOC_TSCONFIG, compilerOptions: { ...DOC_TSCONFIG.compilerOptions, target: 'ES1999' } };
    const badOption = project('bad-option', 'export const n = 1;\n', options);
    const outcome = compileProject(badOption);
    expect(outcome.status).toBe(2);
    expect(outcome.output).toMatch(/tsconfig\.json\(1,\d+\): error TS6046: Argument for '--target' option must be/);

    const missing = project('missing', "import { nothing } from 'no-such-package';\nexport const n = nothing;\n");
    expect(compileProject(missing).output).toContain("error TS2307: Cannot find module 'no-such-package'");
    expect(existsSync(join(missing, 'dist', 'example.js'))).toBe(true);
  });
});
