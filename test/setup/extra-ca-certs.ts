/**
 * Node reads and parses the file NODE_EXTRA_CA_CERTS names at every process start, whether or
 * not the process ever makes a TLS connection: with a system bundle of ~140 certificates that is
 * ~45 ms of CPU per process on the 2-core machine (`node -e 0`: 0.069 → 0.117 CPU-s), and some
 * machines set it for every process. A run of the suite starts about a thousand Node processes
 * (the CLI, servers, Vitest's workers), all of which talk to loopback servers with the tests' own
 * certificates. So the run sets the variable aside for them (vitest.config.ts) and gives it back
 * to `npm install` alone, which may reach the registry through a proxy that needs it
 * (test/helpers/consumer-project.ts).
 */

/** Where the run keeps the value while its processes go without it. */
export const SET_ASIDE = 'SMSKIT_TEST_NODE_EXTRA_CA_CERTS';

/** Moves NODE_EXTRA_CA_CERTS out of `env` (the processes started from it no longer read the file). */
export function setAsideExtraCaCerts(env: NodeJS.ProcessEnv = process.env): void {
  const value = env.NODE_EXTRA_CA_CERTS;
  if (value === undefined) return;
  delete env.NODE_EXTRA_CA_CERTS;
  env[SET_ASIDE] = value;
}

/** The variable as the run found it, for a process that may need it (an install from the registry). */
export function extraCaCertsAsFound(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const value = env[SET_ASIDE];
  return value === undefined ? {} : { NODE_EXTRA_CA_CERTS: value };
}
