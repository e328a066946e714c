/**
 * Disk side of `smskit generate`: the generator returns a Map<relativePath, text>; this module
 * reads the current output folder, compares it, and replaces it atomically. Only bin/ writes.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { CliError } from './cli-error.js';

/** Marker every generated file carries; a folder holding a file without it is not ours to replace. */
export const GENERATED_MARKER = 'DO NOT EDIT';

export type FileTree = ReadonlyMap<string, string>;

/** Reads every file below `dir` as UTF-8, keyed by '/'-separated relative path. */
export function readTree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  if (!existsSync(dir)) return files;
  const walk = (current: string): void => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) files.set(relative(dir, full).split(sep).join('/'), readFileSync(full, 'utf8'));
    }
  };
  walk(dir);
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** A unified diff of `actual` (on disk) against `wanted` (freshly generated); '' when equal. */
export function diffTrees(dir: string, actual: FileTree, wanted: FileTree): string {
  const paths = [...new Set([...actual.keys(), ...wanted.keys()])].sort();
  const patches: string[] = [];
  for (const path of paths) {
    const before = actual.get(path);
    const after = wanted.get(path);
    if (before === after) continue;
    const label = `${dir}/${path}`;
    patches.push(
      createTwoFilesPatch(
        before === undefined ? '/dev/null' : label,
        after === undefined ? '/dev/null' : label,
        before ?? '',
        after ?? '',
        before === undefined ? '(missing on disk)' : 'on disk',
        after === undefined ? '(no longer generated)' : 'generated',
        { context: 3 },
      ),
    );
  }
  return patches.join('');
}

function assertOwnedByGenerator(dir: string, current: FileTree): void {
  for (const [path, text] of current) {
    if (!text.includes(GENERATED_MARKER)) {
      throw new CliError(`refusing to replace ${dir}: ${path} was not written by smskit generate`);
    }
  }
}

function writeTree(dir: string, files: FileTree): void {
  for (const [path, text] of files) {
    const target = resolve(dir, path);
    if (!target.startsWith(resolve(dir) + sep)) throw new CliError(`generated path escapes ${dir}: ${path}`);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
}

/**
 * Replaces `dir` with exactly `files`. Everything is written to a sibling temporary folder
 * first and swapped in with renames, so a failure at any point leaves the old output intact.
 */
export function replaceTreeAtomically(dir: string, files: FileTree): void {
  const current = readTree(dir);
  assertOwnedByGenerator(dir, current);
  const staging = `${resolve(dir)}.smskit-staging-${process.pid}`;
  const retired = `${resolve(dir)}.smskit-retired-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  try {
    writeTree(staging, files);
    if (existsSync(dir)) renameSync(dir, retired);
    renameSync(staging, dir);
  } catch (error) {
    if (!existsSync(dir) && existsSync(retired)) renameSync(retired, dir);
    throw error;
  } finally {
    rmSync(staging, { recursive: true, force: true });
    rmSync(retired, { recursive: true, force: true });
  }
}
