/**
 * Checks of one operation over the bindings that carry it, and the operation × binding matrix
 * they fill: what test/peers/client-vs-asmx.test.ts runs against the genuine ASMX peers and
 * prints for the record.
 */
import type { Protocol, ServiceDescriptor } from '../../runtime/index.js';

export const SOAP: readonly Protocol[] = ['soap11', 'soap12'];
export const HTTP: readonly Protocol[] = ['http-get', 'http-post'];
export const ALL: readonly Protocol[] = [...SOAP, ...HTTP];

export interface Check<C> {
  readonly name: string;
  readonly bindings: readonly Protocol[];
  run(client: C, binding: Protocol): Promise<void>;
}

export function check<C>(
  name: string,
  bindings: readonly Protocol[],
  run: (client: C, binding: Protocol) => Promise<void>,
): Check<C> {
  return { name, bindings, run };
}

/** Per operation method, the bindings of the descriptor that carry it. */
export function offeredBindings(d: ServiceDescriptor): Map<string, Set<Protocol>> {
  const out = new Map<string, Set<Protocol>>();
  for (const binding of d.bindings) {
    for (const op of binding.operations) {
      const set = out.get(op.method) ?? new Set<Protocol>();
      set.add(binding.protocol);
      out.set(op.method, set);
    }
  }
  return out;
}

/**
 * Mistakes in a check table: an operation without checks on a binding that carries it, or a
 * check for a binding that does not carry its operation.
 */
export function tableProblems<C>(d: ServiceDescriptor, table: Readonly<Record<string, readonly Check<C>[]>>): string[] {
  const problems: string[] = [];
  for (const [method, offered] of offeredBindings(d)) {
    const checks = table[method] ?? [];
    for (const binding of offered)
      if (!checks.some((c) => c.bindings.includes(binding))) problems.push(`${method}: no check on ${binding}`);
    for (const c of checks)
      for (const binding of c.bindings)
        if (!offered.has(binding)) problems.push(`${method}/${c.name}: ${binding} does not carry it`);
  }
  return problems;
}

export type Cell = 'pass' | 'FAIL' | '—';

/** The matrix as a fixed-width table with a count line per binding. */
export function formatMatrix(title: string, rows: ReadonlyMap<string, ReadonlyMap<Protocol, Cell>>): string {
  const width = Math.max(9, ...[...rows.keys()].map((k) => k.length));
  const line = (first: string, cells: readonly string[]): string =>
    `${first.padEnd(width)}  ${cells.map((c) => c.padEnd(9)).join(' ')}`.trimEnd();
  const out = [title, line('operation', [...ALL])];
  for (const [method, cells] of rows)
    out.push(
      line(
        method,
        ALL.map((b) => cells.get(b) ?? '?'),
      ),
    );
  const count = (b: Protocol, cell: Cell): number => [...rows.values()].filter((cells) => cells.get(b) === cell).length;
  for (const cell of ['pass', 'FAIL', '—'] as const)
    out.push(
      line(
        cell === '—' ? 'not offered' : cell,
        ALL.map((b) => String(count(b, cell))),
      ),
    );
  return out.join('\n');
}
