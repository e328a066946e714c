/**
 * Records the SQL of every better-sqlite3 statement run in this process while it is on: the plan
 * tests wrap the Statement class's run/get/all/iterate once, then ask which statements an action
 * ran and read their query plans.
 */
import Database from 'better-sqlite3';

export interface StatementRecorder {
  /** The distinct SQL texts run while `action` ran. */
  statementsOf(action: () => Promise<unknown>): Promise<string[]>;
  /** Puts the Statement class back as it was. */
  restore(): void;
}

export function recordStatements(): StatementRecorder {
  let executed: string[] = [];
  const probe = new Database(':memory:');
  const prototype = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, unknown>;
  probe.close();
  const originals = new Map<string, unknown>();
  for (const name of ['run', 'get', 'all', 'iterate']) {
    const original = prototype[name] as (this: { source: string }, ...args: unknown[]) => unknown;
    originals.set(name, original);
    prototype[name] = function (this: { source: string }, ...args: unknown[]) {
      executed.push(this.source);
      return original.apply(this, args);
    };
  }
  return {
    async statementsOf(action) {
      executed = [];
      await action();
      return [...new Set(executed)];
    },
    restore() {
      for (const [name, original] of originals) prototype[name] = original;
    },
  };
}
