/**
 * `smskit conformance --inputs <file>.yaml` through the shipped bundle: the YAML parser is a
 * lazily imported CommonJS package, which the bundle's code splitting once exposed with a default
 * export only ("parse is not a function"), while the same code under tsx worked.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'smskit-inputs-yaml-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('smskit conformance --inputs with YAML (shipped bundle)', () => {
  it('reads a YAML file and runs the built-in service with it', () => {
    writeFileSync(join(dir, 'inputs.yaml'), '# values for every operation\n"*":\n  input: {}\n');
    const result = runCli(['conformance', '--inputs', 'inputs.yaml'], { cwd: dir });
    expect(result.stderr).not.toMatch(/^smskit: /m);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^PASS \(--fail-on must\): \d+ cases, \d+ passed, 0 failed/m);
  });

  it('names what is wrong inside a YAML file, which it could only do after parsing it', () => {
    writeFileSync(join(dir, 'unknown.yaml'), 'Nope:\n  input: {}\n');
    const result = runCli(['conformance', '--inputs', 'unknown.yaml'], { cwd: dir });
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      'smskit: --inputs unknown.yaml: Nope: no such operation (operations: SMSSend, SMSSendToPort)\n',
    );
  });

  it('gives the parser’s own reason for YAML that does not parse', () => {
    writeFileSync(join(dir, 'broken.yaml'), 'a: [\n');
    const result = runCli(['conformance', '--inputs', 'broken.yaml'], { cwd: dir });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^smskit: --inputs broken\.yaml: not valid YAML: Flow sequence in block collection/);
  });
});
