import { describe, expect, it } from 'vitest';
import { toDescriptor } from '../../../contract/descriptor/index.js';
import { GeneratorError } from '../../../contract/errors.js';
import { generate } from '../../../generator/generate.js';
import type { WsdlModel } from '../../../contract/model/index.js';
import { serviceApiModel } from '../../fixtures/models/serviceapi.js';

const NS = 'http://smskit.dev/serviceapi/';

/** The object literal of a generated descriptor.ts, evaluated. */
/** Runs the file's declarations (type annotations and the import removed) and returns the export. */
function evaluateDescriptorFile(text: string): unknown {
  const exported = /^export const (\w+): ServiceDescriptor =/m.exec(text)![1];
  const body = text
    .replace(/^import .*$/m, '')
    .replace(/: readonly OperationDescriptor\[\] =/g, ' =')
    .replace(/^export const (\w+): ServiceDescriptor =/m, 'const $1 =');
  return new Function(`${body}\nreturn ${exported};`)();
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

describe('toDescriptor(serviceapi)', () => {
  const descriptor = toDescriptor(serviceApiModel());

  it('has one binding per protocol in port order, with the port address', () => {
    expect(descriptor.bindings.map((b) => [b.name, b.protocol, b.address])).toEqual([
      ['ServiceAPISoap', 'soap11', 'http://localhost:8080/serviceapi.asmx'],
      ['ServiceAPISoap12', 'soap12', 'http://localhost:8080/serviceapi.asmx'],
      ['ServiceAPIHttpGet', 'http-get', 'http://localhost:8080/serviceapi.asmx'],
      ['ServiceAPIHttpPost', 'http-post', 'http://localhost:8080/serviceapi.asmx'],
    ]);
  });

  it('SOAP operations carry soapAction and element bodies; the same method on every binding', () => {
    const soap = descriptor.bindings[0]!.operations[0]!;
    expect(soap).toMatchObject({
      name: 'SMSSend',
      method: 'SMSSend',
      soapAction: `${NS}SMSSend`,
      input: { kind: 'element', element: `{${NS}}SMSSend` },
      output: { kind: 'element', element: `{${NS}}SMSSendResponse` },
    });
    for (const binding of descriptor.bindings)
      expect(binding.operations.map((o) => o.method)).toEqual(['SMSSend', 'SMSSendToPort']);
  });

  it('HTTP operations: params in part order, mimeXml result into the SOAP wrapper field', () => {
    const get = descriptor.bindings[2]!.operations[1]!;
    expect(get.httpPath).toBe('/SMSSendToPort');
    expect(get.input.kind === 'params' ? get.input.params.map((p) => p.name) : []).toEqual([
      'keyword',
      'emailAddress',
      'password',
      'smsto',
      'carrierCode',
      'smsmsg',
      'port',
    ]);
    expect(get.output).toEqual({ kind: 'xml-result', element: `{${NS}}string`, field: 'SMSSendToPortResult' });
  });

  it('elements and wrapper types, fields in schema order', () => {
    expect(descriptor.elements[`{${NS}}string`]).toEqual({
      name: { ns: NS, local: 'string' },
      value: { kind: 'primitive', xsd: 'string' },
      nillable: true,
    });
    expect(descriptor.elements[`{${NS}}SMSSend`]!.value).toEqual({ kind: 'type', type: `element:{${NS}}SMSSend` });
    const wrapper = descriptor.types[`element:{${NS}}SMSSend`];
    expect(wrapper?.kind === 'complex' ? wrapper.fields.map((f) => [f.prop, f.minOccurs, f.maxOccurs]) : []).toEqual([
      ['keyword', 0, 1],
      ['emailAddress', 0, 1],
      ['password', 0, 1],
      ['smsto', 0, 1],
      ['carrierCode', 0, 1],
      ['smsmsg', 0, 1],
    ]);
  });

  it('is pure: it does not modify the model and gives equal results twice', () => {
    const model = deepFreeze(serviceApiModel());
    expect(toDescriptor(model)).toEqual(toDescriptor(model));
  });

  it('the emitted descriptor.ts holds exactly the toDescriptor result', () => {
    const text = generate(serviceApiModel(), { toolVersion: 't' }).get('service-api/descriptor.ts')!;
    expect(evaluateDescriptorFile(text)).toEqual(descriptor);
  });
});

describe('binding choice and synthesised shapes', () => {
  it('two ports of one protocol: the first in document order wins, the choice is recorded', () => {
    const base = serviceApiModel();
    const service = base.services[0]!;
    const model: WsdlModel = {
      ...base,
      services: [
        {
          ...service,
          ports: [...service.ports, { ...service.ports[0]!, name: 'SecondSoap', address: 'http://other/x.asmx' }],
        },
      ],
    };
    const descriptor = toDescriptor(model);
    expect(descriptor.bindings.filter((b) => b.protocol === 'soap11')).toHaveLength(1);
    expect(descriptor.bindings[0]!.address).toBe('http://localhost:8080/serviceapi.asmx');
    expect(generate(model, { toolVersion: 't' }).get('service-api/descriptor.ts')).toContain(
      'port SecondSoap (binding ServiceAPISoap) is not used: soap11 is served by port ServiceAPISoap',
    );
  });

  it('an operation without a SOAP binding gets <Method>Input / <Method>Output', () => {
    const base = serviceApiModel();
    const model: WsdlModel = { ...base, services: [{ ...base.services[0]!, ports: base.services[0]!.ports.slice(2) }] };
    const files = generate(model, { toolVersion: 't' });
    expect(files.get('service-api/types.ts')).toContain('export interface SMSSendInput {');
    expect(files.get('service-api/types.ts')).toContain('  SMSSendResult?: string;');
    expect(files.get('service-api/client.ts')).toContain(
      'SMSSend(input: SMSSendInput, options?: CallOptions): Promise<SMSSendOutput>',
    );
    const get = toDescriptor(model).bindings[0]!.operations[0]!;
    expect(get.output).toEqual({ kind: 'xml-result', element: `{${NS}}string`, field: 'SMSSendResult' });
  });

  it('rpc/encoded leaves the operations out of that binding only, with a warning naming the line', () => {
    const base = serviceApiModel();
    const soap = base.bindings[0]!;
    const rpc = {
      ...soap,
      operations: soap.operations.map((o) => ({
        ...o,
        style: 'rpc' as const,
        inputBody: { use: 'encoded' as const },
        outputBody: { use: 'encoded' as const },
        source: { file: 'fixture.wsdl', line: 42 },
      })),
    };
    const model: WsdlModel = { ...base, bindings: [rpc, ...base.bindings.slice(1)] };
    const descriptor = toDescriptor(model);
    const soap11 = descriptor.bindings.find((b) => b.protocol === 'soap11')!;
    expect(soap11.operations).toEqual([]);
    expect(soap11.omitted?.map((o) => [o.name, o.reason])).toEqual([
      [
        'SMSSend',
        'use="encoded" (rpc/encoded, operation SMSSend of binding ServiceAPISoap) is not supported; only literal messages can be modelled faithfully',
      ],
      [
        'SMSSendToPort',
        'use="encoded" (rpc/encoded, operation SMSSendToPort of binding ServiceAPISoap) is not supported; only literal messages can be modelled faithfully',
      ],
    ]);
    expect(descriptor.bindings.find((b) => b.protocol === 'soap12')!.operations.map((o) => o.name)).toEqual([
      'SMSSend',
      'SMSSendToPort',
    ]);
    const warnings: string[] = [];
    generate(model, {
      toolVersion: 't',
      onWarning: (w) => warnings.push(`${w.source.file}:${w.source.line}: ${w.message}`),
    });
    expect(warnings[0]).toBe(
      'fixture.wsdl:42: operation SMSSend is left out of binding ServiceAPISoap (soap11): use="encoded" (rpc/encoded, operation SMSSend of binding ServiceAPISoap) is not supported; only literal messages can be modelled faithfully',
    );
  });

  it('refuses with a GeneratorError naming the operation and its line when no binding is left', () => {
    const base = serviceApiModel();
    const soap = base.bindings[0]!;
    const rpc = {
      ...soap,
      operations: soap.operations.map((o) => ({
        ...o,
        style: 'rpc' as const,
        inputBody: { use: 'encoded' as const },
        outputBody: { use: 'encoded' as const },
        source: { file: 'fixture.wsdl', line: 42 },
      })),
    };
    const model: WsdlModel = {
      ...base,
      bindings: [rpc, ...base.bindings.slice(1)],
      services: [{ ...base.services[0]!, ports: base.services[0]!.ports.slice(0, 1) }],
    };
    let caught: unknown;
    try {
      toDescriptor(model);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(GeneratorError);
    expect(caught).toMatchObject({ code: 'UNSUPPORTED_CONSTRUCT', file: 'fixture.wsdl', line: 42 });
    expect((caught as Error).message).toMatch(
      /no operation can be generated: operation SMSSend is left out of binding ServiceAPISoap \(soap11\): use="encoded" \(rpc\/encoded/,
    );
  });
});

describe('determinism', () => {
  it('generating twice gives identical maps', () => {
    const a = generate(serviceApiModel(), { toolVersion: '1.2.3' });
    const b = generate(serviceApiModel(), { toolVersion: '1.2.3' });
    expect([...a.entries()]).toEqual([...b.entries()]);
  });

  it('headers carry tool version, WSDL path, hash and options, and no absolute path', () => {
    const files = generate(serviceApiModel(), { toolVersion: '1.2.3', runtimeImport: '../runtime/index.js' });
    for (const [path, text] of files) {
      expect(text, path).toMatch(
        /^\/\/ Generated by smskit 1\.2\.3 from wsdl\/serviceapi\.wsdl\n\/\/ Contract sha256: [0-9a-f]{64}\n\/\/ Options: runtimeImport="\.\.\/runtime\/index\.js"\n\/\/ DO NOT EDIT/,
      );
      expect(text).not.toContain(process.cwd());
    }
    expect(files.get('service-api/client.ts')).toContain("from '../runtime/index.js'");
  });
});
