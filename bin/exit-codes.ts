/**
 * The exit codes of every smskit command, defined once: the numbers, and what each one means for
 * each command. Every command's `--help` ("Exit codes:") is rendered from `COMMAND_EXIT_CODES`,
 * and so is the table in the docs (`exitCodeTable`); test/cli/exit-codes.test.ts holds both to it.
 *
 * Only bin/ turns an outcome into one of these numbers: the libraries (conformance, generator,
 * runtime, service) return outcomes or throw typed errors, and never exit.
 */

export const EXIT_OK = 0;
/** Checks failed: conformance failures, a stale `generate --check`, a breaking diff, a SOAP fault. */
export const EXIT_FAILED = 1;
/** A usage or input error, an unreachable server, or a run whose answers cannot be judged. */
export const EXIT_USAGE = 2;
/** Ctrl-C (128 + SIGINT), after the reports of what ran were written. */
export const EXIT_INTERRUPTED = 130;

/** What each exit code means for one command: 0 and 2 always, 1 and 130 where the command has them. */
export interface ExitCodes {
  readonly 0: string;
  readonly 1?: string;
  readonly 2: string;
  readonly 130?: string;
}

/** Keyed by command name, in the order `smskit --help` lists the commands; `smskit` is the program. */
export const COMMAND_EXIT_CODES = {
  smskit: {
    0: 'the command succeeded',
    1: 'checks failed (conformance failures, a stale generate --check, a SOAP fault, a breaking diff)',
    2: 'usage or input error (unknown flag, unreadable WSDL, unreachable server)',
    130: 'interrupted (Ctrl-C) during smskit conformance',
  },
  conformance: {
    0: 'no failure at or above --fail-on (not counting those --baseline lists); or --write-baseline wrote the baseline of a completed run; or --list printed the cases',
    1: 'failures at or above --fail-on (with --max-failures N: the run stopped after N failing cases, the rest not run)',
    2: 'usage or input error, unreadable WSDL, unreachable target, no case selected, --run-timeout, or answers that cannot be judged (not this SOAP service; credentials refused): one line on stderr says why',
    130: 'interrupted (Ctrl-C): the reports of what ran were written, marked interrupted',
  },
  generate: {
    0: 'written, or (--check) already up to date',
    1: '--check: the folder differs from what would be generated (diff printed)',
    2: 'the WSDL cannot be read, fetched or generated from, or a usage error',
  },
  diff: {
    0: 'nothing at or above --fail-on changed',
    1: 'a change at or above --fail-on',
    2: 'a WSDL cannot be read or parsed, or a usage error',
  },
  inspect: {
    0: 'the description was printed',
    2: 'the WSDL cannot be read, fetched or parsed, or a usage error',
  },
  call: {
    0: 'the result was printed',
    1: 'the service answered with a fault',
    2: 'usage, input or transport error',
  },
  serve: {
    0: 'stopped by SIGINT, SIGTERM or SIGHUP after in-flight requests finished',
    2: 'usage error, or the port, database, TLS certificate or key cannot be opened',
  },
  account: {
    0: 'done',
    2: 'usage error, no such account, or the database cannot be opened',
  },
  send: {
    0: 'sent: the message id was printed',
    1: 'the service answered with a fault (code and message printed)',
    2: 'usage or transport error',
  },
  status: {
    0: "the message's state was printed",
    1: 'the service answered with a fault (code and message printed: UnknownMessage, AuthenticationFailed, ...)',
    2: 'usage or transport error',
  },
  outbox: {
    0: 'listed or pruned (--follow: stopped by Ctrl-C; --wait: the message is in one of the states)',
    1: '--wait: the message is still in another state at --timeout, or ended in another final state (the state is printed)',
    2: 'usage error, no such message (--id), or no database at --db',
  },
  callbacks: {
    0: 'listed or re-queued (--follow: stopped by Ctrl-C)',
    2: 'usage error, or no database at --db',
  },
  smsc: {
    0: 'stopped by SIGINT, SIGTERM or SIGHUP',
    2: 'usage error, no password in SMSKIT_SMSC_PASSWORD, or the port cannot be opened',
  },
  db: {
    0: "the schema is at this smskit's version (migrated or already)",
    2: 'usage error, the database cannot be reached, or its schema is newer than this smskit',
  },
  record: {
    0: 'stopped by Ctrl-C, SIGTERM, SIGHUP, --duration or --max-exchanges; the exchanges were stored',
    2: 'usage error, the port cannot be opened, or --out already holds a recording',
  },
  replay: {
    0: 'no difference (none that --baseline does not list); or --write-baseline wrote the baseline',
    1: 'differences: answers of the target that differ from the recorded (or reference) ones, not counting noise, ignores or --baseline',
    2: 'usage error, unreadable recording, nothing replayed, the target never answered, or the reference did not answer (not judged)',
    130: 'interrupted (Ctrl-C): the reports of what ran were written',
  },
  fuzz: {
    0: 'no finding (none that --baseline does not list); or --write-baseline wrote the baseline',
    1: 'findings: inputs the target answered wrongly (shrunk, with the seed and path that replay each)',
    2: 'usage error, unreadable WSDL, nothing to fuzz, or the target never answered (not judged)',
    130: 'interrupted (Ctrl-C): the reports of what ran were written',
  },
} as const satisfies Readonly<Record<string, ExitCodes>>;

export type CommandName = Exclude<keyof typeof COMMAND_EXIT_CODES, 'smskit'>;

/** `[code, meaning]` in ascending order of code, only the codes the command has. */
export function exitCodeEntries(codes: ExitCodes): [number, string][] {
  return ([0, 1, 2, 130] as const).flatMap((code): [number, string][] => {
    const meaning = codes[code];
    return meaning === undefined ? [] : [[code, meaning]];
  });
}

/** The "Exit codes:" block of a help text. */
export function exitCodeHelp(codes: ExitCodes): string {
  const lines = exitCodeEntries(codes).map(([code, meaning]) => `  ${code}  ${meaning}`);
  return `Exit codes:\n${lines.join('\n')}`;
}

function markdownMeaning(meaning: string): string {
  return meaning.replace(/--[a-z][a-z-]*/g, '`$&`');
}

/** The Markdown table of every command's exit codes (a column per code), for the docs. */
export function exitCodeTable(): string {
  const codes = [0, 1, 2, 130] as const;
  const rows = Object.entries(COMMAND_EXIT_CODES)
    .filter(([name]) => name !== 'smskit')
    .map(([name, meanings]: [string, ExitCodes]) => {
      const cells = codes.map((code) => markdownMeaning(meanings[code] ?? ''));
      return `| \`${name}\` | ${cells.join(' | ')} |`;
    });
  return [`| command | ${codes.join(' | ')} |`, `| --- |${' --- |'.repeat(codes.length)}`, ...rows, ''].join('\n');
}

/** The Markdown table of one command's exit codes, for the docs page of that command. */
export function commandExitCodeTable(name: CommandName): string {
  const rows = exitCodeEntries(COMMAND_EXIT_CODES[name]).map(
    ([code, meaning]) => `| ${code} | ${markdownMeaning(meaning)} |`,
  );
  return ['| Exit | Meaning |', '| --- | --- |', ...rows, ''].join('\n');
}
