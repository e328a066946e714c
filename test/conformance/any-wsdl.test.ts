/**
 * Inputs for every operation of any document/literal WSDL: sample values from the schema for
 * every type, values the user gives (flags typed by the schema, an inputs file per operation and
 * path, SOAP headers) checked with errors that name the operation and the path, and operations
 * the runner cannot exercise skipped with why instead of stopping the run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yargs from 'yargs';
import { toDescriptor } from '../../contract/descriptor/index.js';
import { parseWsdl } from '../../contract/parse/index.js';
import { buildCatalogue } from '../../conformance/catalogue/build.js';
import { CONFORMANCE_DEFAULTS } from '../../bin/conformance-defaults.js';
import { conformanceBuilder, validateConformanceArgs } from '../../bin/conformance/options.js';
import { executeConformance, type CommandIo } from '../../bin/conformance/execute.js';
import { operationContracts } from '../../conformance/catalogue/operation-contract.js';
import { ConformanceError } from '../../conformance/errors.js';
import { parseInputsFile } from '../../bin/conformance/inputs-file.js';
import { methodInputs } from '../../conformance/catalogue/operation-input.js';
import { sampleValue } from '../../conformance/catalogue/samples.js';
import { schemaFacts } from '../../conformance/catalogue/schema-facts.js';
import { runConformance } from '../../conformance/index.js';
import { createRequestListener, listen, type Listening, type ServiceDescriptor } from '../../runtime/index.js';
import { SHARED_FROM_ROOT } from '../helpers/shared-dir.js';
import { requireShared } from '../helpers/peers.js';
import { twoResultsDescriptor, twoResultsHandlers } from '../fixtures/conformance/two-results-descriptor.js';

const richModel = parseWsdl('test/fixtures/asmx/rich.wsdl');
const rich = toDescriptor(richModel);
const richFacts = schemaFacts(richModel);

function parse(argv: string[]) {
  return validateConformanceArgs(
    conformanceBuilder(yargs(argv).strict(), CONFORMANCE_DEFAULTS).parseSync() as Record<string, unknown>,
    {},
    CONFORMANCE_DEFAULTS,
  );
}

function captureIo(): { out: { stdout: string; stderr: string }; io: CommandIo } {
  const out = { stdout: '', stderr: '' };
  return {
    out,
    io: { stdout: (t) => void (out.stdout += t), stderr: (t) => void (out.stderr += t), writeFile: () => {} },
  };
}

describe('sample values from the schema', () => {
  const typical = { kind: 'typical', text: 'Conformance check 42' } as const;
  const sample = (element: string, variant: Parameters<typeof sampleValue>[2] = typical) =>
    sampleValue(
      rich,
      richFacts,
      variant,
      rich.elements[`{http://smskit.dev/rich/}${element}`]!.value,
      undefined,
      element,
    );

  it('every scalar type: a valid value of its lexical space', () => {
    expect(sample('DescribeScalars').json).toEqual({
      id: '6f9619ff-8b86-d011-b42d-00c04fc964ff', // s1:guid: a string restricted by a pattern, matched
      flag: '65',
      amount: '12.5',
      count: '42',
      when: '2024-05-17T10:30:00Z',
      yes: 'true',
      ratio: '1.5',
      small: '42',
      s16: '42',
      f32: '1.5',
      big: '42',
    });
  });

  it('arrays: two items by default; empty, one and many by variant; one of each concrete type when polymorphic', () => {
    expect(sample('SumValues').json).toEqual({ values: ['42', '42'] });
    expect(sample('SumValues', { kind: 'arrays', count: 0 }).json).toEqual({ values: [] });
    expect(sample('SumValues', { kind: 'arrays', count: 5 }).json).toEqual({ values: ['42', '42', '42', '42', '42'] });
    const shapes = (sample('EchoShapes').json as { shapes: { $type: string }[] }).shapes.map((s) => s.$type);
    expect(shapes).toEqual(['Rectangle', 'Square', 'Circle']);
  });

  it('nested and derived types, enums, [Flags] lists, nil where nillable', () => {
    const order = sample('EchoOrder');
    const json = order.json as { order: Record<string, unknown> };
    expect(json.order.Customer).toEqual({
      Name: 'Conformance check 42',
      Email: 'Conformance check 42',
      Address: {
        Street: 'Conformance check 42',
        City: 'Conformance check 42',
        PostalCode: 'Conformance check 42',
        Country: 'Conformance check 42',
      },
    });
    expect(json.order.Access).toBe('Read');
    expect((json.order.Lines as { Color: string; Shape: { $type: string } }[])[0]).toMatchObject({
      Color: 'Red',
      Shape: { $type: 'Rectangle' },
    });
    expect([...order.features.derived].sort()).toEqual([
      '{http://smskit.dev/rich/}Circle',
      '{http://smskit.dev/rich/}Square',
    ]);
    expect(order.features).toMatchObject({ freeText: true, arrays: true, nillable: true });
    const nil = sample('EchoOrder', { kind: 'nil' }).json as { order: Record<string, unknown> };
    expect(nil.order.Priority).toBeNull();
    const derived = sample('EchoOrder', { kind: 'derived', type: '{http://smskit.dev/rich/}Circle' }).json as {
      order: { Lines: { Shape: { $type: string } }[] };
    };
    expect(derived.order.Lines.map((l) => l.Shape.$type)).toEqual(['Circle', 'Circle']);
  });

  it('every sample converts by the descriptor and is sent by the runtime on every binding', () => {
    const cases = buildCatalogue({ descriptor: rich, inputs: { values: {} }, facts: richFacts });
    expect(cases.filter((c) => c.unusable !== undefined).map((c) => `${c.id}: ${c.unusable}`)).toEqual([]);
    expect(cases.length).toBeGreaterThan(700);
  });

  it('numbers stay inside their facets', () => {
    const d: ServiceDescriptor = {
      ...twoResultsDescriptor,
      types: {
        ...twoResultsDescriptor.types,
        in: {
          kind: 'complex',
          attributes: [],
          fields: [
            {
              prop: 'pct',
              name: { ns: 'urn:t', local: 'pct' },
              value: { kind: 'primitive', xsd: 'int' },
              minOccurs: 1,
              maxOccurs: 1,
              nillable: false,
            },
          ],
        },
      },
    };
    const facts = { memberFacets: () => ({ minInclusive: '50', maxInclusive: '100' }), listItems: () => undefined };
    expect(sampleValue(d, facts, typical, { kind: 'type', type: 'in' }, undefined, 'x', 'in').json).toEqual({
      pct: '50',
    });
  });
});

describe('values the user gives', () => {
  const contracts = operationContracts(rich);

  it('flags are typed by the schema: --param a=6 is an xs:int 6, JSON for an array', () => {
    const inputs = methodInputs(rich, contracts, { values: { a: '6', b: '3', values: '[1,2,3]' } }, richFacts);
    const add = inputs.get('Add')!.build({ kind: 'typical', text: 'x' });
    expect('input' in add && add.input).toEqual({ a: 6, b: 3 });
    const doubles = inputs.get('AddDoubles')!.build({ kind: 'typical', text: 'x' });
    expect('input' in doubles && doubles.input).toEqual({ a: 6, b: 3 });
    const sum = inputs.get('SumValues')!.build({ kind: 'typical', text: 'x' });
    expect('input' in sum && sum.input).toEqual({ values: [1, 2, 3] });
  });

  it('a flag that does not fit its type is an error naming the operation and the path', () => {
    expect(() =>
      methodInputs(rich, contracts, { values: { a: 'six' } }, richFacts)
        .get('Add')!
        .build({ kind: 'typical', text: 'x' }),
    ).toThrow(new ConformanceError('CONFORMANCE_INPUTS', 'Add/a: "six" is not an xs:int'));
  });

  it('an inputs file: per operation and path, SOAP headers, $env secrets', async () => {
    const file = await parseInputsFile(
      'inputs.yaml',
      [
        'EchoOrder:',
        '  input:',
        '    order/Customer/Name: Zoë',
        '    order: { Priority: 7 }',
        'WhoAmI:',
        '  headers:',
        '    AuthHeader: { User: alice, Token: { $env: RICH_TOKEN } }',
      ].join('\n'),
      { RICH_TOKEN: 't0ken-from-env' },
    );
    expect(file.secretValues).toEqual(['t0ken-from-env']);
    const inputs = methodInputs(rich, contracts, { values: {}, ...file }, richFacts);
    const order = inputs.get('EchoOrder')!.build({ kind: 'typical', text: 'x' });
    expect(
      'input' in order &&
        (order.input as { order: { Customer: { Name: string }; Priority: number; Created: string } }).order,
    ).toMatchObject({ Customer: { Name: 'Zoë' }, Priority: 7, Created: '2024-05-17T10:30:00Z' });
    const who = inputs.get('WhoAmI')!.build({ kind: 'typical', text: 'x' });
    expect('soapHeaders' in who && who.soapHeaders).toMatchObject({
      AuthHeader: { User: 'alice', Token: 't0ken-from-env' },
      SessionHeader: { Counter: 42 },
    });
  });

  it.each([
    [
      'a value of the wrong type',
      'EchoOrder:\n  input:\n    order/Priority: high\n',
      '--inputs inputs.yaml: EchoOrder/order/Priority: "high" is not an xs:int',
    ],
    [
      'a member the type does not have',
      'EchoOrder:\n  input:\n    order/Colour: Red\n',
      '--inputs inputs.yaml: EchoOrder/order/Colour: not a member of this type (members: Customer, Lines, Priority, Note, Discount, Created, Reference, Attachment, Flag, Total, Sequence, Tags, Colors, Access, Comment, Id, Version)',
    ],
    ['an unknown operation', 'Nope:\n  input: {}\n', '--inputs inputs.yaml: Nope: no such operation'],
    [
      'an undeclared SOAP header',
      'WhoAmI:\n  headers:\n    Token: x\n',
      '--inputs inputs.yaml: WhoAmI/Header/Token: WhoAmI declares no such SOAP header (AuthHeader, SessionHeader)',
    ],
    [
      'an unknown key',
      'Add:\n  inptu: {}\n',
      '--inputs inputs.yaml: Add/inptu: unknown key (an operation takes "input" and "headers")',
    ],
  ])('%s: refused with the operation and path', async (_, text, message) => {
    const file = await parseInputsFile('inputs.yaml', text, {});
    const attempt = () => {
      const inputs = methodInputs(rich, contracts, { values: {}, ...file }, richFacts);
      for (const method of inputs.values()) method.build({ kind: 'typical', text: 'x' });
    };
    expect(attempt).toThrow(ConformanceError);
    expect(attempt).toThrow(message);
  });

  it('an $env variable that is not set is an error naming it', async () => {
    await expect(
      parseInputsFile(
        'inputs.yaml',
        'WhoAmI:\n  headers:\n    AuthHeader: { Token: { $env: NOT_SET_ANYWHERE } }\n',
        {},
      ),
    ).rejects.toThrow(
      '--inputs inputs.yaml: WhoAmI/headers/AuthHeader/Token: the environment variable NOT_SET_ANYWHERE is not set',
    );
  });
});

describe('an operation the runner cannot exercise is skipped with why, never an exit 2', () => {
  it('an rpc-style operation beside a document/literal one', async () => {
    const soap = twoResultsDescriptor.bindings[0]!;
    const d: ServiceDescriptor = {
      ...twoResultsDescriptor,
      bindings: [
        {
          ...soap,
          operations: [
            ...soap.operations,
            {
              name: 'Legacy',
              method: 'legacy',
              soapAction: 'urn:legacy',
              input: { kind: 'params', params: [] },
              output: { kind: 'empty' },
              inputHeaders: [],
              outputHeaders: [],
            },
          ],
        },
      ],
    };
    const cases = buildCatalogue({ descriptor: d, inputs: { values: {} } });
    const legacy = cases.find((c) => c.id === 'Legacy/soap11/ok/plain')!;
    expect(legacy.unusable).toBe('not a document/literal operation with an input element (rpc or no input message)');
    const server = await listen(
      createRequestListener(twoResultsDescriptor, twoResultsHandlers, { logger: { error: () => {} } }),
      { host: '127.0.0.1', port: 0 },
    );
    try {
      const report = await runConformance({
        target: `${server.url}/lookup.svc`,
        descriptor: d,
        skip: ['wsdl'],
        retries: 0,
      });
      expect(report.summary.ok).toBe(true);
      expect(report.cases.find((c) => c.id === 'Legacy/soap11/ok/plain')).toMatchObject({
        status: 'skipped',
        skipReason:
          'cannot be exercised: not a document/literal operation with an input element (rpc or no input message)',
      });
      expect(report.cases.filter((c) => c.operation === 'Lookup' && c.status === 'passed').length).toBeGreaterThan(10);
    } finally {
      await server.close();
    }
    // Selected alone, the one case is skipped with its reason: the run selects nothing, exit 2 with why.
    const alone = await runConformance({
      target: 'http://127.0.0.1:9/lookup.svc',
      descriptor: d,
      operation: ['Legacy'],
      skip: ['wsdl'],
    }).catch((e: unknown) => e);
    expect((alone as Error).message).toMatch(
      /^no case selected: all \d+ cases are skipped \(.*cannot be exercised: not a document\/literal operation/,
    );
  });
});

describe('a third-party WSDL (the public calculator, served by the runtime from its own contract)', () => {
  const calcSkip = requireShared(
    'wsdl-corpus/calculator-dneonline-asmx.wsdl',
    'any-wsdl (the public calculator)',
  ).reason;
  const calcPath =
    calcSkip === undefined ? `${SHARED_FROM_ROOT}/wsdl-corpus/calculator-dneonline-asmx.wsdl` : undefined;
  let server: Listening | undefined;
  beforeAll(async () => {
    if (calcPath === undefined) return;
    const d = toDescriptor(parseWsdl(calcPath));
    const ops: Record<string, (a: number, b: number) => number> = {
      Add: (a, b) => a + b,
      Subtract: (a, b) => a - b,
      Multiply: (a, b) => a * b,
      Divide: (a, b) => Math.trunc(a / b),
    };
    const handlers = Object.fromEntries(
      Object.entries(ops).map(([name, f]) => [
        name,
        ({ intA, intB }: { intA: number; intB: number }) => ({ [`${name}Result`]: f(intA, intB) }),
      ]),
    );
    server = await listen(createRequestListener(d, handlers, { logger: { error: () => {} } }), {
      host: '127.0.0.1',
      port: 0,
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it.skipIf(calcPath === undefined)('--param intA=6 --param intB=3: every case passes', async () => {
    const { out, io } = captureIo();
    const outcome = await executeConformance(
      parse([
        '--wsdl',
        calcPath!,
        '--target',
        `${server!.url}/calculator.asmx`,
        '--param',
        'intA=6',
        '--param',
        'intB=3',
        '--skip',
        'wsdl',
        '--retries',
        '0',
      ]),
      io,
    );
    expect(out.stdout).toMatch(/^PASS \(--fail-on must\): \d+ cases, \d+ passed, 0 failed, 1 skipped/m);
    expect(outcome).toBe('passed');
    expect(out.stdout).not.toMatch(/expected an integer/);
  });

  it.skipIf(calcPath === undefined)(
    '--list with typed parameters sends nothing and contracts the negative cases per type',
    async () => {
      const { out, io } = captureIo();
      expect(
        await executeConformance(
          parse([
            '--wsdl',
            calcPath!,
            '--target',
            'http://127.0.0.1:9/calculator.asmx',
            '--param',
            'intA=6',
            '--param',
            'intB=3',
            '--list',
          ]),
          io,
        ),
      ).toBe('listed');
      expect(out.stdout).toContain('  Add/soap11/invalid/not-a-number');
      expect(out.stdout).toContain('  Divide/soap12/invalid/missing-element');
    },
  );
});
