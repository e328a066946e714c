/**
 * Property-based testing of a SOAP service from its WSDL: inputs generated from the contract
 * (generate/), valid and mutated (mutate/), sent as the runtime encodes them, judged by the
 * conformance checks and, with a reference server, by replay's answer outline; each failure
 * shrunk by fast-check and reported with the seed and path that replay it (run/, report/).
 * docs/fuzz.md walks through it.
 */
export { runFuzz } from './run/run.js';
export type { FuzzOptions } from './options.js';
export { FuzzError, type FuzzErrorCode } from './errors.js';
export type { FuzzMode } from './properties.js';
export type * from './types.js';
export { readFuzzBaseline, writeFuzzBaseline } from './baseline.js';
export { FUZZ_REPORTERS, renderFuzzReport, summaryLine, verdict } from './report/index.js';
