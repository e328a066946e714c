/**
 * Starting the servers under test and the load generator as child processes, and one request
 * through a server to capture (or check) its answer.
 */
import type { ChildProcess } from 'node:child_process';
import { request, type Dispatcher } from 'undici';
import type { LoadRequest, LoadResult } from '../children/load.js';
import { ask, forkChild, nextMessage } from './procs.js';
import { BINDINGS, FIXED_INPUT, sendRequest, type HttpRequestSpec } from './payloads.js';

/** `before`: the generated server of the `--before` commit (lib/before.ts). */
export type ServerKind = 'bare' | 'node-soap' | 'generated' | 'before';
export type FixedResponses = Record<string, { contentType: string; body: string }>;

export interface ChildServer {
  readonly kind: ServerKind;
  readonly url: string;
  readonly child: ChildProcess;
}

/** A server certificate and key (files) for the HTTPS servers. */
export interface TlsFiles {
  readonly certFile: string;
  readonly keyFile: string;
}

/**
 * A server of the SMS contract (children/server.ts); `module` picks another contract's servers;
 * `tls` serves HTTPS (children/server.ts only).
 */
export async function startServer(
  kind: ServerKind,
  responses?: FixedResponses,
  module = 'server.ts',
  tls?: TlsFiles,
  root?: string,
): Promise<ChildServer> {
  const profileName = module === 'server.ts' ? kind : `${module.replace(/-server\.ts$/, '')}-${kind}`;
  const child = await forkChild(
    module,
    [
      kind === 'before' ? 'generated' : kind,
      JSON.stringify(responses ?? {}),
      ...(tls === undefined ? [] : ['--tls-cert', tls.certFile, '--tls-key', tls.keyFile]),
    ],
    [...SERVER_V8_FLAGS, ...profileArgs(tls === undefined ? profileName : `https-${profileName}`)],
    root,
  );
  const { url } = await nextMessage<{ url: string }>(child, 30_000, `${kind} server start`);
  return { kind, url, child };
}

/**
 * Every server under test runs without V8's memory reducer. The rounds leave each server idle
 * while the others are measured; the reducer, seeing a server allocate little, runs a
 * memory-reducing mark-compact that shrinks its young generation (about 105 s in), and the
 * server then scavenges about four times as often for the rest of the run. It cost the generated
 * server about 15% from round 4 in every run, and in one run the bare server instead
 * (bench/README.md, "Why the early rounds read higher"). Without it every side keeps the young
 * generation its load grew, in every round.
 */
const SERVER_V8_FLAGS = ['--no-memory-reducer'];

/** BENCH_PROFILE=<dir> runs the servers with --cpu-prof (written when they exit). */
export function profileArgs(name: string): string[] {
  const dir = process.env.BENCH_PROFILE;
  return dir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${dir}/${name}`];
}

export interface LoadGenerator {
  run(spec: LoadRequest): Promise<LoadResult>;
  readonly child: ChildProcess;
}

export async function startLoadGenerator(): Promise<LoadGenerator> {
  const child = await forkChild('load.ts');
  return {
    child,
    run: async (spec) => {
      const result = await ask<LoadResult & { error?: string }>(
        child,
        spec,
        (spec.seconds + 30) * 1000,
        'load generator',
      );
      if (result.error !== undefined) throw new Error(`load generator: ${result.error}`);
      return result;
    },
  };
}

export async function exchange(
  url: string,
  spec: HttpRequestSpec,
  dispatcher?: Dispatcher,
): Promise<{ status: number; contentType: string; body: string }> {
  const res = await request(url + spec.path, {
    method: spec.method,
    headers: { ...spec.headers },
    ...(spec.body === undefined ? {} : { body: spec.body }),
    ...(dispatcher === undefined ? {} : { dispatcher }),
  });
  const body = await res.body.text();
  return { status: res.statusCode, contentType: String(res.headers['content-type'] ?? ''), body };
}

/** The generated server's answers to the fixed requests: the bare server replays these bytes. */
export async function captureResponses(url: string, dispatcher?: Dispatcher): Promise<FixedResponses> {
  const out: FixedResponses = {};
  for (const binding of BINDINGS) {
    const r = await exchange(url, sendRequest(binding, FIXED_INPUT), dispatcher);
    if (r.status !== 200) throw new Error(`generated server, ${binding}: HTTP ${r.status}: ${r.body.slice(0, 200)}`);
    out[binding] = { contentType: r.contentType, body: r.body };
  }
  return out;
}
