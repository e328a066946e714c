/**
 * undici, the HTTP client under every command that calls a service, parses responses with llhttp
 * compiled to WebAssembly, and V8's default tiering spends ~0.2 CPU-seconds compiling that
 * module in each process: a third of a `smskit send`. With Liftoff only (V8's baseline
 * WebAssembly compiler, no optimizing tier) the compile is nearly free. Measured on the 2-core
 * machine (2026-11-30, CPU-seconds per process, averages of 4-6): `send` 0.50 → 0.30,
 * `conformance` (built-in service) 1.14 → 0.74; a 10-second `fuzz` run made as many requests
 * (465-482 → 499) for 2.1 → 2.0.
 *
 * Not for `serve` and `record`: they run for days, and serve's callback sender posts thousands of
 * requests a second under load, where the optimized parser should earn its compile back (not measured:
 * they keep V8's default).
 */
import { setFlagsFromString } from 'node:v8';

const LONG_RUNNING_CLIENTS = new Set(['serve', 'record']);

/** The V8 flags for the command the user named (none named: `--help`, a typo). */
export function wasmFlagsFor(command: string | undefined): string[] {
  return command !== undefined && LONG_RUNNING_CLIENTS.has(command) ? [] : ['--liftoff-only'];
}

/** Before the command runs: V8 reads the flag when undici first compiles llhttp, not before. */
export function chooseWasmCompiler(command: string | undefined): void {
  for (const flag of wasmFlagsFor(command)) setFlagsFromString(flag);
}
