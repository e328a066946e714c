/**
 * The service's own layers: the GSM codec (sms/) knows no other concern; the store knows records,
 * not accounts, the outbox report or delivery; accounts and the outbox know the store, not each
 * other, `send` or delivery; delivery (whose carrier table `send` reads) knows nothing of `send`; the delivery engine knows the store's interfaces, not the wire
 * handlers; a route (SMPP, e-mail) and the simulator know the route contract, not the engine, the
 * routes file or the store. Checked from the imports.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importsOf, sourceFiles } from '../architecture/source-tree.js';

const SERVICE = resolve(dirname(fileURLToPath(import.meta.url)), '../../service');

/** Folder under service/ → paths under service/ its code must not import (a prefix matches a folder). */
const FORBIDDEN: Readonly<Record<string, readonly string[]>> = {
  sms: ['accounts/', 'outbox/', 'send/', 'delivery/', 'store/', 'metrics/', 'app.ts', 'server.ts', 'handlers.ts'],
  store: ['delivery/', 'accounts/', 'send/', 'outbox/', 'metrics/', 'app.ts', 'server.ts', 'handlers.ts'],
  accounts: ['send/', 'outbox/', 'delivery/', 'metrics/', 'app.ts', 'server.ts', 'handlers.ts'],
  outbox: ['send/', 'accounts/', 'delivery/', 'metrics/', 'app.ts', 'server.ts', 'handlers.ts'],
  delivery: ['app.ts', 'server.ts', 'send/', 'handlers.ts', 'accounts/', 'outbox/'],
  'delivery/smpp': ['delivery/engine.ts', 'delivery/routes-file.ts', 'delivery/change-batcher.ts', 'store/'],
  'delivery/email': ['delivery/engine.ts', 'delivery/routes-file.ts', 'delivery/change-batcher.ts', 'store/'],
  'delivery/simulator': ['delivery/engine.ts', 'delivery/routes-file.ts', 'delivery/change-batcher.ts', 'store/'],
};

function violations(folder: string): string[] {
  const forbidden = FORBIDDEN[folder] ?? [];
  return sourceFiles(join(SERVICE, folder)).flatMap((file) =>
    importsOf(readFileSync(file, 'utf8'))
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => relative(SERVICE, resolve(dirname(file), specifier)).replace(/\.js$/, '.ts'))
      .filter((target) => forbidden.some((prefix) => target === prefix || target.startsWith(prefix)))
      .map((target) => `${relative(SERVICE, file)} imports ${target}`),
  );
}

describe('service layers', () => {
  it.each(Object.keys(FORBIDDEN))('service/%s/ keeps to its layer', (folder) => {
    expect(violations(folder)).toEqual([]);
  });

  it('would see a wrong-way import', () => {
    const text = "import type { Receipt } from '../delivery/route.js';";
    const specifier = importsOf(text)[0] ?? '';
    const target = relative(SERVICE, resolve(join(SERVICE, 'store'), specifier)).replace(/\.js$/, '.ts');
    expect(FORBIDDEN.store?.some((prefix) => target.startsWith(prefix))).toBe(true);
  });
});
