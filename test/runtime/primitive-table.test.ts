/**
 * The primitive table (runtime/primitives.ts) is the one list of simple types: every name in it
 * has a codec that round-trips its sample, the TypeScript type the generator emits for it, and
 * per-type data keyed by `PrimitiveName` that misses a name does not compile.
 */
import { describe, expect, it } from 'vitest';
import ts from 'typescript';
import { fileURLToPath } from 'node:url';
import { primitiveCodec } from '../../runtime/codec/index.js';
import { findPrimitiveCodec } from '../../runtime/codec/primitives.js';
import {
  isPrimitiveName,
  numericRange,
  PRIMITIVE_NAMES,
  PRIMITIVES,
  xsdBuiltin,
  type PrimitiveName,
} from '../../runtime/primitives.js';
import { tsTypeOfXsd } from '../../contract/plan/type-map.js';

// Checked by `tsc -p tsconfig.json` (which includes test/): a Record keyed by PrimitiveName that
// leaves out a name is an error. If the table's keys ever widened to `string`, this directive
// would be unused and tsc would fail on it.
// @ts-expect-error -- 'hexBinary' is missing
const _missingOne: Record<PrimitiveName, true> = Object.fromEntries(
  PRIMITIVE_NAMES.filter((n) => n !== 'hexBinary').map((n) => [n, true]),
) as { [K in Exclude<PrimitiveName, 'hexBinary'>]: true };
void _missingOne;

function matchesTs(value: unknown, tsType: string): boolean {
  if (tsType === 'Uint8Array') return value instanceof Uint8Array;
  return typeof value === tsType;
}

describe('the primitive table', () => {
  it.each(PRIMITIVE_NAMES)('%s: its sample decodes to its TS type and encodes back to the same text', (name) => {
    const facts = PRIMITIVES[name];
    const text = facts.sample ?? 'free text';
    const codec = primitiveCodec(name, name);
    const value = codec.decode(text, name);
    expect(matchesTs(value, facts.ts), `${name} decodes to ${typeof value}`).toBe(true);
    expect(codec.tsType).toBe(facts.ts);
    expect(codec.encode(value, name)).toBe(text);
  });

  it('gives the generator the same TS type for each XSD built-in, and none for the Microsoft names', () => {
    for (const name of PRIMITIVE_NAMES) {
      const planned = tsTypeOfXsd(name);
      if (PRIMITIVES[name].origin === 'xsd') expect(planned).toEqual({ xsd: name, ts: PRIMITIVES[name].ts });
      else expect(planned, `xs:${name} is not an XSD type`).toBeUndefined();
    }
  });

  it('gives each numeric primitive its bounds and a sample inside them, and no bounds to the others', () => {
    for (const name of PRIMITIVE_NAMES) {
      const range = numericRange(name);
      if (range === undefined) {
        expect(['integer', 'decimal', 'float']).not.toContain(PRIMITIVES[name].family);
        continue;
      }
      const sample = Number(PRIMITIVES[name].sample);
      expect(sample, name).toBeGreaterThanOrEqual(range.min);
      expect(sample, name).toBeLessThanOrEqual(range.max);
      expect(range.integral, name).toBe(Number.isInteger(sample) && PRIMITIVES[name].family === 'integer');
    }
    expect(numericRange('unsignedByte')).toEqual({ min: 0, max: 255, integral: true });
    expect(numericRange('negativeInteger')).toEqual({ min: -Infinity, max: -1, integral: true });
    expect(numericRange('double')).toEqual({ min: -Infinity, max: Infinity, integral: false });
  });

  it('narrows only its own names', () => {
    expect(isPrimitiveName('dateTime')).toBe(true);
    expect(isPrimitiveName('toString')).toBe(false);
    expect(isPrimitiveName('anyType')).toBe(false);
    expect(xsdBuiltin('guid')).toBeUndefined();
    expect(xsdBuiltin('int')).toBe('int');
    expect(findPrimitiveCodec('toString')).toBeUndefined();
  });

  /** The diagnostics tsc gives a module next to the table that declares `Record<PrimitiveName, number>` with these keys. */
  function compileRecord(keys: readonly string[]): string[] {
    const table = fileURLToPath(new URL('../../runtime/primitives.ts', import.meta.url));
    const probe = `${table.slice(0, -'primitives.ts'.length)}__probe__.ts`;
    const text =
      `import type { PrimitiveName } from './primitives.js';\n` +
      `export const complete: Record<PrimitiveName, number> = { ${keys.map((k) => `${k}: 1`).join(', ')} };\n`;
    const options: ts.CompilerOptions = {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      lib: ['lib.es2022.d.ts'],
      types: [],
      skipLibCheck: true,
    };
    const host = ts.createCompilerHost(options);
    const fileExists = host.fileExists.bind(host);
    const getSourceFile = host.getSourceFile.bind(host);
    host.fileExists = (file) => file === probe || fileExists(file);
    host.getSourceFile = (file, version) =>
      file === probe ? ts.createSourceFile(file, text, version) : getSourceFile(file, version);
    const program = ts.createProgram([probe], options, host);
    return ts
      .getPreEmitDiagnostics(program, program.getSourceFile(probe))
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  }

  it('refuses a per-type record that misses a name, at compile time', () => {
    expect(compileRecord(PRIMITIVE_NAMES)).toEqual([]);
    const missing = compileRecord(PRIMITIVE_NAMES.filter((n) => n !== 'gMonthDay'));
    expect(missing.join('\n')).toMatch(/Property 'gMonthDay' is missing/);
  });
});
