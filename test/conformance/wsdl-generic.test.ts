/**
 * The conformance runner is WSDL-generic: nothing under conformance/ knows the SMS contract. Its
 * default WSDL, its input shorthands (`--to` for `smsto`, …) and the embedded service live in
 * bin/ (bin/conformance-defaults.ts) and reach the runner as data. Checked by name: any of the
 * SMS contract's names in a file under conformance/ (code or comment) fails this test.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CONFORMANCE = join(ROOT, 'conformance');

/** The SMS contract's operations, parameters, endpoint and WSDL file, and the word itself. */
const SMS_NAMES = /smsto|smsmsg|SMSSend|serviceapi|carrier|keyword|\bSMS\b/gi;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return files(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** `file:line: name` for every SMS name in `text`. */
function smsNamesIn(file: string, text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, index) => [...line.matchAll(SMS_NAMES)].map((m) => `${file}:${index + 1}: ${m[0]}`));
}

describe('conformance/ is WSDL-generic', () => {
  it('names nothing of the SMS contract', () => {
    const all = files(CONFORMANCE);
    expect(all.length).toBeGreaterThan(40);
    const found = all.flatMap((file) => smsNamesIn(relative(ROOT, file), readFileSync(file, 'utf8')));
    expect(found).toEqual([]);
  });

  it('would see a planted SMS name, in code or in a comment', () => {
    const planted = "const key = 'smsto'; // the recipient\n/** Sends SMSSend over serviceapi.asmx. */";
    expect(smsNamesIn('conformance/catalogue/inputs.ts', planted)).toEqual([
      'conformance/catalogue/inputs.ts:1: smsto',
      'conformance/catalogue/inputs.ts:2: SMSSend',
      'conformance/catalogue/inputs.ts:2: serviceapi',
    ]);
    expect(smsNamesIn('x.ts', 'carrierCode, --keyword, an SMS')).toHaveLength(3);
    expect(smsNamesIn('x.ts', 'the smskit toolkit, smsKit')).toEqual([]);
  });
});
