import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

let work: string;
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'smskit-cli-generate-'));
});
afterEach(() => {
  rmSync(work, { recursive: true, force: true });
});

function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}

describe('smskit generate', () => {
  it('writes every file with a provenance header and then passes --check', () => {
    const out = join(work, 'out');
    const written = runCli(['generate', '--wsdl', 'wsdl/serviceapi.wsdl', '--out', out]);
    expect(written.stderr).toBe('');
    expect(written.status).toBe(0);
    const files = listFiles(out);
    expect(files.length).toBeGreaterThan(3);
    for (const file of files) {
      const text = readFileSync(join(out, file), 'utf8');
      expect(text).toContain('DO NOT EDIT');
      expect(text).toContain('wsdl/serviceapi.wsdl');
    }
    const check = runCli(['generate', '--wsdl', 'wsdl/serviceapi.wsdl', '--out', out, '--check']);
    expect(check.status).toBe(0);
    expect(check.stdout).toContain('up to date');
  });

  it('--check exits 1 with a readable diff naming the stale file, and writes nothing', () => {
    const out = join(work, 'out');
    expect(runCli(['generate', '--out', out]).status).toBe(0);
    const victim = listFiles(out).find((file) => file.endsWith('client.ts'));
    expect(victim).toBeDefined();
    const path = join(out, victim!);
    writeFileSync(path, readFileSync(path, 'utf8').replace(/Client/, 'Klient'));
    const edited = readFileSync(path, 'utf8');
    const check = runCli(['generate', '--out', out, '--check']);
    expect(check.status).toBe(1);
    expect(check.stdout).toContain(victim);
    expect(check.stdout).toMatch(/^-.*Klient/m);
    expect(check.stdout).toMatch(/^\+.*Client/m);
    expect(check.stderr).toMatch(/^smskit: .* is stale/);
    expect(readFileSync(path, 'utf8')).toBe(edited);
  });

  it('--check reports a file that is no longer generated', () => {
    const out = join(work, 'out');
    expect(runCli(['generate', '--out', out]).status).toBe(0);
    writeFileSync(join(out, 'leftover.ts'), '// DO NOT EDIT\n');
    const check = runCli(['generate', '--out', out, '--check']);
    expect(check.status).toBe(1);
    expect(check.stdout).toContain('leftover.ts');
  });

  it('refuses malformed XML with exit 2, one line naming file and line, and writes nothing', () => {
    const out = join(work, 'out');
    const result = runCli(['generate', '--wsdl', 'test/fixtures/cli/malformed.wsdl', '--out', out]);
    expect(result.status).toBe(2);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^smskit: test\/fixtures\/cli\/malformed\.wsdl:\d+: /);
    expect(result.stderr).not.toMatch(/\bat .*\(.*:\d+:\d+\)/);
    expect(existsSync(out)).toBe(false);
  });

  it('leaves out an operation whose type name has a typo: exit 0, a warning per omission naming file, line and name', () => {
    const out = join(work, 'out');
    const wsdl = 'test/fixtures/wsdl-partial/type-typo.wsdl';
    const result = runCli(['generate', '--wsdl', wsdl, '--out', out]);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^wrote \d+ files to /);
    const missing = '<s:element type="tns:Stpe">: type {urn:typo}Stpe is not defined';
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      `smskit: warning: ${wsdl}:14: element {urn:typo}Count is left out: ${missing}`,
      `smskit: warning: ${wsdl}:14: message {urn:typo}CountIn is left out: it uses element {urn:typo}Count, which is left out: ${missing}`,
      `smskit: warning: ${wsdl}:29: operation Count is left out of binding TypoSoap (soap11): ${missing}; no other binding carries it, so the generated code has no method for it`,
    ]);
  });

  it('leaves the previous output untouched when generation fails', () => {
    const out = join(work, 'out');
    expect(runCli(['generate', '--out', out]).status).toBe(0);
    const before = listFiles(out).map((file) => readFileSync(join(out, file), 'utf8'));
    const failed = runCli(['generate', '--wsdl', 'test/fixtures/cli/malformed.wsdl', '--out', out]);
    expect(failed.status).toBe(2);
    expect(listFiles(out).map((file) => readFileSync(join(out, file), 'utf8'))).toEqual(before);
    expect(readdirSync(work)).toEqual(['out']);
  });

  it('refuses to replace a folder holding files it did not write', () => {
    const out = join(work, 'mine');
    mkdirSync(out);
    writeFileSync(join(out, 'notes.txt'), 'hand-written');
    const result = runCli(['generate', '--out', out]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^smskit: refusing to replace .*notes\.txt was not written by smskit generate/);
    expect(readFileSync(join(out, 'notes.txt'), 'utf8')).toBe('hand-written');
  });

  it('rejects an unknown flag and a missing file with exit 2', () => {
    const unknown = runCli(['generate', '--wsld', 'x.wsdl']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/^smskit: .*wsld/);
    const missing = runCli(['generate', '--wsdl', join(work, 'nope.wsdl'), '--out', join(work, 'out')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/^smskit: .*nope\.wsdl/);
  });
});
