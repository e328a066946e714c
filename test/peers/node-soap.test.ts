/**
 * Interop with node-soap (the `soap` package): as a client of our server over SOAP 1.1 and
 * SOAP 1.2 (reading our ?wsdl), and as a server (on wsdl/serviceapi.wsdl) for our client.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as soap from 'soap';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient, SoapFaultError } from '../../runtime/index.js';
import { serviceApiDescriptor } from '../fixtures/runtime/serviceapi-descriptor.js';
import { WSDL_TEXT, startServer, type TestServer } from '../fixtures/runtime/harness.js';

const INPUT = {
  keyword: 'k',
  emailAddress: 'user@example.com',
  password: 'p',
  smsto: '+15551234567',
  carrierCode: 'ATT',
  smsmsg: 'Grüße 你好 📱 <&>"\'',
};

describe('node-soap client -> our server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('SOAP 1.1: both operations, reading ?wsdl', async () => {
    const client = await soap.createClientAsync(`${server.endpoint}?wsdl`);
    const [send] = await client.SMSSendAsync(INPUT);
    expect(JSON.parse(send.SMSSendResult)).toEqual(INPUT);
    const [toPort] = await client.SMSSendToPortAsync({ ...INPUT, port: '80' });
    expect(JSON.parse(toPort.SMSSendToPortResult)).toEqual({ ...INPUT, port: '80' });
    expect(server.seen.at(-1)).toMatch(/^POST text\/xml/);
  });

  it('SOAP 1.2: both operations on the ServiceAPISoap12 port', async () => {
    const client = await soap.createClientAsync(`${server.endpoint}?wsdl`, { forceSoap12Headers: true });
    const port = (
      client as unknown as Record<
        string,
        Record<
          string,
          Record<string, (args: object, cb: (err: unknown, result: Record<string, string>) => void) => void>
        >
      >
    ).ServiceAPI!.ServiceAPISoap12!;
    const call = (name: string, args: object) =>
      new Promise<Record<string, string>>((resolve, reject) =>
        port[name]!(args, (err, result) => (err ? reject(err) : resolve(result))),
      );
    expect(JSON.parse((await call('SMSSend', INPUT)).SMSSendResult!)).toEqual(INPUT);
    expect(JSON.parse((await call('SMSSendToPort', { ...INPUT, port: '1' })).SMSSendToPortResult!)).toEqual({
      ...INPUT,
      port: '1',
    });
    expect(server.seen.at(-1)).toMatch(
      /^POST application\/soap\+xml; charset=utf-8; action="http:\/\/smskit.dev\/serviceapi\/SMSSendToPort"$/,
    );
  });

  it('SOAP 1.1: a ServiceError reaches node-soap as a fault with our message', async () => {
    const client = await soap.createClientAsync(`${server.endpoint}?wsdl`);
    const err = (await client.SMSSendAsync({ ...INPUT, keyword: 'refuse' }).catch((e: unknown) => e)) as {
      root?: { Envelope?: { Body?: { Fault?: { faultcode?: string; faultstring?: string } } } };
    };
    expect(err.root?.Envelope?.Body?.Fault?.faultstring).toBe('Invalid credentials.');
    expect(err.root?.Envelope?.Body?.Fault?.faultcode).toBe('soap:Client');
  });
});

describe('our client -> node-soap server (SOAP 1.1)', () => {
  let httpServer: http.Server;
  let endpoint: string;
  beforeAll(async () => {
    httpServer = http.createServer();
    await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
    const echo = (result: string) => (args: Record<string, string>) => {
      if (args.keyword === 'refuse') throw { Fault: { faultcode: 'soap:Client', faultstring: 'Refused by node-soap' } };
      return { [result]: JSON.stringify(args) };
    };
    soap.listen(
      httpServer,
      '/serviceapi.asmx',
      {
        ServiceAPI: { ServiceAPISoap: { SMSSend: echo('SMSSendResult'), SMSSendToPort: echo('SMSSendToPortResult') } },
      },
      WSDL_TEXT,
    );
    endpoint = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/serviceapi.asmx`;
  });
  afterAll(async () => {
    httpServer.closeAllConnections();
    await new Promise<void>((resolve) => httpServer.close(() => resolve()));
  });

  it('both operations', async () => {
    const client = new ServiceClient(serviceApiDescriptor, { url: endpoint, binding: 'soap11' });
    try {
      const send = await client.call<typeof INPUT, { SMSSendResult: string }>('SMSSend', INPUT);
      expect(JSON.parse(send.SMSSendResult)).toEqual(INPUT);
      const toPort = await client.call<object, { SMSSendToPortResult: string }>('SMSSendToPort', {
        ...INPUT,
        port: '7',
      });
      expect(JSON.parse(toPort.SMSSendToPortResult)).toEqual({ ...INPUT, port: '7' });
    } finally {
      await client.close();
    }
  });

  it('a node-soap fault rejects with SoapFaultError', async () => {
    const client = new ServiceClient(serviceApiDescriptor, { url: endpoint, binding: 'soap11' });
    try {
      const err = (await client
        .call('SMSSend', { ...INPUT, keyword: 'refuse' })
        .catch((e: unknown) => e)) as SoapFaultError;
      expect(err).toBeInstanceOf(SoapFaultError);
      expect(err.code).toBe('Client');
      expect(err.message).toBe('Refused by node-soap');
    } finally {
      await client.close();
    }
  });
});
