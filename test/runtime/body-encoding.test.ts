/**
 * How an XML body's encoding is found (RFC 7303 §3: the BOM, then the HTTP charset, then the XML
 * declaration, else UTF-8). The vectors are written out byte by byte, never made by the code.
 */
import { describe, expect, it } from 'vitest';
import { xmlBodyInput } from '../../runtime/xml/body-encoding.js';
import { readXml, XmlReadError } from '../../runtime/xml/reader.js';

const bytes = (...b: number[]): Uint8Array => Uint8Array.from(b);
// <a>é</a>: UTF-8, and UTF-16 in both byte orders.
const UTF8 = bytes(0x3c, 0x61, 0x3e, 0xc3, 0xa9, 0x3c, 0x2f, 0x61, 0x3e);
const LE = bytes(0x3c, 0, 0x61, 0, 0x3e, 0, 0xe9, 0, 0x3c, 0, 0x2f, 0, 0x61, 0, 0x3e, 0);
const BE = bytes(0, 0x3c, 0, 0x61, 0, 0x3e, 0, 0xe9, 0, 0x3c, 0, 0x2f, 0, 0x61, 0, 0x3e);
const withBom = (bom: number[], body: Uint8Array): Uint8Array => Uint8Array.from([...bom, ...body]);

describe('xmlBodyInput', () => {
  it.each([
    ['UTF-8, no charset', UTF8, undefined],
    ['UTF-8, charset=utf-8', UTF8, 'utf-8'],
    ['UTF-8 with its BOM, charset=utf-16: the BOM wins', withBom([0xef, 0xbb, 0xbf], UTF8), 'utf-16'],
    ['a charset not read (the server refused it with 415 before)', UTF8, 'iso-8859-1'],
  ])('%s: the very bytes, left to readXml', (_name, body, charset) => {
    expect(xmlBodyInput(body, charset)).toBe(body);
  });

  it.each([
    ['UTF-16LE with a BOM, charset=utf-16', withBom([0xff, 0xfe], LE), 'utf-16'],
    ['UTF-16BE with a BOM, charset=utf-16', withBom([0xfe, 0xff], BE), 'utf-16'],
    ['UTF-16LE with a BOM, no charset', withBom([0xff, 0xfe], LE), undefined],
    ['UTF-16BE with a BOM, charset=utf-8: the BOM wins', withBom([0xfe, 0xff], BE), 'utf-8'],
    ['UTF-16LE, charset=utf-16le, no BOM', LE, 'utf-16le'],
    ['UTF-16BE, charset=utf-16be, no BOM', BE, 'utf-16be'],
    ['UTF-16BE, charset=utf-16, no BOM (RFC 2781 §4.3: big-endian)', BE, 'utf-16'],
  ])('%s: the text, without its BOM', (_name, body, charset) => {
    expect(xmlBodyInput(body, charset)).toBe('<a>é</a>');
  });

  it.each([
    [
      'an odd byte count',
      withBom([0xff, 0xfe], LE.subarray(0, 15)),
      'utf-16',
      /^1:8: The document is not valid UTF-16LE$/,
    ],
    ['an unpaired high surrogate', bytes(0x3c, 0, 0x61, 0, 0x3e, 0, 0x00, 0xd8, 0x3c, 0), 'utf-16le', /^1:4: /],
    ['an unpaired low surrogate', bytes(0, 0x3c, 0, 0x61, 0, 0x3e, 0xdc, 0x00), 'utf-16be', /not valid UTF-16BE/],
  ])('%s -> XML_ENCODING with where', (_name, body, charset, message) => {
    const err = (() => {
      try {
        return xmlBodyInput(body, charset);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(XmlReadError);
    expect((err as XmlReadError).code).toBe('XML_ENCODING');
    expect((err as XmlReadError).message).toMatch(message);
  });
});

describe('readXml with the transport charset', () => {
  const latin1Declared = new TextEncoder().encode('<?xml version="1.0" encoding="iso-8859-1"?><a>x</a>');

  it('a charset naming UTF-8 wins over the declaration (RFC 7303 §3)', () => {
    for (const charset of ['utf-8', 'utf8', 'us-ascii'])
      expect(readXml(latin1Declared, { charset }).declaredEncoding).toBe('iso-8859-1');
  });

  it('charset=us-ascii refuses a byte above 0x7F, whatever the declaration says (XML 1.0 §4.3.3)', () => {
    const bytes = new TextEncoder().encode('<?xml version="1.0" encoding="utf-8"?><a>café</a>');
    expect(readXml(bytes, { charset: 'utf-8' }).root.children).toHaveLength(1);
    expect(() => readXml(bytes, { charset: 'us-ascii' })).toThrow(XmlReadError);
    expect(() => readXml(bytes, { charset: 'us-ascii' })).toThrow(/US-ASCII/);
  });

  it('no charset, or one naming another encoding, leaves the declaration checked', () => {
    for (const options of [{}, { charset: 'utf-16' }, { charset: 'iso-8859-1' }])
      expect(() => readXml(latin1Declared, options)).toThrow(/names encoding "iso-8859-1"/);
  });
});
