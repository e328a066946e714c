/**
 * An operation a binding cannot carry is left out of that binding only: a warning names the
 * WSDL line, the operation and the binding; the descriptor lists it under `omitted` with the
 * reason; the generated method says where it is not available. The file is refused only when
 * no operation is left anywhere.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { toDescriptor } from '../../contract/descriptor/index.js';
import { GeneratorError } from '../../contract/errors.js';
import { generate, parseWsdl } from '../../generator/index.js';
import type { ModelWarning } from '../../contract/model/index.js';
import { repoRoot } from '../fixtures/models/golden-inputs.js';

const MIXED = 'test/fixtures/wsdl-partial/mixed-carriage.wsdl';
const NOTHING_LEFT = 'test/fixtures/wsdl-partial/nothing-left.wsdl';
const BROKEN_HEADERS = 'test/fixtures/wsdl-partial/broken-headers.wsdl';
const SERVER_FIRST = 'test/fixtures/wsdl-partial/server-first.wsdl';
const UNDECLARED_MESSAGES = 'test/fixtures/wsdl-partial/undeclared-messages.wsdl';
const OCCURS_REVERSED = 'test/fixtures/wsdl-partial/occurs-reversed.wsdl';
const DUPLICATE_PORTS = 'test/fixtures/wsdl-partial/duplicate-port-names.wsdl';
const TYPE_TYPO = 'test/fixtures/wsdl-partial/type-typo.wsdl';
const SUBSTITUTION = 'test/fixtures/wsdl-partial/substitution-groups.wsdl';
const BROKEN_PORTS = 'test/fixtures/wsdl-partial/broken-ports.wsdl';

beforeAll(() => {
  process.chdir(repoRoot);
});

function generateWithWarnings(file: string): { files: Map<string, string>; warnings: ModelWarning[] } {
  const warnings: ModelWarning[] = [];
  const files = generate(parseWsdl(file), { toolVersion: '0.0.0-test', onWarning: (w) => warnings.push(w) });
  return { files, warnings };
}

describe('operations a binding cannot carry', () => {
  it('leaves out notification and solicit-response operations (the service would send first), naming which', () => {
    const { files, warnings } = generateWithWarnings(SERVER_FIRST);
    expect(warnings.filter((w) => w.code === 'OPERATION_OMITTED').map((w) => [w.source.line, w.message])).toEqual([
      [
        26,
        'operation Tick is left out of binding FirstSoap (soap11): it is a notification operation (an output and no input), which no HTTP binding can carry; no other binding carries it, so the generated code has no method for it',
      ],
      [
        30,
        'operation Ask is left out of binding FirstSoap (soap11): it is a solicit-response operation (its output before its input), which no HTTP binding can carry; no other binding carries it, so the generated code has no method for it',
      ],
    ]);
    const client = [...files].find(([name]) => name.endsWith('client.ts'))?.[1] ?? '';
    expect(client).toMatch(/\bPing\(/);
    expect(client).not.toMatch(/\bTick\(|\bAsk\(/);
  });

  it('a header or body naming a message or part that is not there leaves out its operation, not the file', () => {
    const { files, warnings } = generateWithWarnings(BROKEN_HEADERS);
    expect(warnings.filter((w) => w.code === 'OPERATION_OMITTED').map((w) => [w.source.line, w.message])).toEqual([
      [
        29,
        'operation Trace is left out of binding HeadersSoap (soap11): <wsdl:part element="tns:Trace">: element {urn:headers}Trace is not defined; no other binding carries it, so the generated code has no method for it',
      ],
      [
        34,
        'operation Audit is left out of binding HeadersSoap (soap11): <soap:header> message {urn:headers}AuditHeader is not declared; no other binding carries it, so the generated code has no method for it',
      ],
      [
        39,
        'operation Count is left out of binding HeadersSoap (soap11): <soap:body parts="params"> names "params", which message PingIn has no part of (operation Count of binding HeadersSoap, input); no other binding carries it, so the generated code has no method for it',
      ],
    ]);
    const client = [...files].find(([name]) => name.endsWith('client.ts'))?.[1] ?? '';
    expect(client).toMatch(/\bPing\(/);
    expect(client).not.toMatch(/\bTrace\(|\bAudit\(|\bCount\(/);
  });

  it('an input or output naming an undeclared message leaves out its operation in every binding, not the file', () => {
    const model = parseWsdl(UNDECLARED_MESSAGES);
    expect(
      model.warnings
        .filter((w) => w.code === 'OPERATION_MESSAGE_UNDECLARED')
        .map((w) => [w.source.file, w.source.line, w.message]),
    ).toEqual([
      [
        UNDECLARED_MESSAGES,
        20,
        'operation Echo of portType MessagesSoap is left out of every binding: <wsdl:output message="tns:EchoOut">: message {urn:messages}EchoOut is not defined',
      ],
      [
        UNDECLARED_MESSAGES,
        23,
        'operation Ask of portType MessagesSoap is left out of every binding: <wsdl:input message="tns:AskIn">: message {urn:messages}AskIn is not defined',
      ],
    ]);
    const { files, warnings } = generateWithWarnings(UNDECLARED_MESSAGES);
    expect(warnings.filter((w) => w.code === 'OPERATION_OMITTED').map((w) => [w.source.line, w.message])).toEqual([
      [
        35,
        'operation Echo is left out of binding MessagesSoap (soap11): <wsdl:output message="tns:EchoOut">: message {urn:messages}EchoOut is not defined; no other binding carries it, so the generated code has no method for it',
      ],
      [
        36,
        'operation Ask is left out of binding MessagesSoap (soap11): <wsdl:input message="tns:AskIn">: message {urn:messages}AskIn is not defined; no other binding carries it, so the generated code has no method for it',
      ],
      [
        47,
        'operation Echo is left out of binding MessagesSoap12 (soap12): <wsdl:output message="tns:EchoOut">: message {urn:messages}EchoOut is not defined; no other binding carries it, so the generated code has no method for it',
      ],
      [
        48,
        'operation Ask is left out of binding MessagesSoap12 (soap12): <wsdl:input message="tns:AskIn">: message {urn:messages}AskIn is not defined; no other binding carries it, so the generated code has no method for it',
      ],
    ]);
    const client = files.get('messages/client.ts') ?? '';
    expect(client).toMatch(/\bPing\(/);
    expect(client).not.toMatch(/\bEcho\(|\bAsk\(/);
  });

  it('a fault naming an undeclared message keeps its operation (that fault untyped), with a warning at its line', () => {
    const model = parseWsdl(UNDECLARED_MESSAGES);
    expect(
      model.warnings.filter((w) => w.code === 'FAULT_MESSAGE_UNDECLARED').map((w) => [w.source.line, w.message]),
    ).toEqual([
      [
        29,
        'fault TooLoud of operation Shout of portType MessagesSoap: <wsdl:fault message="tns:TooLoudFault">: message {urn:messages}TooLoudFault is not defined; the operation is kept, that fault untyped (its detail is read as XML)',
      ],
    ]);
    const descriptor = toDescriptor(model);
    expect(descriptor.bindings.map((b) => b.operations.map((o) => o.name))).toEqual([
      ['Ping', 'Shout'],
      ['Ping', 'Shout'],
    ]);
  });

  it('a type with maxOccurs below minOccurs leaves out the operations that need it, naming the line', () => {
    const reason =
      '<s:element minOccurs="3" maxOccurs="2">: maxOccurs 2 is less than minOccurs 3, which no schema allows (XSD 1.0 Part 1 §3.9.6)';
    const model = parseWsdl(OCCURS_REVERSED);
    expect(
      model.warnings.filter((w) => w.code === 'DEFINITION_OMITTED').map((w) => [w.source.line, w.message]),
    ).toEqual([
      [14, `type {urn:occurs}Counts is left out: ${reason}`],
      [14, `element {urn:occurs}Tally is left out: it uses type {urn:occurs}Counts, which is left out: ${reason}`],
      [14, `message {urn:occurs}TallyIn is left out: it uses element {urn:occurs}Tally, which is left out: ${reason}`],
    ]);
    const { files, warnings } = generateWithWarnings(OCCURS_REVERSED);
    expect(warnings.map((w) => [w.code, w.source.line, w.message])).toEqual([
      [
        'OPERATION_OMITTED',
        29,
        `operation Tally is left out of binding OccursSoap (soap11): ${reason}; no other binding carries it, so the generated code has no method for it`,
      ],
    ]);
    const client = files.get('occurs/client.ts') ?? '';
    expect(client).toMatch(/\bPing\(/);
    expect(client).not.toMatch(/\bTally\(/);
  });

  it('a typo in a type name leaves out the operations that need it, naming the line and the missing name', () => {
    const reason = '<s:element type="tns:Stpe">: type {urn:typo}Stpe is not defined';
    expect(parseWsdl(TYPE_TYPO).warnings.map((w) => [w.code, w.source.file, w.source.line, w.message])).toEqual([
      ['DEFINITION_OMITTED', TYPE_TYPO, 14, `element {urn:typo}Count is left out: ${reason}`],
      [
        'DEFINITION_OMITTED',
        TYPE_TYPO,
        14,
        `message {urn:typo}CountIn is left out: it uses element {urn:typo}Count, which is left out: ${reason}`,
      ],
    ]);
    const { files, warnings } = generateWithWarnings(TYPE_TYPO);
    expect(warnings.map((w) => [w.code, w.source.line, w.message])).toEqual([
      [
        'OPERATION_OMITTED',
        29,
        `operation Count is left out of binding TypoSoap (soap11): ${reason}; no other binding carries it, so the generated code has no method for it`,
      ],
    ]);
    expect(files.get('typo/client.ts')).toMatch(/\bPing\(/);
  });

  it('a message part naming an abstract element leaves out what needs it, naming its substitutes, never writes it', () => {
    const part = `<wsdl:part element="tns:shape">: element {urn:shapes}shape is abstract, so only an element of its substitution group ({urn:shapes}circle, {urn:shapes}square) may stand in its place, under its own name, which smskit carries where an element refers to it but not as a message part (a body is one element) (written as shape itself it would break the schema)`;
    expect(parseWsdl(SUBSTITUTION).warnings.map((w) => [w.code, w.source.line, w.message])).toEqual([
      ['DEFINITION_OMITTED', 42, `message {urn:shapes}ShapeIn is left out: ${part}`],
    ]);
    const { files, warnings } = generateWithWarnings(SUBSTITUTION);
    expect(warnings.map((w) => [w.code, w.source.line, w.message])).toEqual([
      [
        'OPERATION_OMITTED',
        58,
        `operation Place is left out of binding ShapesSoap (soap11): ${part}; no other binding carries it, so the generated code has no method for it`,
      ],
    ]);
    const client = files.get('shapes/client.ts') ?? '';
    for (const method of ['Ping', 'Draw', 'Label', 'Memo', 'Stamp'])
      expect(client).toMatch(new RegExp(`\\b${method}\\(`));
    expect(client).not.toMatch(/\bPlace\(/);
  });

  it('two ports of one name are both carried, each for its binding, with a warning at the second', () => {
    const model = parseWsdl(DUPLICATE_PORTS);
    expect(model.warnings.map((w) => [w.code, w.source.line, w.message])).toEqual([
      [
        'DUPLICATE_PORT_NAME',
        28,
        `port PortsSoap is declared again (first at ${DUPLICATE_PORTS}:27); WSDL 1.1 §2.7 wants port names unique in the document: both are read, each for its own binding, but a tool that looks ports up by name may see only one`,
      ],
    ]);
    expect(toDescriptor(model).bindings.map((b) => [b.protocol, b.name])).toEqual([
      ['soap11', 'PortsSoap'],
      ['soap12', 'PortsSoap12'],
    ]);
  });

  it('warns once per left-out operation and binding, with the WSDL line', () => {
    const { warnings } = generateWithWarnings(MIXED);
    expect(warnings.map((w) => [w.code, w.source.file, w.source.line, w.message])).toEqual([
      [
        'OPERATION_OMITTED_FROM_BINDING',
        MIXED,
        60,
        'operation Echo is left out of binding MixedHttpGet (http-get): its input <http:urlReplacement> (parameters in the URL path) is not supported',
      ],
      [
        'OPERATION_OMITTED_FROM_BINDING',
        MIXED,
        65,
        'operation Move is left out of binding MixedHttpGet (http-get): parameter to is of the complex type Point, which HTTP GET/POST cannot carry (only simple values and arrays of them)',
      ],
      [
        'OPERATION_OMITTED_FROM_BINDING',
        MIXED,
        73,
        'operation Echo is left out of binding MixedHttpPost (http-post): HTTP operation Echo answers mime:content text/plain; only mime:mimeXml is supported',
      ],
      [
        'OPERATION_OMITTED_FROM_BINDING',
        MIXED,
        78,
        'operation Move is left out of binding MixedHttpPost (http-post): parameter to is of the complex type Point, which HTTP GET/POST cannot carry (only simple values and arrays of them)',
      ],
    ]);
  });

  it('keeps every operation on the binding that carries it and lists the others as omitted', () => {
    const descriptor = toDescriptor(parseWsdl(MIXED));
    const byProtocol = Object.fromEntries(descriptor.bindings.map((b) => [b.protocol, b]));
    expect(byProtocol.soap11!.operations.map((o) => o.name)).toEqual(['Echo', 'Move']);
    expect(byProtocol.soap11!.omitted).toBeUndefined();
    expect(byProtocol['http-get']!.operations).toEqual([]);
    expect(byProtocol['http-get']!.omitted).toEqual([
      {
        name: 'Echo',
        method: 'Echo',
        reason: 'its input <http:urlReplacement> (parameters in the URL path) is not supported',
      },
      {
        name: 'Move',
        method: 'Move',
        reason:
          'parameter to is of the complex type Point, which HTTP GET/POST cannot carry (only simple values and arrays of them)',
      },
    ]);
    expect(byProtocol['http-post']!.omitted?.map((o) => o.name)).toEqual(['Echo', 'Move']);
  });

  it('says in the generated code where each method is not available', () => {
    const { files } = generateWithWarnings(MIXED);
    const client = files.get('mixed/client.ts')!;
    expect(client).toContain(
      'Not available on:\n   * - http-get (MixedHttpGet): parameter to is of the complex type Point',
    );
    expect(files.get('mixed/server.ts')).toContain('Not available on:');
    expect(files.get('mixed/descriptor.ts')).toContain(
      'Left out: operation Echo is left out of binding MixedHttpGet (http-get)',
    );
  });

  it('leaves out a port whose binding is not declared, or names a portType that is not, and keeps the others', () => {
    const { files, warnings } = generateWithWarnings(BROKEN_PORTS);
    expect(parseWsdl(BROKEN_PORTS).warnings.map((w) => [w.code, w.source.line, w.message])).toEqual([
      [
        'DEFINITION_OMITTED',
        23,
        'binding {urn:ports}PortsSoap12 is left out: binding {urn:ports}PortsSoap12 type="tns:OldPortsSoap": portType {urn:ports}OldPortsSoap is not defined',
      ],
    ]);
    expect(warnings.map((w) => [w.code, w.source.line, w.message])).toEqual([
      [
        'PORT_OMITTED',
        29,
        'port PortsSoap12 of service Ports is left out: its binding PortsSoap12 is left out: binding {urn:ports}PortsSoap12 type="tns:OldPortsSoap": portType {urn:ports}OldPortsSoap is not defined',
      ],
      [
        'PORT_OMITTED',
        30,
        'port PortsHttpGet of service Ports is left out: <wsdl:port binding="tns:PortsHttpGet">: binding {urn:ports}PortsHttpGet is not defined',
      ],
    ]);
    expect(
      toDescriptor(parseWsdl(BROKEN_PORTS)).bindings.map((b) => [b.protocol, b.operations.map((o) => o.name)]),
    ).toEqual([['soap11', ['Ping']]]);
    expect(files.get('ports/client.ts')).toContain('Ping(input: Ping');
  });

  it('refuses the file only when no operation is left, naming the first reason and its line', () => {
    let caught: unknown;
    try {
      generate(parseWsdl(NOTHING_LEFT), { toolVersion: '0.0.0-test' });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(GeneratorError);
    const error = caught as GeneratorError;
    expect([error.code, error.file, error.line]).toEqual(['UNSUPPORTED_CONSTRUCT', NOTHING_LEFT, 59]);
    expect(error.what).toMatch(
      /^no operation can be generated: operation Echo is left out of binding MixedHttpGet \(http-get\)/,
    );
  });
});
