/**
 * The only tests a CI run may skip, each with why: the skip audit (test/setup/skip-audit.ts)
 * fails a CI run on any other skip. Peers are never here: .ci/run installs every one, and a
 * missing peer fails in CI (test/helpers/peers.ts). docs/development.md "Running the tests"
 * lists the same entries.
 */
export interface ExpectedSkip {
  /** The test file, relative to the repository. */
  readonly file: string;
  /** The test's full name (suites and test joined by " > "). */
  readonly name: RegExp;
  readonly why: string;
}

export const EXPECTED_SKIPS: readonly ExpectedSkip[] = [
  ...['doc-run', 'doc-run-2', 'doc-run-3', 'doc-run-4'].map((part) => ({
    file: `test/docs/${part}.test.ts`,
    name: /: 0 examples run as written$/,
    why: 'a document without a runnable example (it keeps its row so a new example is picked up)',
  })),
  {
    file: 'test/reliability/storage.test.ts',
    name: /^disk and database faults through the wire > a (read-only database \(chattr \+i|full disk \(the database on a 2 MiB tmpfs)/,
    why: 'the machine cannot `chattr +i` or mount a tmpfs (a container without CAP_SYS_ADMIN)',
  },
  {
    file: 'test/cli/bad-inputs.test.ts',
    name: /a database on a read-only file system says so and what to do$/,
    why: 'mounting a read-only tmpfs needs CAP_SYS_ADMIN',
  },
];
