/**
 * A fuzz baseline: the findings a team has accepted (`--write-baseline` writes it, `--baseline`
 * reads it), so CI fails only on new ones. One key per finding: `Operation/binding/mode check`,
 * which names the property and the first check it failed, not the input (a shrunk input may
 * differ from run to run; the defect it shows does not).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { FuzzError } from './errors.js';
import type { FuzzFinding } from './types.js';

const FORMAT = 'smskit-fuzz-baseline/1';

interface BaselineFile {
  readonly format: typeof FORMAT;
  readonly findings: readonly string[];
}

export function readFuzzBaseline(file: string): Set<string> {
  let parsed: BaselineFile;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as BaselineFile;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new FuzzError(
      'FUZZ_BASELINE',
      `--baseline ${file}: ${code === 'ENOENT' ? 'not found' : 'not readable JSON'}`,
    );
  }
  if (parsed.format !== FORMAT || !Array.isArray(parsed.findings))
    throw new FuzzError('FUZZ_BASELINE', `--baseline ${file}: not a fuzz baseline (format ${FORMAT})`);
  return new Set(parsed.findings.map(String));
}

export function writeFuzzBaseline(file: string, findings: readonly FuzzFinding[]): void {
  const body: BaselineFile = { format: FORMAT, findings: findings.map((f) => f.key).sort() };
  writeFileSync(file, `${JSON.stringify(body, null, 2)}\n`);
}
