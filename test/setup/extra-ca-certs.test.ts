/**
 * The run's processes start without NODE_EXTRA_CA_CERTS (Node parses its file at every start)
 * and npm's installs get it back (extra-ca-certs.ts).
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { extraCaCertsAsFound, SET_ASIDE, setAsideExtraCaCerts } from './extra-ca-certs.js';

describe('NODE_EXTRA_CA_CERTS during a test run', () => {
  it('is moved aside, then given back as it was; a machine without it gets nothing', () => {
    const env: NodeJS.ProcessEnv = { NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt', PATH: '/bin' };
    setAsideExtraCaCerts(env);
    expect(env).toEqual({ [SET_ASIDE]: '/etc/ssl/certs/ca-certificates.crt', PATH: '/bin' });
    expect(extraCaCertsAsFound(env)).toEqual({ NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt' });

    const without: NodeJS.ProcessEnv = { PATH: '/bin' };
    setAsideExtraCaCerts(without);
    expect(without).toEqual({ PATH: '/bin' });
    expect(extraCaCertsAsFound(without)).toEqual({});
  });

  it('is not in a test worker, nor in a process a test starts', () => {
    expect(process.env.NODE_EXTRA_CA_CERTS).toBeUndefined();
    const child = spawnSync(process.execPath, ['-p', 'process.env.NODE_EXTRA_CA_CERTS ?? "unset"'], {
      encoding: 'utf8',
    });
    expect(child.stdout.trim()).toBe('unset');
  });
});
