import { readFileSync } from 'node:fs';
import { packageFile } from './package-files.js';

/** The toolkit's version, read once from its own package.json (it goes into provenance headers). */
export function toolVersion(): string {
  const pkg = JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string };
  return pkg.version;
}
