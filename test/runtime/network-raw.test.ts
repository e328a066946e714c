/**
 * The network options made ready for a caller that writes its own requests
 * (runtime/network/raw.ts): the proxy route (given, or from the environment with NO_PROXY), the
 * Authorization value, the secrets to redact, and the option named (never its value) when it is
 * malformed. Over a real network it is exercised by test/conformance/network.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { resolveRawNetwork } from '../../runtime/network/raw.js';

const TARGET = new URL('https://sms.example.com:8443/ServiceAPI.asmx');

describe('resolveRawNetwork', () => {
  it('takes a proxy URL as given: credentials out of the URL, into Proxy-Authorization and the secrets', () => {
    const net = resolveRawNetwork(TARGET, { proxy: 'http://ann:pr0xy-Secret@proxy.corp:3128' }, {});
    expect(net.proxy?.url).toBe('http://proxy.corp:3128/');
    expect(net.proxy?.authorization).toBe(`Basic ${Buffer.from('ann:pr0xy-Secret').toString('base64')}`);
    expect(net.secrets).toContain('pr0xy-Secret');
  });

  it('reads the environment for { fromEnv: true }: HTTPS_PROXY for an https target, unless NO_PROXY names the host', () => {
    const env = { HTTPS_PROXY: 'http://proxy.corp:3128' };
    expect(resolveRawNetwork(TARGET, { proxy: { fromEnv: true } }, env).proxy?.url).toBe('http://proxy.corp:3128/');
    for (const noProxy of ['example.com', '.example.com', 'sms.example.com:8443', '*'])
      expect(
        resolveRawNetwork(TARGET, { proxy: { fromEnv: true } }, { ...env, NO_PROXY: noProxy }).proxy,
      ).toBeUndefined();
    expect(
      resolveRawNetwork(TARGET, { proxy: { fromEnv: true } }, { ...env, NO_PROXY: 'sms.example.com:9000' }).proxy?.url,
    ).toBe('http://proxy.corp:3128/');
    expect(resolveRawNetwork(TARGET, { proxy: { fromEnv: true } }, { HTTP_PROXY: 'http://p:1' }).proxy?.url).toBe(
      'http://p:1/',
    );
    expect(resolveRawNetwork(TARGET, { proxy: { fromEnv: true } }, {}).proxy).toBeUndefined();
  });

  it('gives the Authorization value and lists every secret of the options', () => {
    const net = resolveRawNetwork(
      TARGET,
      {
        auth: { type: 'basic', username: 'ann', password: 'basic-Pa55' },
        wsse: { username: 'bob', password: 'wsse-Pa55' },
      },
      {},
    );
    expect(net.authorization).toBe(`Basic ${Buffer.from('ann:basic-Pa55').toString('base64')}`);
    expect(net.wsse?.username).toBe('bob');
    expect(net.secrets).toEqual(expect.arrayContaining(['basic-Pa55', 'wsse-Pa55']));
    expect(net.tls).toBeUndefined();
    expect(net.clientCertificate).toBe(false);
  });

  it('names a malformed option and never shows its secret', () => {
    expect(() =>
      resolveRawNetwork(TARGET, { auth: { type: 'basic', username: 'a:b', password: 'hidden-Pa55' } }, {}),
    ).toThrow(/options\.auth\.username/);
    expect(() => resolveRawNetwork(TARGET, { proxy: 'not a url' }, {})).toThrow(TypeError);
  });
});
