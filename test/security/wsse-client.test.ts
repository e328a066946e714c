/**
 * The client half of WS-Security UsernameToken: the digest against published vectors, the
 * `wsse:Security` block's shape (QNames, order, Type and EncodingType URIs, mustUnderstand per
 * SOAP version), where it goes in the request, a fresh nonce per request, refusal over HTTP
 * GET/POST, and round trips of the generated client against a server that verifies the token.
 */
import { randomBytes } from 'node:crypto';
import { passwordDigest as nodeSoapDigest } from 'soap';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceAPIClient, ServiceAPIDescriptor } from '../../generated/service-api/index.js';
import {
  buildSoapRequest,
  ServiceClient,
  SoapFaultError,
  soap11,
  soap12,
  type SoapVersion,
  type UsernameTokenOptions,
  type XmlElement,
} from '../../runtime/index.js';
import { passwordDigest } from '../../runtime/wsse/digest.js';
import { writeSecurityHeader } from '../../runtime/wsse/header.js';
import { readXml } from '../../runtime/xml/reader.js';
import { richDescriptor } from '../fixtures/runtime/rich-descriptor.js';
import {
  BASE64_BINARY,
  PASSWORD,
  PASSWORD_DIGEST,
  PASSWORD_TEXT,
  SEND_INPUT,
  startWsseServer,
  USER,
  VERSIONS,
  type WsseServer,
  WSSE_NS,
  WSU_NS,
} from './wsse-fixture.js';

const digest64 = (nonce: string, created: string, password: string) =>
  passwordDigest(Buffer.from(nonce, 'base64'), created, password).toString('base64');

describe('PasswordDigest = Base64(SHA-1(nonce + created + password))', () => {
  it.each([
    // ONVIF Application Programmer's Guide, section on WS-UsernameToken.
    ['LKqI6G/AikKCQrN0zqZFlg==', '2010-09-16T07:50:45Z', 'userpassword', 'tuOSpGlFlIXsozq4HFNeeGeFLEI='],
    // node-soap's own test vector (milliseconds in Created).
    ['2FW1CIo2ZUOJmSjVRcJZlQ==', '2019-02-12T12:34:12.110Z', 'vM3s1hKVMy6zBOn', 'wM9xjA92wCw+QcQI1urjZ6B8+LQ='],
  ])('nonce %s, created %s', (nonce, created, password, expected) => {
    expect(digest64(nonce, created, password)).toBe(expected);
  });

  it('agrees with node-soap for random nonces and non-ASCII passwords', () => {
    for (const password of ['', 'pässwörd', '密码 📱', PASSWORD]) {
      const nonce = randomBytes(16).toString('base64');
      const created = new Date().toISOString();
      expect(digest64(nonce, created, password)).toBe(nodeSoapDigest(nonce, created, password));
    }
  });
});

/** `<soap:Header>` blocks of a built request. */
function headerBlocks(body: string, version: SoapVersion): XmlElement[] {
  const root = readXml(Buffer.from(body)).root;
  const header = root.children.find((c): c is XmlElement => c.type === 'element' && c.local === 'Header');
  expect(header?.ns).toBe(version.envNs);
  return header!.children.filter((c): c is XmlElement => c.type === 'element');
}

const elements = (el: XmlElement) => el.children.filter((c): c is XmlElement => c.type === 'element');
const text = (el: XmlElement) => el.children.map((c) => (c.type === 'text' ? c.text : '')).join('');
const attr = (el: XmlElement, ns: string, local: string) =>
  el.attributes.find((a) => a.ns === ns && a.local === local)?.value;

describe.each(VERSIONS)('%s: the wsse:Security header block', (_name, version) => {
  const fixed = { nonce: Buffer.from('LKqI6G/AikKCQrN0zqZFlg==', 'base64'), created: '2010-09-16T07:50:45Z' };

  it('PasswordDigest: the exact block for the ONVIF vector', () => {
    const must = version === soap11 ? '1' : 'true';
    expect(writeSecurityHeader({ username: 'admin', password: 'userpassword' }, version, fixed)).toBe(
      `<wsse:Security soap:mustUnderstand="${must}" xmlns:wsse="${WSSE_NS}" xmlns:wsu="${WSU_NS}"><wsse:UsernameToken>` +
        '<wsse:Username>admin</wsse:Username>' +
        `<wsse:Password Type="${PASSWORD_DIGEST}">tuOSpGlFlIXsozq4HFNeeGeFLEI=</wsse:Password>` +
        `<wsse:Nonce EncodingType="${BASE64_BINARY}">LKqI6G/AikKCQrN0zqZFlg==</wsse:Nonce>` +
        '<wsu:Created>2010-09-16T07:50:45Z</wsu:Created></wsse:UsernameToken></wsse:Security>',
    );
  });

  it('in a request: first in the Header, names by namespace, children in profile order, a fresh nonce each time', () => {
    const client = new ServiceClient(richDescriptor, {
      url: 'http://127.0.0.1:1/rich.asmx',
      binding: version.protocol,
      wsse: { username: 'zoë <admin>', password: PASSWORD },
    });
    const build = () =>
      client.buildRequest('WhoAmI', {}, { soapHeaders: { auth: { User: 'u', Token: 't' } } }).body as string;
    const [security, auth] = headerBlocks(build(), version);
    expect(`{${security!.ns}}${security!.local}`).toBe(`{${WSSE_NS}}Security`);
    expect(attr(security!, version.envNs, 'mustUnderstand')).toBe(version === soap11 ? '1' : 'true');
    expect(auth!.local).toBe('AuthHeader');
    const [token, ...others] = elements(security!);
    expect(others).toEqual([]);
    expect(`{${token!.ns}}${token!.local}`).toBe(`{${WSSE_NS}}UsernameToken`);
    const parts = elements(token!);
    expect(parts.map((p) => `{${p.ns}}${p.local}`)).toEqual([
      `{${WSSE_NS}}Username`,
      `{${WSSE_NS}}Password`,
      `{${WSSE_NS}}Nonce`,
      `{${WSU_NS}}Created`,
    ]);
    const [username, password, nonce, created] = parts as [XmlElement, XmlElement, XmlElement, XmlElement];
    expect(text(username)).toBe('zoë <admin>');
    expect(attr(password, '', 'Type')).toBe(PASSWORD_DIGEST);
    expect(attr(nonce, '', 'EncodingType')).toBe(BASE64_BINARY);
    expect(Buffer.from(text(nonce), 'base64')).toHaveLength(16);
    expect(text(created)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(text(password)).toBe(digest64(text(nonce), text(created), PASSWORD));
    expect(build()).not.toContain(text(nonce));
    expect(build()).not.toContain(PASSWORD);
  });

  it('PasswordText: the password as written (escaped), with a nonce and Created too', () => {
    const client = new ServiceClient(ServiceAPIDescriptor, {
      url: 'http://127.0.0.1:1/serviceapi.asmx',
      binding: version.protocol,
      wsse: { username: USER, password: PASSWORD, passwordType: 'PasswordText' },
    });
    const [security] = headerBlocks(client.buildRequest('SMSSend', SEND_INPUT).body as string, version);
    const [, password, nonce, created] = elements(elements(security!)[0]!) as XmlElement[];
    expect(attr(password!, '', 'Type')).toBe(PASSWORD_TEXT);
    expect(text(password!)).toBe(PASSWORD);
    expect(nonce!.local).toBe('Nonce');
    expect(created!.local).toBe('Created');
  });

  it('mustUnderstand: false leaves the mark out', () => {
    const op = ServiceAPIDescriptor.bindings.find((b) => b.protocol === version.protocol)!.operations[0]!;
    const token: UsernameTokenOptions = { username: USER, password: PASSWORD, mustUnderstand: false };
    const request = buildSoapRequest(ServiceAPIDescriptor, version, '/', op, SEND_INPUT, undefined, {}, [], token);
    const [security] = headerBlocks(request.body as string, version);
    expect(security!.attributes).toEqual([]);
  });
});

describe('refusals before anything is sent, never showing the password', () => {
  it.each(['http-get', 'http-post'] as const)('wsse over %s', (binding) => {
    const make = () =>
      new ServiceAPIClient({
        binding,
        url: 'http://127.0.0.1:1/serviceapi.asmx',
        wsse: { username: USER, password: PASSWORD },
      });
    expect(make).toThrow(TypeError);
    expect(make).toThrow(/wsse/);
    expect(make).toThrow(new RegExp(binding));
    try {
      make();
    } catch (error) {
      expect(String(error)).not.toContain(PASSWORD);
    }
  });

  it.each([
    [{ username: '', password: PASSWORD }, /username/],
    [{ username: USER, password: PASSWORD, passwordType: 'Digest' }, /passwordType/],
    [{ username: USER, password: PASSWORD, token: PASSWORD }, /Unknown/],
  ])('bad wsse options %#', (wsse, message) => {
    const make = () =>
      new ServiceClient(ServiceAPIDescriptor, {
        binding: 'soap11',
        url: 'http://127.0.0.1:1/serviceapi.asmx',
        wsse: wsse as UsernameTokenOptions,
      });
    expect(make).toThrow(message);
    try {
      make();
    } catch (error) {
      expect(String(error)).not.toContain(PASSWORD);
    }
  });
});

describe.each(VERSIONS)('%s: the generated client against a server verifying the token', (_name, version) => {
  let server: WsseServer;
  beforeAll(async () => {
    server = await startWsseServer({ allowPasswordText: true });
  });
  afterAll(async () => {
    await server.close();
  });

  const call = async (wsse: UsernameTokenOptions) => {
    const client = new ServiceAPIClient({ binding: version.protocol, url: server.endpoint, wsse });
    try {
      return await client.SMSSend(SEND_INPUT);
    } finally {
      await client.close();
    }
  };

  it.each(['PasswordDigest', 'PasswordText'] as const)('%s: accepted, the handler sees the identity', async (type) => {
    const before = server.calls.length;
    expect(await call({ username: USER, password: PASSWORD, passwordType: type })).toEqual({
      SMSSendResult: `sent as ${USER}`,
    });
    expect(server.calls.slice(before)).toEqual([
      { operation: 'SMSSend', identity: { username: USER, passwordType: type } },
    ]);
  });

  it('a wrong password: SoapFaultError FailedAuthentication, no handler call', async () => {
    const before = server.calls.length;
    const error = await call({ username: USER, password: 'not it' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SoapFaultError);
    const fault = error as SoapFaultError;
    // SOAP 1.1: the WSS QName is the faultcode itself; SOAP 1.2: Sender with it as Subcode.
    expect([fault.code, fault.subcode]).toEqual(
      version === soap12 ? ['Sender', 'FailedAuthentication'] : ['FailedAuthentication', undefined],
    );
    expect(fault.message).toBe('The security token could not be authenticated or authorized.');
    expect(server.calls.length).toBe(before);
  });
});
