/**
 * User code compiled beside generated files, under the repo's strict compiler options, in
 * memory (ts-morph overlays at virtual paths inside the repo, so `smskit/runtime` resolves
 * through package.json `exports`): the diagnostics as `line: message`. Tests write what must
 * not compile under `@ts-expect-error`, so an expectation that no longer holds is itself an error.
 */
import { join } from 'node:path';
import { Project, ts } from 'ts-morph';
import { repoRoot } from '../fixtures/models/golden-inputs.js';

function compilerOptions(): ts.CompilerOptions {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(repoRoot, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  return { ...parsed!.options, noEmit: true };
}

/** Diagnostics of `user` (at `<root>/user.ts`) compiled beside `files` (at `<root>/gen/<path>`). */
export function compileBeside(files: ReadonlyMap<string, string>, user: string, virtualRoot: string): string[] {
  const project = new Project({ compilerOptions: compilerOptions(), skipAddingFilesFromTsConfig: true });
  const root = join(repoRoot, virtualRoot, Math.random().toString(36).slice(2));
  for (const [path, text] of files) project.createSourceFile(join(root, 'gen', path), text);
  const source = project.createSourceFile(join(root, 'user.ts'), user);
  return source
    .getPreEmitDiagnostics()
    .map(
      (d) =>
        `${d.getLineNumber()}: ${ts.flattenDiagnosticMessageText(d.getMessageText() as string | ts.DiagnosticMessageChain, '\n')}`,
    );
}
