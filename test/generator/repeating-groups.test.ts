/**
 * A repeating group of several members — `(key, value)*`, a repeating choice as JAXB publishes
 * `@XmlElements` lists — is one property holding an object per occurrence, in document order,
 * typed in the generated code. A group whose occurrences cannot be found again from the
 * elements' names (`(a?, b?)*`) keeps its type as XML, with a warning that says why. An optional
 * choice and a repeating group of one member stay flattened, as before.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { generate, parseWsdl } from '../../generator/index.js';
import type { ModelWarning } from '../../contract/model/index.js';
import { repoRoot } from '../fixtures/models/golden-inputs.js';
import { compileBeside } from '../helpers/compile-beside.js';

const WSDL = 'test/fixtures/wsdl-partial/repeating-groups.wsdl';

beforeAll(() => {
  process.chdir(repoRoot);
});

function generateWithWarnings(): { files: Map<string, string>; warnings: ModelWarning[] } {
  const warnings: ModelWarning[] = [];
  const files = generate(parseWsdl(WSDL), { toolVersion: '0.0.0-test', onWarning: (w) => warnings.push(w) });
  return { files, warnings };
}

describe('repeating groups of several members', () => {
  it('are typed properties of occurrence objects; only the ambiguous group is kept as XML, with why', () => {
    const { files, warnings } = generateWithWarnings();
    expect(warnings.map((w) => [w.code, w.source.file, w.source.line, w.message])).toEqual([
      [
        'REPEATING_GROUP_AS_XML',
        WSDL,
        46,
        'the type of element {urn:groups}Loose is kept as XML (XmlElement): its <sequence maxOccurs="unbounded"> repeats a, b, and none of its members occurs exactly once in each occurrence, so where one occurrence ends and the next begins is not in the document; the XmlElement keeps every child in document order',
      ],
    ]);
    const types = files.get('groups/types.ts') ?? '';
    expect(types).toMatch(/export interface Pairs \{\n[^\n]*\n {2}keyAndValue: Pairs_KeyAndValue\[\];/);
    expect(types).toMatch(
      /export interface Pairs_KeyAndValue \{\n[^\n]*\n {2}key: string;\n[^\n]*\n {2}value: string;\n\}/,
    );
    expect(types).toMatch(/circleOrSquare\?: Draw_CircleOrSquare\[\];/);
    expect(types).toContain(
      'export type Draw_CircleOrSquare = { circle: number; square?: never; } | { square: number; circle?: never; };',
    );
    expect(types).toMatch(/keyAndValue\?: Ledger_KeyAndValue\[\];/);
    expect(types).toMatch(/Repeating sequence \(WSDL line 19\): one object per occurrence, in document order/);
    const client = files.get('groups/client.ts') ?? '';
    for (const method of ['Ping', 'Tag', 'Draw', 'Ledger', 'Loose', 'Pick'])
      expect(client).toMatch(new RegExp(`\\b${method}\\(`));
    expect(client).toMatch(/Draw\(input: Draw,/);
    expect(client).toMatch(/Loose\(input: XmlElement,/);
  });

  it('an optional choice and a repeating sequence of one element stay flattened members', () => {
    const types = generateWithWarnings().files.get('groups/types.ts') ?? '';
    expect(types).toMatch(/byId\?: number;/);
    expect(types).toMatch(/byName\?: string;/);
    expect(types).toMatch(/tag: string\[\];/);
  });

  it('user code compiles against the types under strict, and an occurrence of two choice members does not', () => {
    const user = `import type { Draw, Ledger, Tag } from './gen/groups/types.js';
const tag: Tag = { pairs: { keyAndValue: [{ key: 'a', value: '1' }, { key: 'b', value: '2' }] } };
const ledger: Ledger = { owner: 'o', keyAndValue: [{ key: 'a' }, { key: 'b', value: 2 }], total: 3 };
const draw: Draw = { circleOrSquare: [{ circle: 1 }, { square: 2 }] };
let sum = 0;
for (const shape of draw.circleOrSquare ?? []) sum += shape.circle !== undefined ? shape.circle : shape.square;
// @ts-expect-error one occurrence of a choice holds one member
const both: Draw = { circleOrSquare: [{ circle: 1, square: 2 }] };
// @ts-expect-error an occurrence of the sequence needs its key
const keyless: Tag = { pairs: { keyAndValue: [{ value: '1' }] } };
export { tag, ledger, sum, both, keyless };
`;
    expect(compileBeside(generateWithWarnings().files, user, 'test/golden/.repeating-groups')).toEqual([]);
  });
});
