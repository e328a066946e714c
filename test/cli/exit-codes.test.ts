/**
 * Exit codes are defined once (bin/exit-codes.ts): every command shows its own entry in its
 * `--help`, and every table of exit codes in the docs is the one rendered from the same data.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandName } from '../../bin/commands/command.js';
import { commands } from '../../bin/commands/index.js';
import {
  COMMAND_EXIT_CODES,
  type CommandName,
  commandExitCodeTable,
  exitCodeEntries,
  type ExitCodes,
  exitCodeTable,
} from '../../bin/exit-codes.js';
import { repoRoot, runCli } from '../helpers/cli.js';

const names = commands.map(commandName);
/** yargs wraps the help to the terminal's width: compare with runs of white space as one space. */
const flat = (text: string): string => text.replace(/\s+/g, ' ');

function expectHelpShows(help: string, codes: ExitCodes): void {
  const shown = flat(help.slice(help.indexOf('Exit codes:')));
  for (const [code, meaning] of exitCodeEntries(codes)) expect(shown).toContain(flat(`${code} ${meaning}`));
}

/** Every Markdown table of a text, as rows of trimmed cells, the separator row left out. */
function markdownTables(text: string): string[][][] {
  const tables: string[][][] = [];
  let current: string[][] | undefined;
  for (const line of text.split('\n')) {
    if (!line.startsWith('|')) {
      current = undefined;
      continue;
    }
    const cells = line
      .slice(1, line.trimEnd().endsWith('|') ? line.trimEnd().length - 1 : undefined)
      .split('|')
      .map((cell) => cell.trim());
    if (cells.every((cell) => /^:?-+:?$/.test(cell))) continue;
    if (current === undefined) tables.push((current = []));
    current.push(cells);
  }
  return tables;
}

const headerIs = (table: string[][], header: readonly string[]): boolean =>
  JSON.stringify(table[0]?.map((cell) => cell.toLowerCase())) === JSON.stringify(header);

describe('exit codes', () => {
  it('every command has an entry, and it is the one its help is rendered from', () => {
    expect(new Set(names)).toEqual(new Set(Object.keys(COMMAND_EXIT_CODES).filter((n) => n !== 'smskit')));
    for (const command of commands)
      expect(command.exitCodes).toEqual(COMMAND_EXIT_CODES[commandName(command) as CommandName]);
  });

  it('smskit --help shows the program-wide codes', () => {
    const help = runCli(['--help']);
    expect(help.status).toBe(0);
    expectHelpShows(help.stdout, COMMAND_EXIT_CODES.smskit);
  });

  it.each(names)('smskit %s --help shows each of its codes with its meaning', (name) => {
    const help = runCli([name, '--help']);
    expect(help.status).toBe(0);
    expectHelpShows(help.stdout, COMMAND_EXIT_CODES[name as CommandName]);
  });

  it('every exit-code table of the docs is the one rendered from bin/exit-codes.ts', () => {
    const docs = [
      'README.md',
      ...readdirSync(join(repoRoot, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    const [allCommands] = markdownTables(exitCodeTable());
    // A command's own page has its table without the command column.
    const ownPages: Readonly<Record<string, CommandName>> = {
      'docs/conformance.md': 'conformance',
      'docs/migrate.md': 'replay',
    };
    let compared = 0;
    for (const file of docs) {
      for (const table of markdownTables(readFileSync(join(repoRoot, file), 'utf8'))) {
        if (headerIs(table, ['command', '0', '1', '2', '130'])) {
          expect(table, file).toEqual(allCommands);
          compared++;
        }
        const own = ownPages[file];
        if (own !== undefined && headerIs(table, ['exit', 'meaning'])) {
          expect(table, file).toEqual(markdownTables(commandExitCodeTable(own))[0]);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(0);
  });
});
