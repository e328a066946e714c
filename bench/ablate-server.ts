/**
 * Where the generated server's SOAP time goes under load: *ablations*. Builds the section-1
 * server child (bench/children/server.ts) several times with esbuild, each build with one stage
 * of the SOAP path patched out (memoised: the same request bytes give that stage's previous
 * answer, so the stage costs nothing), runs each build in its own process pinned to CPU 1 and
 * drives them from this process, pinned to CPU 0, with autocannon in interleaved rounds.
 * Prints the server CPU µs per request (user and system) and the ratio to the bare server.
 *
 *   npx tsx bench/ablate-server.ts [--rounds 5] [--seconds 3] [--binding soap11] [--before REF] [--variants 0,1]
 *
 * --before REF adds the generated server of commit REF (a temporary worktree, lib/before.ts);
 * --variants keeps only the listed rows (0 is the bare server, which the others are judged by).
 * A diagnostic, not part of `npm run bench`: the patches replace exact source lines, and a
 * patch that no longer applies stops the run with its name (update it with the source).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import type { Plugin } from 'esbuild';
import type { Protocol } from '../runtime/index.js';
import { FIXED_INPUT, sendRequest } from './lib/payloads.js';
import { checkoutBefore } from './lib/before.js';
import { bundleFolder, bundleModule } from './lib/bundle.js';
import { repoRoot } from './lib/procs.js';
import { captureResponses } from './lib/servers.js';
import { median } from './lib/stats.js';

interface Patch {
  readonly file: string;
  /** Matched against the formatted source; `$1` in `replace` is the matched parameter list. */
  readonly find: RegExp;
  readonly replace: string;
}

const MEMO_DECODE: Patch = {
  file: 'runtime/soap/request-decoder.ts',
  find: /^ {2}decode\(([^)]*)\): SoapDecoded \{/m,
  replace: `  private memoBody: Buffer | undefined;
  private memoResult: SoapDecoded | undefined;
  decode($1): SoapDecoded {
    if (this.memoBody !== undefined && this.memoBody.equals(body)) return this.memoResult!;
    this.memoBody = Buffer.from(body);
    return (this.memoResult = (this.decodeOnce as (...a: unknown[]) => SoapDecoded).apply(this, [...arguments]));
  }
  decodeOnce($1): SoapDecoded {`,
};
const MEMO_ENCODE: Patch = {
  file: 'runtime/soap/response.ts',
  find: /^export function encodeSoapResponse\(([^)]*)\): Written \{/m,
  replace: `let memoResponse: Written | undefined;
export function encodeSoapResponse($1): Written {
  return (memoResponse ??= (encodeSoapResponseOnce as (...a: unknown[]) => Written)(...arguments));
}
function encodeSoapResponseOnce($1): Written {`,
};
const NO_SHAPE_DECODERS: Patch = {
  file: 'runtime/soap/request-decoder.ts',
  find: /if \(shapeDecoder != null && shapeDecoder\.endpoints === endpoints\) \{/,
  replace: 'if (false as boolean) {',
};

interface Variant {
  readonly name: string;
  readonly kind: 'bare' | 'generated';
  readonly patches: readonly Patch[];
  /** Another checkout to build from (`--before`). */
  readonly root?: string;
}

const ALL_VARIANTS: readonly Variant[] = [
  { name: 'bare node:http (the limit)', kind: 'bare', patches: [] },
  { name: 'generated, as it is', kind: 'generated', patches: [] },
  { name: 'generated, shape cache but no shape decoders', kind: 'generated', patches: [NO_SHAPE_DECODERS] },
  { name: 'generated, reading+decoding memoised', kind: 'generated', patches: [MEMO_DECODE] },
  { name: 'generated, reading+decoding+encoding memoised', kind: 'generated', patches: [MEMO_DECODE, MEMO_ENCODE] },
];

function patching(patches: readonly Patch[], root: string): Plugin {
  return {
    name: 'ablate',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        const mine = patches.filter((p) => args.path === join(root, p.file));
        if (mine.length === 0) return undefined;
        let source = readFileSync(args.path, 'utf8');
        for (const p of mine) {
          if (!p.find.test(source)) throw new Error(`ablation patch no longer applies to ${p.file}: ${p.find.source}`);
          source = source.replace(p.find, p.replace);
        }
        return { contents: source, loader: 'ts' };
      });
    },
  };
}

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1]! : fallback;
}

/** utime and stime of a process, in seconds. */
function cpu(pid: number): { user: number; system: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const tick = 100;
  return { user: Number(fields[11]) / tick, system: Number(fields[12]) / tick };
}

function pinnable(): boolean {
  try {
    execFileSync('taskset', ['-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const rounds = Number(option('rounds', '5'));
const seconds = Number(option('seconds', '3'));
const binding = option('binding', 'soap11') as Protocol;
const pinned = pinnable();
const beforeRef = process.argv.includes('--before') ? option('before', '') : undefined;
const beforeTree = beforeRef === undefined ? undefined : checkoutBefore(beforeRef);
const kept = option('variants', '')
  .split(',')
  .filter((v) => v !== '')
  .map(Number);
const VARIANTS: readonly Variant[] = [
  ...ALL_VARIANTS.filter((_v, i) => kept.length === 0 || i === 0 || kept.includes(i)),
  ...(beforeTree === undefined
    ? []
    : [
        {
          name: `generated at ${beforeTree.commit} (before)`,
          kind: 'generated' as const,
          patches: [],
          root: beforeTree.root,
        },
      ]),
];
const bundles = bundleFolder(repoRoot, 'ablate');
const children: ChildProcess[] = [];
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  bundles.remove();
  beforeTree?.remove();
});

async function start(index: number, responses: string): Promise<{ name: string; pid: number; url: string }> {
  const variant = VARIANTS[index]!;
  const root = variant.root ?? repoRoot;
  // One folder per variant: two variants of one checkout bundle the same entry differently.
  const outDir = join(bundles.dir, String(index));
  mkdirSync(outDir, { recursive: true });
  const outfile = await bundleModule(join(root, 'bench/children/server.ts'), {
    root,
    outDir,
    plugins: [patching(variant.patches, root)],
  });
  const args = [outfile, variant.kind, responses];
  const child = pinned
    ? spawn('taskset', ['-c', '1', process.execPath, ...args], {
        cwd: repoRoot,
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      })
    : spawn(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.push(child);
  const { url } = await new Promise<{ url: string }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { url: string }));
    child.once('exit', (code) => reject(new Error(`${variant.name}: exited (${code})`)));
  });
  return { name: variant.name, pid: child.pid!, url };
}

// The generated servers first: the bare one replays their answer (as in section 1).
const started = new Map<number, { name: string; pid: number; url: string }>();
for (let i = 1; i < VARIANTS.length; i++) started.set(i, await start(i, '{}'));
started.set(0, await start(0, JSON.stringify(await captureResponses(started.get(1)!.url))));
const servers = VARIANTS.map((_v, i) => started.get(i)!);

const request = sendRequest(binding, FIXED_INPUT);
const samples = new Map<string, { total: number[]; user: number[] }>();
const load = (url: string, duration: number) =>
  autocannon({
    url: url + request.path,
    connections: 32,
    duration,
    method: request.method,
    headers: { ...request.headers },
    ...(request.body === undefined ? {} : { body: request.body }),
  });
for (const s of servers) await load(s.url, 1); // warm-up
for (let round = 0; round < rounds; round++) {
  for (const s of servers) {
    const before = cpu(s.pid);
    const r = await load(s.url, seconds);
    const after = cpu(s.pid);
    if (r.non2xx + r.errors > 0) throw new Error(`${s.name}: ${r.non2xx + r.errors} failed requests`);
    const per = (x: number): number => (x * 1e6) / r['2xx'];
    const entry = samples.get(s.name) ?? { total: [], user: [] };
    entry.total.push(per(after.user + after.system - before.user - before.system));
    entry.user.push(per(after.user - before.user));
    samples.set(s.name, entry);
  }
}
const bare = median(samples.get(VARIANTS[0]!.name)!.total);
process.stdout.write(
  `\n${binding}, ${rounds} rounds x ${seconds} s, 32 connections, ${pinned ? 'servers pinned to CPU 1, load on CPU 0' : 'not pinned (no taskset)'}; server CPU per request (medians):\n\n`,
);
process.stdout.write('| server | µs CPU/request | of which user | bare / this |\n|---|---|---|---|\n');
for (const s of servers) {
  const e = samples.get(s.name)!;
  const total = median(e.total);
  process.stdout.write(
    `| ${s.name} | ${total.toFixed(1)} | ${median(e.user).toFixed(1)} | ${(bare / total).toFixed(2)} |\n`,
  );
}
process.exit(0);
