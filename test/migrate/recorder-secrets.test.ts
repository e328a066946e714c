/**
 * What the recorder keeps out of a recording beyond the ordinary SOAP case: the secret names of a
 * WSDL served compressed, and bodies that are neither XML nor form fields.
 */
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import type { LoadedRecording } from '../../migrate/index.js';
import { handUpstreams, recording } from './hand-upstream.js';

const { upstream, recorderFor } = handUpstreams('smskit-recorder-secrets-');

const storedRequest = (rec: LoadedRecording, i: number): string =>
  Buffer.from(rec.exchanges[i]!.request.body, 'base64').toString('utf8');

/** A WSDL declaring a secret field (`SessionToken`), which recording.json must list. */
const WSDL = `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <types><xs:schema><xs:element name="Login"><xs:complexType><xs:sequence>
    <xs:element name="user" type="xs:string"/><xs:element name="SessionToken" type="xs:string"/>
  </xs:sequence></xs:complexType></xs:element></xs:schema></types>
</definitions>`;

describe('the secret names of a WSDL served compressed', () => {
  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ])('are learned from a %s WSDL at start, before any client asks for it', async (coding, compress) => {
    const origin = await upstream((req, res) => {
      if (req.url === '/svc.asmx?wsdl') {
        res.writeHead(200, { 'content-type': 'text/xml', 'content-encoding': coding });
        res.end(compress(Buffer.from(WSDL)));
        return;
      }
      req.resume();
      res.end('<ok/>');
    });
    const { recorder, dir } = await recorderFor(`${origin}/svc.asmx`);
    expect(recorder.secretFields()).toContain('SessionToken');
    const body = '<Login><user>ann</user><SessionToken>open-sesame</SessionToken></Login>';
    await (
      await request(`${recorder.url}/svc.asmx`, { method: 'POST', headers: { 'content-type': 'text/xml' }, body })
    ).body.text();
    const rec = await recording(recorder, dir, 1);
    expect(rec.meta.secretFields).toContain('SessionToken');
    expect(storedRequest(rec, 0)).toBe('<Login><user>ann</user><SessionToken>***</SessionToken></Login>');
  });

  it('says so when the WSDL cannot be decoded, rather than learning nothing in silence', async () => {
    const origin = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/xml', 'content-encoding': 'gzip' });
      res.end('not gzip at all');
    });
    const warnings: string[] = [];
    const { recorder } = await recorderFor(`${origin}/svc.asmx`, warnings);
    await recorder.close();
    expect(warnings).toEqual([
      "record: could not read the upstream's WSDL (/svc.asmx?wsdl): its Content-Encoding could not be decoded; secret names come from the built-in rule alone",
    ]);
  });
});

describe('a WSDL the recorder could not read, said', () => {
  it('at start: a status other than 404 hides a WSDL; 404 is a service without one, quietly', async () => {
    for (const [status, said] of [
      [
        403,
        [
          "record: could not read the upstream's WSDL (/svc.asmx?wsdl): the upstream answered 403; secret names come from the built-in rule alone",
        ],
      ],
      [404, []],
    ] as const) {
      const origin = await upstream((req, res) => {
        req.resume();
        res.writeHead(status);
        res.end();
      });
      const warnings: string[] = [];
      const { recorder } = await recorderFor(`${origin}/svc.asmx`, warnings);
      await recorder.close();
      expect(warnings).toEqual(said);
    }
  });

  it('when a client asks for it and its Content-Encoding cannot be decoded', async () => {
    let asked = 0;
    const origin = await upstream((req, res) => {
      req.resume();
      // The recorder's own read at start gets a plain 404; the client's ask, an undecodable body.
      if (asked++ === 0) {
        res.writeHead(404);
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/xml', 'content-encoding': 'gzip' });
      res.end('not gzip at all');
    });
    const warnings: string[] = [];
    const { recorder } = await recorderFor(`${origin}/svc.asmx`, warnings);
    await (await request(`${recorder.url}/svc.asmx?wsdl`)).body.text();
    await recorder.close();
    expect(warnings).toEqual([
      "record: the upstream's WSDL (/svc.asmx?wsdl): its Content-Encoding could not be decoded; no secret names learned from it",
    ]);
  });
});

describe('bodies that are neither XML nor form fields, through the recorder', () => {
  it('stores JSON with its secret members replaced, and keeps none of free text that names a secret', async () => {
    const origin = await upstream((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('your new password is hunter3');
    });
    const { recorder, dir } = await recorderFor(origin);
    const body = '{"user":"ann","login":{"password":"hunter2"}}';
    const answer = await request(`${recorder.url}/api`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(await answer.body.text()).toBe('your new password is hunter3');
    const rec = await recording(recorder, dir, 1);
    expect(storedRequest(rec, 0)).toBe('{"user":"ann","login":{"password":"***"}}');
    const stored = Buffer.from(rec.exchanges[0]!.response!.body, 'base64').toString();
    expect(stored).not.toContain('hunter3');
    expect(stored).toMatch(/^\*\*\* body not stored: .* \(28 bytes, hmac-sha256 [0-9a-f]{64}\) \*\*\*$/);
    expect(rec.exchanges[0]!.secrets).toEqual(['member password', 'answer body (not XML, JSON or form fields)']);
  });
});
