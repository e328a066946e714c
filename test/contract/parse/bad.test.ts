/**
 * One fixture per bad-input class: each is refused with a stable code, the file and the line.
 * A definition that cannot be read is left out by the parser and refused when an operation
 * needs it (parse/broken.ts), so the refusal is asserted on parse + plan (toDescriptor).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { GeneratorError } from '../../../contract/errors.js';
import { parseWsdl } from '../../../contract/parse/index.js';
import { toDescriptor } from '../../../contract/descriptor/index.js';
import { repoRoot } from '../../fixtures/models/golden-inputs.js';

const dir = 'test/fixtures/wsdl-bad';

beforeAll(() => {
  process.chdir(repoRoot);
});

interface Want {
  readonly code: string;
  /** Where the error points; defaults to the fixture itself. */
  readonly file?: string;
  readonly line: number;
  readonly what: RegExp;
}

const cases: [string, { given: string; want: Want }][] = [
  [
    'malformed XML',
    {
      given: 'malformed-xml.wsdl',
      want: {
        code: 'WSDL_MALFORMED_XML',
        line: 31,
        what: /^Unexpected close tag: <wsdl:operation> is still open \(column 19\)$/,
      },
    },
  ],
  [
    'DOCTYPE (XXE attempt)',
    {
      given: 'doctype.wsdl',
      want: { code: 'WSDL_MALFORMED_XML', line: 2, what: /DOCTYPE declaration is not allowed/ },
    },
  ],
  [
    'not a WSDL (WSDL 2.0)',
    {
      given: 'not-wsdl.wsdl',
      want: {
        code: 'WSDL_NOT_WSDL',
        line: 2,
        what: /found <description> in namespace http:\/\/www\.w3\.org\/ns\/wsdl \(WSDL 2\.0 is not supported\)/,
      },
    },
  ],
  [
    'missing message',
    {
      given: 'missing-message.wsdl',
      want: {
        code: 'WSDL_UNRESOLVED_REFERENCE',
        line: 30,
        what: /^<wsdl:output message="tns:PingSoapOutt">: message \{urn:bad\}PingSoapOutt is not defined$/,
      },
    },
  ],
  [
    'missing portType',
    {
      given: 'missing-portType.wsdl',
      want: { code: 'WSDL_UNRESOLVED_REFERENCE', line: 33, what: /portType \{urn:bad\}NoSuchPortType is not defined/ },
    },
  ],
  [
    'missing binding',
    {
      given: 'missing-binding.wsdl',
      want: {
        code: 'WSDL_UNRESOLVED_REFERENCE',
        line: 46,
        what: /^<wsdl:port binding="tns:NoSuchBinding">: binding \{urn:bad\}NoSuchBinding is not defined$/,
      },
    },
  ],
  [
    'missing element',
    {
      given: 'missing-element.wsdl',
      want: { code: 'WSDL_UNRESOLVED_REFERENCE', line: 25, what: /element \{urn:bad\}PingReply is not defined/ },
    },
  ],
  [
    'missing type',
    {
      given: 'missing-type.wsdl',
      want: {
        code: 'WSDL_UNRESOLVED_REFERENCE',
        line: 15,
        what: /^<s:element type="tns:PingResultType">: type \{urn:bad\}PingResultType is not defined$/,
      },
    },
  ],
  [
    'undeclared QName prefix',
    {
      given: 'undeclared-prefix.wsdl',
      want: { code: 'WSDL_UNRESOLVED_REFERENCE', line: 8, what: /the namespace prefix "xsd" is not declared/ },
    },
  ],
  [
    'unresolvable import (missing file)',
    {
      given: 'missing-import.wsdl',
      want: {
        code: 'WSDL_IMPORT_UNRESOLVED',
        line: 5,
        what: /location "no-such-file\.xsd" cannot be read from test\/fixtures\/wsdl-bad\/no-such-file\.xsd \(ENOENT\)/,
      },
    },
  ],
  [
    'unresolvable import (remote URL)',
    {
      given: 'remote-import.wsdl',
      want: {
        code: 'WSDL_IMPORT_UNRESOLVED',
        line: 3,
        what: /location "http:\/\/example\.com\/service\?wsdl" is remote and this reading of the WSDL fetches nothing: .*--allow-import-host example\.com/,
      },
    },
  ],
  [
    'duplicate definition',
    {
      given: 'duplicate-definition.wsdl',
      want: {
        code: 'WSDL_DUPLICATE_DEFINITION',
        line: 24,
        what: /^wsdl:message \{urn:bad\}PingSoapIn is defined twice \(first at test\/fixtures\/wsdl-bad\/duplicate-definition\.wsdl:21\)$/,
      },
    },
  ],
  [
    'unsupported: rpc/encoded',
    {
      given: 'rpc-encoded.wsdl',
      want: {
        code: 'UNSUPPORTED_CONSTRUCT',
        line: 35,
        what: /^no operation can be generated: operation Ping is left out of binding BadSoap \(soap11\): use="encoded" \(document\/encoded, operation Ping of binding BadSoap\) is not supported/,
      },
    },
  ],
  [
    'invalid: maxOccurs below minOccurs (the only operation needs it)',
    {
      given: 'occurs-reversed.wsdl',
      want: {
        code: 'WSDL_INVALID',
        line: 11,
        what: /^<s:element minOccurs="3" maxOccurs="2">: maxOccurs 2 is less than minOccurs 3, which no schema allows \(XSD 1\.0 Part 1 §3\.9\.6\)$/,
      },
    },
  ],
  [
    'invalid: binding operation without portType counterpart',
    {
      given: 'operation-mismatch.wsdl',
      want: {
        code: 'WSDL_INVALID',
        line: 35,
        what: /operation "Pong" has no counterpart in portType \{urn:bad\}BadSoap/,
      },
    },
  ],
];

describe('parse: bad input is refused with code, file and line', () => {
  it.each(cases)('%s', (_name, { given, want }) => {
    const file = `${dir}/${given}`;
    let caught: unknown;
    try {
      toDescriptor(parseWsdl(file));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(GeneratorError);
    const error = caught as GeneratorError;
    expect({ code: error.code, file: error.file, line: error.line }).toEqual({
      code: want.code,
      file: want.file ?? file,
      line: want.line,
    });
    expect(error.what).toMatch(want.what);
    expect(error.message).toBe(`${error.file}:${error.line}: ${error.what}`);
    expect(String(error)).toBe(error.message);
  });

  it('leaves out a SOAP-encoded array nothing uses, with a warning naming it and its line', () => {
    const file = `${dir}/soapenc-array.wsdl`;
    const model = parseWsdl(file);
    expect(model.warnings).toEqual([
      {
        code: 'DEFINITION_OMITTED',
        message: expect.stringMatching(
          /^type \{urn:bad\}ArrayOfString is left out: .*SOAP-encoded arrays \(SOAP-ENC:Array\) are not supported$/,
        ),
        source: { file, line: 14 },
      },
    ]);
    expect(toDescriptor(model).bindings[0]!.operations.map((o) => o.name)).toEqual(['Ping']);
  });

  it('reports a root file that cannot be read', () => {
    expect(() => parseWsdl(`${dir}/does-not-exist.wsdl`)).toThrow(
      expect.objectContaining({
        code: 'WSDL_IMPORT_UNRESOLVED',
        message: `${dir}/does-not-exist.wsdl:1: cannot read the WSDL file (ENOENT)`,
      }),
    );
  });
});
