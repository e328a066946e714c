/**
 * One run folder for every project of a run (run-folder.ts): Vitest calls the global setup once
 * per project, and files of different projects share work through the folder.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import setup from './run-folder.js';

describe('the run folder', () => {
  it('is one for all projects, removed after the last project is done with it', () => {
    const provided: string[] = [];
    const project = { provide: (_key: 'runFolder', dir: string) => void provided.push(dir) };
    const teardowns = [setup(project), setup(project), setup(project)];
    expect(new Set(provided).size).toBe(1);
    teardowns[0]!();
    teardowns[1]!();
    expect(existsSync(provided[0]!)).toBe(true);
    teardowns[2]!();
    expect(existsSync(provided[0]!)).toBe(false);

    const next: string[] = [];
    setup({ provide: (_key: 'runFolder', dir: string) => void next.push(dir) })();
    expect(next[0]).not.toBe(provided[0]);
  });
});
