/**
 * A replay baseline: the difference groups a migration has accepted (`--write-baseline` writes
 * it, `--baseline` reads it), so CI fails only on differences that are new. One key per group:
 * `operation binding kind path`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { RecordingError } from './recording.js';
import type { DifferenceGroup } from './types.js';

const FORMAT = 'smskit-replay-baseline/1';

interface BaselineFile {
  readonly format: typeof FORMAT;
  readonly differences: readonly string[];
}

export function readReplayBaseline(file: string): Set<string> {
  let parsed: BaselineFile;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as BaselineFile;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new RecordingError(`--baseline ${file}: ${code === 'ENOENT' ? 'not found' : 'not readable JSON'}`);
  }
  if (parsed.format !== FORMAT || !Array.isArray(parsed.differences))
    throw new RecordingError(`--baseline ${file}: not a replay baseline (format ${FORMAT})`);
  return new Set(parsed.differences.map((key) => currentBindingName(String(key))));
}

/** Baselines written before bindings were named as the flags said `get`/`post`: read as `http-get`/`http-post`. */
function currentBindingName(key: string): string {
  return key.replace(/^(\S+) (get|post) /, (_, operation: string, method: string) => `${operation} http-${method} `);
}

export function writeReplayBaseline(file: string, groups: readonly DifferenceGroup[]): void {
  const body: BaselineFile = { format: FORMAT, differences: groups.map((g) => g.key).sort() };
  writeFileSync(file, `${JSON.stringify(body, null, 2)}\n`);
}
