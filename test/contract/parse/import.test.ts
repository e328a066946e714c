/** Local imports: a WSDL importing a WSDL, whose schema imports an XSD that includes another. */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseWsdl } from '../../../contract/parse/index.js';
import { repoRoot } from '../../fixtures/models/golden-inputs.js';

const dir = 'test/fixtures/wsdl-import';

beforeAll(() => {
  process.chdir(repoRoot);
});

describe('parse: local wsdl:import, xs:import and xs:include', () => {
  it('reads every file once, in order, and hashes them in read order', () => {
    const reads: string[] = [];
    const model = parseWsdl(`${dir}/main.wsdl`, {
      readFile: (abs) => {
        reads.push(path.relative(repoRoot, abs));
        return readFileSync(abs);
      },
    });
    const order = ['main.wsdl', 'abstract.wsdl', 'types/quotes.xsd', 'types/common.xsd'].map((f) => `${dir}/${f}`);
    // common.xsd includes quotes.xsd back: the cycle is followed once, not forever.
    expect(reads).toEqual(order);
    const hash = createHash('sha256');
    for (const f of order) hash.update(readFileSync(f));
    expect(model.hash).toBe(hash.digest('hex'));
    expect(model.file).toBe(`${dir}/main.wsdl`);
  });

  it('resolves names across files by namespace, with per-file locations', () => {
    const model = parseWsdl(`${dir}/main.wsdl`);
    expect(model.targetNamespace).toBe('urn:main');
    expect(model.documentation).toBe(
      'Root of the import fixture: imports the abstract WSDL, adds binding and service.',
    );
    expect(model.schema.namespaces).toEqual(['urn:main', 'urn:types']);
    expect(Object.keys(model.schema.elements)).toEqual(['{urn:types}GetQuote', '{urn:types}GetQuoteResponse']);
    // The chameleon include takes the includer's namespace.
    expect(Object.keys(model.schema.types)).toEqual(['{urn:types}Symbol', '{urn:types}Quote']);
    expect(model.schema.types['{urn:types}Quote']!.source).toEqual({ file: `${dir}/types/common.xsd`, line: 11 });
    expect(model.messages.map((m) => [m.name.local, m.source.file])).toEqual([
      ['GetQuoteIn', `${dir}/abstract.wsdl`],
      ['GetQuoteOut', `${dir}/abstract.wsdl`],
    ]);
    const binding = model.bindings[0]!;
    expect(binding.protocol).toBe('soap12');
    expect(binding.operations[0]!.portTypeOperation.source).toEqual({ file: `${dir}/abstract.wsdl`, line: 15 });
    expect(model.services[0]!.ports[0]).toMatchObject({
      address: 'http://localhost/quotes',
      addressNamespace: 'http://schemas.xmlsoap.org/wsdl/soap12/',
    });
  });

  it('reads through options.readFile only (an in-memory file system)', () => {
    const files = new Map([
      [path.resolve('/virtual/a.wsdl'), readFileSync(`${dir}/main.wsdl`, 'utf8')],
      [path.resolve('/virtual/abstract.wsdl'), readFileSync(`${dir}/abstract.wsdl`, 'utf8')],
      [path.resolve('/virtual/types/quotes.xsd'), readFileSync(`${dir}/types/quotes.xsd`, 'utf8')],
      [path.resolve('/virtual/types/common.xsd'), readFileSync(`${dir}/types/common.xsd`, 'utf8')],
    ]);
    const model = parseWsdl('/virtual/a.wsdl', {
      readFile: (abs) => {
        const text = files.get(abs);
        if (text === undefined) throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
        return text;
      },
    });
    expect(model.schema.types['{urn:types}Symbol']!.source.file).toBe('/virtual/types/common.xsd');
  });
});
