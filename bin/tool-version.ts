import { readFileSync } from 'node:fs';

/** The toolkit's version, read once from its own package.json (it goes into provenance headers). */
export function toolVersion(): string {
  const url = new URL('../package.json', import.meta.url);
  const pkg = JSON.parse(readFileSync(url, 'utf8')) as { version: string };
  return pkg.version;
}
