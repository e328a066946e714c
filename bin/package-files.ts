/**
 * Files of the smskit package itself (its package.json, the built-in contract), found from this
 * module's own location rather than the working directory: the CLI runs from a clone, from
 * node_modules/smskit in a user's project, from the TypeScript sources (bin/) or from the bundle
 * (dist/cli/), and each sits at a different depth below the package root.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/** The package root: the nearest folder above this module that holds a package.json. */
export function packageRoot(): string {
  if (root !== undefined) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}: the smskit package is incomplete`);
    dir = parent;
  }
  root = dir;
  return root;
}

/** Absolute path of a file of the package, given relative to its root ('wsdl/serviceapi.wsdl'). */
export function packageFile(path: string): string {
  return join(packageRoot(), path);
}
