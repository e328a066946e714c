/**
 * Compile check: the generated code of every golden input type-checks under the repo's strict
 * compiler options, against the real runtime (`smskit/runtime` resolves through package.json
 * `exports`). The files live only in memory (ts-morph overlays at virtual paths inside the
 * repo), so a failure names the generated file and line without anything written to disk.
 */
import { join } from 'node:path';
import { Project, ts } from 'ts-morph';
import { beforeAll, describe, expect, it } from 'vitest';
import { GeneratorError } from '../../contract/errors.js';
import { generate, parseWsdl } from '../../generator/index.js';
import { goldenInputs, repoRoot } from '../fixtures/models/golden-inputs.js';
import { requireShared } from '../helpers/peers.js';

const VIRTUAL_ROOT = join(repoRoot, 'test/golden/.compile');
const diagnosticsByStem = new Map<string, string[]>();
const refused = new Set<string>();
requireShared('wsdl-corpus', 'compile-generated (corpus inputs)').reason;

function compilerOptions(): ts.CompilerOptions {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(repoRoot, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  return { ...parsed!.options, noEmit: true, strict: true };
}

beforeAll(() => {
  process.chdir(repoRoot);
  const project = new Project({ compilerOptions: compilerOptions(), skipAddingFilesFromTsConfig: true });
  for (const { wsdl, stem } of goldenInputs()) {
    let files: Map<string, string>;
    try {
      files = generate(parseWsdl(wsdl), { toolVersion: '0.0.0-compile' });
    } catch (error) {
      if (!(error instanceof GeneratorError)) throw error;
      refused.add(stem);
      continue;
    }
    for (const [path, text] of files)
      project.createSourceFile(join(VIRTUAL_ROOT, stem, path), text, { overwrite: true });
    diagnosticsByStem.set(stem, []);
  }
  for (const d of project.getPreEmitDiagnostics()) {
    const file = d.getSourceFile()?.getFilePath() ?? '(global)';
    const relativePath = file.startsWith(VIRTUAL_ROOT) ? file.slice(VIRTUAL_ROOT.length + 1) : file;
    const stem = relativePath.split('/')[0]!;
    const message = ts.flattenDiagnosticMessageText(d.getMessageText() as string | ts.DiagnosticMessageChain, '\n');
    const line = `${relativePath}:${d.getLineNumber() ?? 0}: TS${d.getCode()} ${message}`;
    (diagnosticsByStem.get(stem) ?? diagnosticsByStem.set('(other)', []).get('(other)')!).push(line);
  }
}, 300_000);

describe('generated code compiles under strict', () => {
  it.each(goldenInputs())('$stem', ({ stem }) => {
    if (refused.has(stem)) return; // the golden test pins the refusal message
    expect(diagnosticsByStem.get(stem)).toEqual([]);
  });

  it('no diagnostics outside the generated files', () => {
    expect(diagnosticsByStem.get('(other)') ?? []).toEqual([]);
  });
});
