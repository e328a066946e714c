/**
 * `--before <git-ref>`: the same bench children from another commit, checked out in a temporary
 * git worktree (sharing this checkout's node_modules), so a change's before and after are
 * measured side by side in one run, on the same machine, in the same interleaved rounds.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './procs.js';

export interface BeforeTree {
  /** The worktree's root: its bench/children are forked from there. */
  readonly root: string;
  /** The commit, abbreviated, for the report. */
  readonly commit: string;
  remove(): void;
}

export function checkoutBefore(ref: string): BeforeTree {
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8' }).trim();
  const commit = git('rev-parse', '--short', `${ref}^{commit}`);
  const root = join(mkdtempSync(join(tmpdir(), 'smskit-bench-before-')), 'tree');
  git('worktree', 'add', '--detach', root, commit);
  symlinkSync(join(repoRoot, 'node_modules'), join(root, 'node_modules'), 'dir');
  return {
    root,
    commit,
    remove: () => {
      try {
        git('worktree', 'remove', '--force', root);
      } finally {
        rmSync(join(root, '..'), { recursive: true, force: true });
      }
    },
  };
}
