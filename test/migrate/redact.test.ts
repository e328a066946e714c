/** Redaction by rule in recordings: the WSDL's secret names, HTTP authentication, query and form fields. */
import { describe, expect, it } from 'vitest';
import { Redactor, secretFieldsOfWsdl } from '../../migrate/redact.js';
import { makeRedactor } from '../../report/redact.js';
import { asmxWsdl } from '../helpers/smskit-peers.js';

describe('secret fields of a WSDL', () => {
  it('finds the password of the SMS contract and the Token of the rich service header', () => {
    expect(secretFieldsOfWsdl(asmxWsdl('echo'))).toEqual(['password']);
    expect(secretFieldsOfWsdl(asmxWsdl('rich'))).toContain('Token');
  });
});

describe('Redactor', () => {
  const redactor = new Redactor(['PinCode']);
  it('replaces secret element text with any prefix, and HTTP authentication', () => {
    const body = Buffer.from(
      '<s:Envelope xmlns:s="x"><s:Body><Send><password>hunter2</password><m:PinCode xmlns:m="y">1234</m:PinCode><msg>hi</msg></Send></s:Body></s:Envelope>',
    );
    const out = redactor.message(
      [
        ['Authorization', 'Basic dTpw'],
        ['Content-Type', 'text/xml'],
      ],
      body,
    );
    const text = out.body.toString();
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('1234');
    expect(text).toContain('<password>***</password>');
    expect(text).toContain('<m:PinCode xmlns:m="y">***</m:PinCode>');
    expect(text).toContain('<msg>hi</msg>');
    expect(out.headers).toEqual([
      ['Authorization', '***'],
      ['Content-Type', 'text/xml'],
    ]);
    expect(out.redacted).toEqual(['header Authorization', 'element password', 'element PinCode']);
  });
  it('replaces query parameters and form fields named like a secret', () => {
    const out = redactor.message(
      [['Content-Type', 'application/x-www-form-urlencoded']],
      Buffer.from('user=a&password=hunter2&apiKey=k1'),
      '/svc.asmx/Send?password=p%40ss&x=1',
    );
    expect(out.body.toString()).toBe('user=a&password=***&apiKey=***');
    expect(out.target).toBe('/svc.asmx/Send?password=***&x=1');
  });
  it('leaves a message without secrets byte for byte', () => {
    const body = Buffer.from([0x3c, 0x61, 0x3e, 0xff, 0x3c, 0x2f, 0x61, 0x3e]);
    const out = redactor.message([['Content-Type', 'text/xml']], body);
    expect(out.body).toBe(body);
    expect(out.redacted).toEqual([]);
  });
});

describe('Redactor: secrets the element pattern missed', () => {
  const redactor = new Redactor([]);
  const xml = (inner: string): Buffer =>
    Buffer.from(`<s:Envelope xmlns:s="x"><s:Body><Send>${inner}<msg>hi</msg></Send></s:Body></s:Envelope>`);
  it('replaces a CDATA section (and anything else) inside a secret element', () => {
    const out = redactor.message([['Content-Type', 'text/xml']], xml('<password><![CDATA[hunter2<x]]></password>'));
    expect(out.body.toString()).not.toContain('hunter2');
    expect(out.body.toString()).toContain('<password>***</password><msg>hi</msg>');
    expect(out.redacted).toEqual(['element password']);
  });
  it('replaces the values of attributes named like a secret', () => {
    const out = redactor.message(
      [['Content-Type', 'text/xml']],
      xml(`<Auth user="u" password="hunter2" apiKey='k-1'/>`),
    );
    const text = out.body.toString();
    expect(text).toContain(`<Auth user="u" password="***" apiKey='***'/>`);
    expect(out.redacted).toEqual(['attribute password', 'attribute apiKey']);
  });
  it('reads a UTF-16 body in its own encoding and writes it back so', () => {
    const source = `<?xml version="1.0" encoding="utf-16"?><Send><password>hunter2</password></Send>`;
    for (const [charset, bytes] of [
      ['utf-16', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(source, 'utf16le')])],
      ['utf-16le', Buffer.from(source, 'utf16le')],
      ['utf-16', Buffer.from(source, 'utf16le').swap16()],
    ] as const) {
      const out = redactor.message([['Content-Type', `text/xml; charset=${charset}`]], bytes);
      const decoded = new TextDecoder(bytes[0] === 0 ? 'utf-16be' : 'utf-16le').decode(out.body);
      expect(decoded).toContain('<password>***</password>');
      expect(decoded).not.toContain('hunter2');
      expect(out.redacted).toEqual(['element password']);
    }
  });
  it('replaces a UTF-16 body that is not UTF-16 whole', () => {
    const bytes = Buffer.from([0xff, 0xfe, 0x3c, 0x00, 0x00, 0xd8, 0x3c]);
    const out = redactor.message([['Content-Type', 'text/xml; charset=utf-16']], bytes);
    expect(out.body.toString()).toContain('not stored');
    expect(out.redacted).toEqual(['body (undecodable)']);
  });
  it('replaces a body that names a secret but cannot be read as XML whole', () => {
    const out = redactor.message(
      [['Content-Type', 'text/xml']],
      Buffer.from('<Send><password x="1>hunter2</password>'),
    );
    expect(out.body.toString()).not.toContain('hunter2');
    expect(out.redacted).toEqual(['body (not readable as XML)']);
  });
  it('reads a query or form name written with %u, as the runtime does', () => {
    const out = redactor.message(
      [['Content-Type', 'application/x-www-form-urlencoded']],
      Buffer.from('user=a&pass%u0077ord=hunter2'),
      '/svc.asmx/Send?pass%u0077ord=hunter2&bad%uZZ=v',
    );
    expect(out.body.toString()).toBe('user=a&pass%u0077ord=***');
    expect(out.target).toBe('/svc.asmx/Send?pass%u0077ord=***&bad%uZZ=***');
  });
  it('shows CDATA and attribute secrets as *** in report text', () => {
    const shown = new Redactor([]).text(`<password><![CDATA[hunter2]]></password><Auth apiKey="k-1"/>`);
    expect(shown).toBe(`<password>***</password><Auth apiKey="***"/>`);
    const named = makeRedactor([])(`<Password><![CDATA[hunter2]]></Password><Auth password="hunter2"/>`);
    expect(named).not.toContain('hunter2');
  });
});

describe('Redactor: report text', () => {
  it('replaces a secret field at the very start of a text, as after a ? or &', () => {
    const r = new Redactor([]);
    expect(r.text('password=hunter2&user=a')).toBe('password=***&user=a');
    expect(r.text('GET /x?user=a&password=hunter2')).toBe('GET /x?user=a&password=***');
  });
});

describe('Redactor: bodies that are neither XML nor form fields', () => {
  const redactor = new Redactor(['PinCode']);
  const json = (body: string, type = 'application/json') =>
    redactor.message([['Content-Type', type]], Buffer.from(body));
  it('replaces the value of every JSON member named like a secret, at any depth, and nothing else', () => {
    const body =
      '{"user":"ann","password":"hunter2","id":12345678901234567890,\n "auth": {"apiKey": "k-1", "pass\\u0077ord": "p2"},' +
      ' "cards":[{"PinCode":1234},{"PinCode":null}], "credentials": {"user": "u", "secret": ["a", {"b": "}"}]}, "note":"token: x"}';
    const out = json(body);
    expect(out.body.toString()).toBe(
      '{"user":"ann","password":"***","id":12345678901234567890,\n "auth": {"apiKey": "***", "pass\\u0077ord": "***"},' +
        ' "cards":[{"PinCode":"***"},{"PinCode":null}], "credentials": "***", "note":"token: x"}',
    );
    expect(out.redacted).toEqual(['member password', 'member apiKey', 'member PinCode', 'member credentials']);
  });
  it('reads JSON by its shape under another media type, and by a +json type', () => {
    expect(json('[{"token":"t-1"}]', 'text/plain').body.toString()).toBe('[{"token":"***"}]');
    expect(json('{"token":"t-1"}', 'application/problem+json').body.toString()).toBe('{"token":"***"}');
  });
  it('keeps a body that names no secret byte for byte, whatever its type', () => {
    for (const [type, text] of [
      ['application/json', '{"user":"ann","n":1}'],
      ['text/plain', 'Server was unable to process request.'],
      ['application/octet-stream', '\u0000\u0001binary'],
    ] as const) {
      const body = Buffer.from(text);
      const out = redactor.message([['Content-Type', type]], body);
      expect(out.body).toBe(body);
      expect(out.redacted).toEqual([]);
    }
  });
  it('keeps none of a body that names a secret and cannot be read: its length and a keyed digest instead', () => {
    const plain = Buffer.from('user=ann password=hunter2');
    const out = redactor.message([['Content-Type', 'text/plain']], plain);
    const stored = out.body.toString();
    expect(stored).not.toContain('hunter2');
    expect(stored).toMatch(
      /^\*\*\* body not stored: it names a secret and could not be read to redact it \(25 bytes, hmac-sha256 [0-9a-f]{64}\) \*\*\*$/,
    );
    expect(out.redacted).toEqual(['body (not XML, JSON or form fields)']);
    const broken = json('{"password": "hunter2",');
    expect(broken.body.toString()).toMatch(/^\*\*\* body not stored: .*\(23 bytes, hmac-sha256 /);
    expect(broken.redacted).toEqual(['body (not readable as JSON)']);
    // Equal bodies of one recording have equal digests; another recorder's key gives another.
    expect(redactor.message([['Content-Type', 'text/plain']], plain).body.toString()).toBe(stored);
    expect(new Redactor([]).message([['Content-Type', 'text/plain']], plain).body.toString()).not.toBe(stored);
  });
  it('shows JSON secrets as *** in report text', () => {
    expect(new Redactor([]).text('{"a":{"password":"hunter2"}}')).toBe('{"a":{"password":"***"}}');
  });
});
