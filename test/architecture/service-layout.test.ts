/**
 * service/ by concern: the root keeps only the app and its public index (at most
 * ROOT_FILE_LIMIT modules: app, server, handlers, errors, index…); every other module sits in
 * the folder of its concern (sms/, send/, accounts/, outbox/, delivery/, callbacks/, store/, metrics/). The
 * GSM 03.38 alphabet is spelled in one module, and an exported name means one thing: no two
 * modules of the service export the same name, except the two store backends, which implement
 * one interface side by side. Each rule is also run on a planted tree to show it can fail.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const SERVICE = resolve(dirname(fileURLToPath(import.meta.url)), '../../service');

const ROOT_FILE_LIMIT = 8;
const CONCERNS = ['accounts', 'callbacks', 'delivery', 'metrics', 'outbox', 'send', 'sms', 'store'];
/** The one module that holds the alphabet tables. */
const ALPHABET_OWNER = 'sms/gsm-alphabet.ts';
/** A run of the default alphabet's Greek capitals: any copy of the table contains it. */
const ALPHABET_MARK = 'ΦΓΛΩΠΨΣΘΞ';
/** Folders whose modules implement one interface in parallel, so they share exported names. */
const PARALLEL = [['store/sqlite/', 'store/postgres/']];
const EXPORTED = /^export (?:async )?(?:function|class|interface|type|const|enum|abstract class) ([A-Za-z0-9_$]+)/gm;

function modules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return modules(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function rootFiles(service: string): string[] {
  return readdirSync(service, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => entry.name)
    .sort();
}

function alphabetCopies(service: string): string[] {
  return modules(service)
    .map((file) => relative(service, file))
    .filter((file) => file !== ALPHABET_OWNER && readFileSync(join(service, file), 'utf8').includes(ALPHABET_MARK));
}

function parallel(files: readonly string[]): boolean {
  return PARALLEL.some((group) => files.every((file) => group.some((folder) => file.startsWith(folder))));
}

/** `name: a.ts, b.ts` for each exported name two modules share (outside the parallel backends). */
function sharedNames(service: string): string[] {
  const owners = new Map<string, string[]>();
  for (const file of modules(service)) {
    for (const match of readFileSync(file, 'utf8').matchAll(EXPORTED)) {
      const name = match[1] as string;
      owners.set(name, [...(owners.get(name) ?? []), relative(service, file)]);
    }
  }
  return [...owners]
    .filter(([, files]) => new Set(files).size > 1 && !parallel(files))
    .map(([name, files]) => `${name}: ${[...files].sort().join(', ')}`);
}

describe('service/ layout', () => {
  it(`keeps at most ${ROOT_FILE_LIMIT} modules at its root`, () => {
    const files = rootFiles(SERVICE);
    expect(files.length, files.join(', ')).toBeLessThanOrEqual(ROOT_FILE_LIMIT);
    expect(files).toContain('index.ts');
    expect(files).toContain('app.ts');
  });

  it.each(CONCERNS)('has the %s/ folder', (folder) => {
    expect(modules(join(SERVICE, folder)).length).toBeGreaterThan(0);
  });

  it(`spells the GSM alphabet only in ${ALPHABET_OWNER}`, () => {
    expect(readFileSync(join(SERVICE, ALPHABET_OWNER), 'utf8')).toContain(ALPHABET_MARK);
    expect(alphabetCopies(SERVICE)).toEqual([]);
  });

  it('gives each exported name to one module', () => {
    expect(sharedNames(SERVICE)).toEqual([]);
  });
});

describe('the layout checks', () => {
  const planted = mkdtempSync(join(tmpdir(), 'smskit-service-layout-'));
  afterAll(() => rmSync(planted, { recursive: true, force: true }));
  const plant = (path: string, text: string): void => {
    mkdirSync(dirname(join(planted, path)), { recursive: true });
    writeFileSync(join(planted, path), text);
  };

  it('would see a crowded root, a second alphabet and a name that means two things', () => {
    for (let i = 0; i <= ROOT_FILE_LIMIT; i++) plant(`flat-${i}.ts`, '/** A module. */\n');
    plant('sms/gsm-alphabet.ts', `export const DEFAULT_ALPHABET = '${ALPHABET_MARK}';\n`);
    plant('delivery/smpp/gsm7.ts', `const CODES = '${ALPHABET_MARK}';\nexport function gsmSeptets(): void {}\n`);
    plant('gsm.ts', 'export function gsmSeptets(): void {}\n');
    plant('store/sqlite/errors.ts', 'export function toStorageError(): void {}\n');
    plant('store/postgres/errors.ts', 'export function toStorageError(): void {}\n');
    expect(rootFiles(planted).length).toBeGreaterThan(ROOT_FILE_LIMIT);
    expect(alphabetCopies(planted)).toEqual(['delivery/smpp/gsm7.ts']);
    expect(sharedNames(planted)).toEqual(['gsmSeptets: delivery/smpp/gsm7.ts, gsm.ts']);
  });
});
