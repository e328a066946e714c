/** Redaction by rule in recordings: the WSDL's secret names, HTTP authentication, query and form fields. */
import { describe, expect, it } from 'vitest';
import { Redactor, secretFieldsOfWsdl } from '../../migrate/redact.js';
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
