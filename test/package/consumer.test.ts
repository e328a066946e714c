/**
 * The package as a user gets it. `npm pack` (which builds it), install the tarball into an
 * empty project, `npx smskit generate` a client there (from a running service's ?wsdl and from
 * the built-in contract), compile it with that project's `tsc` (strict, declarations checked
 * too) and with TypeScript 7's native one, run it with plain `node` against `smskit serve`, and
 * run `npx smskit conformance` from that folder. Nothing of the repository is on the way (but the
 * TypeScript 7 compiler, a tool): the project sees only the tarball.
 *
 * Offline-friendly: the install takes the tarball's dependencies from npm's cache (which
 * `npm ci` of this repo filled) with --prefer-offline; when npm needs the registry for something
 * the cache lacks and the registry is unreachable, the test skips with one line saying so.
 * Every install script runs, except
 * better-sqlite3's native compile (about a minute): its binary is copied from the repo's own
 * install of the same version, for the same Node; with another version it is rebuilt. The packed
 * and installed package is the one the doc-run suite uses too (test/helpers/shared-consumer.ts):
 * this project has its own package.json and sources, its node_modules linked to that install.
 *
 * The tests that run a command give it the command's own bound (180 s) rather than Vitest's
 * default 30 s, which a loaded machine's tsc run crossed.
 *
 * SMSKIT_CONSUMER_TARBALL=<file.tgz> tests that tarball instead of packing the working tree
 * (this is how the test was shown to fail on the package before it was compiled).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';
import { NPX, npmEnv, npmSkipReason, ok, type Run, run } from '../helpers/consumer-project.js';
import { sharedConsumer } from '../helpers/shared-consumer.js';

const PASSWORD = 'consumer test password';
/** A test that runs commands: as long as the longest of them may take (the `run` bound). */
const COMMAND_MS = 180_000;
const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    skipLibCheck: false,
    outDir: 'dist',
    rootDir: 'src',
    types: ['node'],
  },
  include: ['src'],
};

/** The user's program: the generated client with no URL (the WSDL's address), plus the library entry points. */
const APP = `import { createRequire } from 'node:module';
import { SoapFaultError } from 'smskit/runtime';
import { generate, parseWsdl } from 'smskit/generator';
import { runConformance } from 'smskit/conformance';
import { ServiceAPIClient } from './sms/service-api/index.js';

const client = new ServiceAPIClient({ binding: 'soap12' });
// @ts-expect-error only the WSDL's bindings are allowed
void (() => new ServiceAPIClient({ binding: 'soap13' }));
try {
  const { SMSSendResult } = await client.SMSSend({ keyword: 'ACME', emailAddress: 'you@example.com', password: process.env.SMSKIT_PASSWORD ?? '', smsto: '+14155550123', carrierCode: 'auto', smsmsg: 'Hello from a consumer' });
  console.log(\`sent \${SMSSendResult}\`);
} catch (error) {
  if (error instanceof SoapFaultError) console.log(\`fault \${error.message}\`);
  throw error;
} finally {
  await client.close();
}
const contract = createRequire(import.meta.url).resolve('smskit/wsdl/serviceapi.wsdl');
const files = generate(parseWsdl(contract), { toolVersion: 'build-script' });
console.log(\`generator: \${files.size} files; conformance: \${typeof runConformance}\`);
`;

function startServe(project: string, db: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(join(project, 'node_modules', '.bin', 'smskit'), ['serve', '--port', '0', '--db', db], {
    cwd: project,
    env: npmEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`smskit serve printed no URL in 30 s:\n${output}`));
    }, 30_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const match = /listening on (http:\/\/\S+\/serviceapi\.asmx)/.exec(output);
      if (match === null) return;
      clearTimeout(timer);
      resolve({ url: match[1]!, child });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`smskit serve exited (${code}) before listening:\n${output}`));
    });
  });
}

const SKIP = npmSkipReason();
if (SKIP !== undefined) console.warn(`package consumer: ${SKIP}`);

describe.skipIf(SKIP !== undefined)('the packed package in a new project', () => {
  let offline: string | undefined;
  let work: string;
  let project: string;
  let serve: { url: string; child: ChildProcess } | undefined;
  const npx = (args: readonly string[], env: NodeJS.ProcessEnv = {}): Run =>
    run(NPX, ['--no', 'smskit', ...args], project, 180_000, env);

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'smskit-consumer-'));
    project = join(work, 'project');
    const shared = await sharedConsumer('package consumer', join(work, 'consumer'));
    if ('skip' in shared) {
      offline = shared.skip;
      return;
    }
    mkdirSync(join(project, 'src'), { recursive: true });
    writeFileSync(
      join(project, 'package.json'),
      `${JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2)}\n`,
    );
    writeFileSync(join(project, 'tsconfig.json'), `${JSON.stringify(TSCONFIG, null, 2)}\n`);
    writeFileSync(join(project, 'src', 'app.ts'), APP);
    // The install (the tarball, the repo's compiler and Node types) is shared with the doc-run suite.
    symlinkSync(join(shared.template, 'node_modules'), join(project, 'node_modules'), 'dir');
    ok(
      npx(['account', 'add', '--db', 'sms.sqlite', '--email', 'you@example.com', '--keyword', 'ACME'], {
        SMSKIT_PASSWORD: PASSWORD,
      }),
      'smskit account add',
    );
    serve = await startServe(project, 'sms.sqlite');
  }, 600_000);

  afterAll(() => {
    serve?.child.kill('SIGTERM');
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  it('the tarball holds the compiled package and nothing of the repository besides', (ctx) => {
    if (offline !== undefined) ctx.skip(offline);
    // The installed folder is the tarball unpacked.
    const installed = join(project, 'node_modules', 'smskit');
    const files = readdirSync(installed, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(installed, join(entry.parentPath, entry.name)).split(sep).join('/'))
      .filter((file) => !file.startsWith('node_modules/'));
    for (const file of [
      'bin/smskit.js',
      'dist/cli/cli.mjs',
      'dist/runtime/index.js',
      'dist/runtime/index.d.ts',
      'dist/generator/index.d.ts',
      'dist/conformance/index.js',
      'wsdl/serviceapi.wsdl',
      'wsdl/statusapi.wsdl',
      'README.md',
    ]) {
      expect(files).toContain(file);
    }
    expect(
      files.filter((f) =>
        /^(test|bench|scripts|\.ci|generated|runtime|contract|generator|conformance|service)\//.test(f),
      ),
    ).toEqual([]);
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    // The SMS service is in the CLI bundle only: no entry point reaches a compiled copy of it.
    expect(files.filter((f) => f.startsWith('dist/service/'))).toEqual([]);
    const pkg = JSON.parse(readFileSync(join(project, 'node_modules', 'smskit', 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    expect(
      Object.keys(pkg.dependencies ?? {}).filter((name) =>
        ['soap', 'fast-xml-parser', 'ts-morph', 'xmlbuilder2', 'tsx', 'esbuild'].includes(name),
      ),
    ).toEqual([]);
  });

  it(
    "npx smskit generate writes a client from a running service's ?wsdl and, from any folder, from the built-in contract",
    (ctx) => {
      if (offline !== undefined) ctx.skip(offline);
      ok(npx(['generate', '--wsdl', `${serve!.url}?wsdl`, '--out', 'src/sms']), 'generate --wsdl <url>');
      expect(readFileSync(join(project, 'src', 'sms', 'service-api', 'client.ts'), 'utf8')).toContain(
        `from ${serve!.url}?wsdl`,
      );
      ok(npx(['generate', '--out', 'src/builtin']), 'generate (built-in contract)');
      expect(readFileSync(join(project, 'src', 'builtin', 'index.ts'), 'utf8')).toMatch(
        /^\/\/ Generated by smskit .* from smskit\/wsdl\/serviceapi\.wsdl, smskit\/wsdl\/statusapi\.wsdl\n/,
      );
      expect(ok(npx(['generate', '--out', 'src/builtin', '--check']), 'generate --check').stdout).toContain(
        'up to date',
      );
    },
    COMMAND_MS,
  );

  it(
    "the project compiles strictly with tsc, the package's declarations checked too",
    (ctx) => {
      if (offline !== undefined) ctx.skip(offline);
      ok(run(join(project, 'node_modules', '.bin', 'tsc'), ['-p', '.'], project), 'tsc');
      expect(existsSync(join(project, 'dist', 'app.js'))).toBe(true);
    },
    COMMAND_MS,
  );

  it(
    "the project compiles with TypeScript 7's native tsc as well (what `npm install typescript` gives today)",
    (ctx) => {
      if (offline !== undefined) ctx.skip(offline);
      const tsc7 = join(repoRoot, 'node_modules', 'typescript-7', 'bin', 'tsc');
      ok(run(process.execPath, [tsc7, '-p', '.', '--noEmit'], project), 'tsc (TypeScript 7)');
    },
    COMMAND_MS,
  );

  it(
    'plain node runs the compiled client against smskit serve at the address from the WSDL',
    (ctx) => {
      if (offline !== undefined) ctx.skip(offline);
      const result = ok(
        run(process.execPath, [join('dist', 'app.js')], project, 60_000, { SMSKIT_PASSWORD: PASSWORD }),
        'node dist/app.js',
      );
      expect(result.stdout).toMatch(/^sent SMS-\w+$/m);
      expect(result.stdout).toMatch(/^generator: 6 files; conformance: function$/m);
    },
    COMMAND_MS,
  );

  it(
    'npx smskit conformance passes from the project folder',
    (ctx) => {
      if (offline !== undefined) ctx.skip(offline);
      const result = ok(npx(['conformance', '--reporter', 'json']), 'smskit conformance');
      const report = JSON.parse(result.stdout) as { summary: { ok: boolean; failed: number; total: number } };
      expect(report.summary).toMatchObject({ ok: true, failed: 0 });
      expect(report.summary.total).toBeGreaterThan(50);
    },
    COMMAND_MS,
  );
});
