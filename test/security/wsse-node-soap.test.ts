/**
 * smskit's client with a UsernameToken against node-soap's server (the `soap` package) serving
 * wsdl/serviceapi.wsdl with `server.authenticate`: node-soap parses the `wsse:Security` header
 * and hands it to that hook, which checks the token with node-soap's own `passwordDigest`. One
 * node-soap server per SOAP version (node-soap answers in 1.2 only with forceSoap12Headers).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as soap from 'soap';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceAPIClient } from '../../generated/service-api/index.js';
import { SoapFaultError, type UsernameTokenOptions } from '../../runtime/index.js';
import { PASSWORD, PASSWORD_DIGEST, PASSWORD_TEXT, SEND_INPUT, USER, WSDL_TEXT } from './wsse-fixture.js';

/** The `wsse:Security` header as node-soap's parser gives it to `authenticate`. */
interface ParsedSecurity {
  UsernameToken?: {
    Username?: string;
    Password?: { attributes?: { Type?: string }; $value?: string };
    Nonce?: { $value?: string };
    Created?: string;
  };
}

/** What a node-soap user writes to accept UsernameTokens (Text or Digest) for one account. */
function checkToken(security: ParsedSecurity | undefined): boolean {
  const token = security?.UsernameToken;
  const password = token?.Password;
  if (token?.Username !== USER || password?.$value === undefined) return false;
  if (password.attributes?.Type === PASSWORD_TEXT) return password.$value === PASSWORD;
  if (password.attributes?.Type !== PASSWORD_DIGEST || token.Nonce?.$value === undefined) return false;
  return password.$value === soap.passwordDigest(token.Nonce.$value, token.Created ?? '', PASSWORD);
}

interface NodeSoapPeer {
  readonly url: string;
  /** Operations node-soap ran (after authenticate said yes). */
  readonly handled: string[];
  /** How many tokens authenticate saw, and how many it accepted. */
  readonly checks: { seen: number; accepted: number };
  close(): Promise<void>;
}

async function startNodeSoap(soap12: boolean): Promise<NodeSoapPeer> {
  const httpServer = http.createServer();
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const handled: string[] = [];
  const checks = { seen: 0, accepted: 0 };
  const op = (name: string) => () => {
    handled.push(name);
    return { [`${name}Result`]: `node-soap ran ${name}` };
  };
  const port = { SMSSend: op('SMSSend'), SMSSendToPort: op('SMSSendToPort') };
  const server = soap.listen(httpServer, {
    path: '/serviceapi.asmx',
    services: { ServiceAPI: { ServiceAPISoap: port, ServiceAPISoap12: port } },
    xml: WSDL_TEXT,
    ...(soap12 ? { forceSoap12Headers: true } : {}),
  });
  server.authenticate = (security: unknown) => {
    checks.seen++;
    const ok = checkToken(security as ParsedSecurity | undefined);
    if (ok) checks.accepted++;
    return ok;
  };
  return {
    url: `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/serviceapi.asmx`,
    handled,
    checks,
    close: async () => {
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}

describe.each([
  ['soap11', false],
  ['soap12', true],
] as const)('%s: smskit client -> node-soap server with authenticate', (binding, soap12) => {
  let peer: NodeSoapPeer;
  beforeAll(async () => {
    peer = await startNodeSoap(soap12);
  });
  afterAll(async () => {
    await peer.close();
  });

  const call = async (wsse: UsernameTokenOptions) => {
    const client = new ServiceAPIClient({ binding, url: peer.url, wsse });
    try {
      return await client.SMSSend(SEND_INPUT);
    } finally {
      await client.close();
    }
  };

  it.each(['PasswordDigest', 'PasswordText'] as const)('%s with the right password: accepted', async (type) => {
    const before = peer.handled.length;
    expect(await call({ username: USER, password: PASSWORD, passwordType: type })).toEqual({
      SMSSendResult: 'node-soap ran SMSSend',
    });
    expect(peer.handled.length).toBe(before + 1);
  });

  it.each(['PasswordDigest', 'PasswordText'] as const)('%s with a wrong password: refused', async (type) => {
    const before = { ...peer.checks, handled: peer.handled.length };
    const error = await call({ username: USER, password: 'wrong', passwordType: type }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SoapFaultError);
    // node-soap answers 401 with its SOAP 1.2 fault shape (Code/Reason) in both versions, so
    // a SOAP 1.1 reader finds no faultstring; SOAP 1.2 carries its reason.
    expect((error as SoapFaultError).httpStatus).toBe(401);
    if (soap12) expect((error as SoapFaultError).message).toBe('Invalid username or password');
    expect(peer.checks.seen).toBe(before.seen + 1);
    expect(peer.checks.accepted).toBe(before.accepted);
    expect(peer.handled.length).toBe(before.handled);
  });
});
