/**
 * Command-line conventions every command follows: -h as --help; examples and the meaning of each
 * exit code in every command's help; a mistyped flag gets the closest real one suggested; a
 * usage error points at the subcommand's help; a reader closing the pipe early ends the command
 * quietly.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { commandName } from '../../bin/commands/command.js';
import { commands } from '../../bin/commands/index.js';
import { closestFlag, suggestFlags } from '../../bin/suggest.js';
import { repoRoot, runCli } from '../helpers/cli.js';

const bin = fileURLToPath(new URL('../../bin/smskit.js', import.meta.url));
const names = commands.map(commandName);

describe('help', () => {
  it('-h is --help, for the program and for a command', () => {
    for (const args of [[], ['generate']]) {
      const short = runCli([...args, '-h']);
      const long = runCli([...args, '--help']);
      expect(short.status).toBe(0);
      expect(short.stdout).toBe(long.stdout);
      expect(short.stdout).toMatch(/-h, --help/);
    }
  });

  it('the program help lists every command, two examples and the exit codes', () => {
    const help = runCli(['--help']).stdout;
    for (const name of names) expect(help).toContain(`smskit ${name}`);
    expect(help).toMatch(/Examples:\n {2}smskit generate/);
    expect(help).toMatch(/Exit codes:\n {2}0 {2}.+\n {2}1 {2}.+\n {2}2 {2}.+/);
  });

  it.each(names)('smskit %s --help shows its examples and what each exit code means', (name) => {
    const command = commands.find((c) => String(Array.isArray(c.command) ? c.command[0] : c.command).startsWith(name))!;
    const help = runCli([name, '--help']);
    expect(help.status).toBe(0);
    expect(command.examples.length).toBeGreaterThan(0);
    expect(help.stdout).toContain('Examples:');
    const examples = help.stdout.slice(help.stdout.indexOf('Examples:'), help.stdout.indexOf('Exit codes:'));
    // yargs wraps both columns; each example starts a line with the command's name.
    expect(examples.match(new RegExp(`^ {2}(\\S+=\\S+ )?smskit ${name}\\b`, 'gm'))?.length).toBe(
      command.examples.length,
    );
    expect(help.stdout).toMatch(/Exit codes:\n {2}0 {2}\S/);
    expect(help.stdout).toMatch(/\n {2}2 {2}\S/);
  });
});

describe('mistyped flags', () => {
  it.each([
    ['wsld', ['wsdl', 'out', 'check'], 'wsdl'],
    ['chek', ['wsdl', 'out', 'check'], 'check'],
    ['run-timout', ['run', 'run-timeout', 'timeout'], 'run-timeout'],
    ['targte', ['target', 'timeout'], 'target'],
    ['reporters', ['reporter', 'retries'], 'reporter'],
    ['lis', ['list', 'level'], 'list'],
    ['zzz', ['wsdl', 'out'], undefined],
    ['x', ['wsdl', 'out'], undefined],
  ])('%s among %j: %s', (given, known, want) => {
    expect(closestFlag(given, known)).toBe(want);
  });

  it('suggests one flag per unknown argument of a yargs message, or nothing', () => {
    expect(suggestFlags('Unknown arguments: lst, targte', ['list', 'target'])).toBe('; did you mean --list, --target?');
    expect(suggestFlags('Unknown argument: zzz', ['list'])).toBe('');
    expect(suggestFlags('Missing required argument: url', ['url'])).toBe('');
  });

  it('a real run: exit 2, one line with the suggestion and the subcommand help', () => {
    const result = runCli(['generate', '--wsld', 'calc.wsdl']);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('smskit: Unknown argument: wsld; did you mean --wsdl? (see smskit generate --help)\n');
    const conformance = runCli(['conformance', '--bindng', 'soap11', '--list']);
    expect(conformance.stderr).toBe(
      'smskit: Unknown argument: bindng; did you mean --binding? (see smskit conformance --help)\n',
    );
  });

  it('other usage errors point at the subcommand help too, and the program help without one', () => {
    expect(runCli(['send', '--url', 'http://x/']).stderr).toMatch(
      /^smskit: Missing required arguments: .* \(see smskit send --help\)\n$/,
    );
    expect(runCli(['conformance', '--level', 'nope']).stderr).toMatch(
      /^smskit: Invalid values:[\s\S]* \(see smskit conformance --help\)\n$/,
    );
    expect(runCli([]).stderr).toBe('smskit: Name a command (see smskit --help)\n');
    expect(runCli(['gnerate'])).toMatchObject({
      status: 2,
      stderr: 'smskit: Did you mean generate? (see smskit --help)\n',
    });
  });

  it('a flag value the command refuses points at its help as well', () => {
    expect(runCli(['generate', '--timeout', '0'])).toMatchObject({
      status: 2,
      stderr: 'smskit: --timeout must be a number of milliseconds between 1 and 600000 (see smskit generate --help)\n',
    });
    expect(runCli(['account', 'disable'])).toMatchObject({
      status: 2,
      stderr: 'smskit: account disable needs --email (see smskit account --help)\n',
    });
  });
});

describe('a closed pipe', () => {
  it('`smskit conformance --list | head -0`: the command ends quietly, exit 0', async () => {
    const child = spawn(process.execPath, [bin, 'conformance', '--list'], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The reader is gone before the first write, as with `| head -0` or a pager quit early.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const status = await new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    expect(stderr).toBe('');
    expect(status).toBe(0);
  });
});

describe('an optional dependency that is not installed', () => {
  it('better-sqlite3 missing is one line saying what needs it and how to add it', async () => {
    const { formatCliError } = await import('../../bin/cli-error.js');
    const error = Object.assign(
      new Error("Cannot find package 'better-sqlite3' imported from /app/node_modules/smskit/dist/cli/server-X.mjs"),
      { code: 'ERR_MODULE_NOT_FOUND' },
    );
    expect(formatCliError(error, false)).toBe(
      'smskit: the built-in SMS service needs better-sqlite3, an optional dependency of smskit that is not installed here (npm install better-sqlite3)',
    );
    const other = Object.assign(new Error("Cannot find package 'left-pad'"), { code: 'ERR_MODULE_NOT_FOUND' });
    expect(formatCliError(other, false)).toBe("smskit: Cannot find package 'left-pad'");
  });
});
