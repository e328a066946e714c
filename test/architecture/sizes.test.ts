/**
 * Small modules with one job: in the product code (bin, generator, runtime, conformance,
 * service, migrate) no module is over 400 lines and no function over 60, measured by
 * tools/sizes.ts with the TypeScript parser (`node --import tsx tools/sizes.ts` prints the tables).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { FUNCTION_LIMIT, MODULE_LIMIT, measure, measureFile } from '../../tools/sizes.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe('product code sizes', () => {
  const { modules, functions } = measure(ROOT);

  it('measures the product folders', () => {
    expect(modules.length).toBeGreaterThan(300);
    expect(functions.length).toBeGreaterThan(2000);
  });

  it(`has no module over ${MODULE_LIMIT} lines`, () => {
    expect(modules.filter((m) => m.lines > MODULE_LIMIT).map((m) => `${m.file}: ${m.lines} lines`)).toEqual([]);
  });

  it(`has no function over ${FUNCTION_LIMIT} lines`, () => {
    const long = functions.filter((f) => f.lines > FUNCTION_LIMIT);
    expect(long.map((f) => `${f.file}:${f.line} ${f.name}: ${f.lines} lines`)).toEqual([]);
  });
});

describe('the measurement', () => {
  const dir = mkdtempSync(join(tmpdir(), 'smskit-sizes-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('notices a long function, a long method and a long arrow, each by name', () => {
    const body = Array.from({ length: FUNCTION_LIMIT }, (_, i) => `  total += ${i};`).join('\n');
    const source = [
      `export function planted(): number {\n  let total = 0;\n${body}\n  return total;\n}`,
      `export class Planted {\n  method(): number {\n    let total = 0;\n${body}\n    return total;\n  }\n}`,
      `export const arrow = (): number => {\n  let total = 0;\n${body}\n  return total;\n};`,
    ].join('\n');
    mkdirSync(join(dir, 'runtime'), { recursive: true });
    const file = join(dir, 'runtime', 'planted.ts');
    writeFileSync(file, source);
    const { module, functions } = measureFile(dir, file);
    const long = functions.filter((f) => f.lines > FUNCTION_LIMIT).map((f) => f.name);
    expect(long).toEqual(['planted', 'method', 'arrow']);
    expect(module).toEqual({ file: join('runtime', 'planted.ts'), lines: source.split('\n').length });
  });
});
