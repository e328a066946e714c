/**
 * Plain data (the descriptor) as a TypeScript object literal. Keys keep insertion order (the
 * descriptor is built in a fixed order), so the output is stable; keys are quoted only when
 * they are not identifiers. formatText then lays it out.
 */
import { propertyKey, quoteString } from '../../contract/naming.js';

export type LiteralValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | LiteralReference
  | readonly LiteralValue[]
  | { readonly [key: string]: LiteralValue };

/** A name printed as it is, in place of a value declared elsewhere in the same file. */
export class LiteralReference {
  constructor(readonly identifier: string) {}
}

const MAX_INLINE = 100;

export function printLiteral(value: LiteralValue, indent = ''): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return quoteString(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === undefined) return 'undefined';
  if (value instanceof LiteralReference) return value.identifier;
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (value.every((v) => typeof v !== 'object' || v === null))
      return `[${value.map((v) => printLiteral(v)).join(', ')}]`;
    return `[\n${value.map((v) => `${inner}${printLiteral(v, inner)},`).join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as { readonly [key: string]: LiteralValue }).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return '{}';
  // Small leaf objects (values, names, bodies) read better on one line. The shallow-size test
  // comes first so big subtrees are never printed twice.
  if (isSmall(value, 2)) {
    const oneLine = `{ ${entries.map(([k, v]) => `${propertyKey(k)}: ${printLiteral(v, inner)}`).join(', ')} }`;
    if (oneLine.length <= MAX_INLINE && !oneLine.includes('\n')) return oneLine;
  }
  return `{\n${entries.map(([k, v]) => `${inner}${propertyKey(k)}: ${printLiteral(v, inner)},`).join('\n')}\n${indent}}`;
}

function isSmall(value: LiteralValue, depth: number): boolean {
  if (typeof value !== 'object' || value === null || value instanceof LiteralReference) return true;
  const children = Array.isArray(value) ? value : Object.values(value);
  return depth > 0 && children.length <= 8 && children.every((child) => isSmall(child, depth - 1));
}
