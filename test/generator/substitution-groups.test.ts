/**
 * Elements that may be substituted (XSD 1.0 Part 1 §3.3.4): where an element of a substitution
 * group is referred to, any member may stand in its place under its own name. The generated
 * types say which one was present (a choice: one property per member, or one object per
 * occurrence when the reference repeats), and the runtime writes and reads each under its name.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { generate, parseWsdl, toDescriptor } from '../../generator/index.js';
import { decodeElement, encodeElement } from '../../runtime/codec/index.js';
import { readXml } from '../../runtime/xml/reader.js';
import { codecRefusal } from '../helpers/codec-refusal.js';
import { repoRoot } from '../fixtures/models/golden-inputs.js';
import { compileBeside } from '../helpers/compile-beside.js';

const WSDL = 'test/fixtures/wsdl-partial/substitution-groups.wsdl';

beforeAll(() => {
  process.chdir(repoRoot);
});

describe('the generated types of a substitutable reference', () => {
  const files = () => generate(parseWsdl(WSDL), { toolVersion: '0.0.0-test' });

  it('a repeated reference to an abstract head: one object per occurrence, named after the head', () => {
    const types = files().get('shapes/types.ts')!;
    expect(types).toMatch(/ {2}shape: Drawing_Shape\[\];/);
    expect(types).toContain(
      'export type Drawing_Shape = { circle: Circle; square?: never; } | { square: Square; circle?: never; };',
    );
  });

  it('a single reference: the head and its substitutes as the members of a choice; a blocked head alone', () => {
    const types = files().get('shapes/types.ts')!;
    expect(types).toMatch(/export interface Memo \{[\s\S]*?note\?: string;[\s\S]*?urgentNote\?: string;\n\}/);
    expect(types).toMatch(/export interface Stamp \{\n[^\n]*\n {2}stamp: string;\n\}/);
  });

  it('compiles under strict, and an occurrence of two shapes does not', () => {
    const user = `import type { Draw, Memo } from './gen/shapes/types.js';
const draw: Draw = { drawing: { shape: [{ circle: { label: 'c', radius: 1 } }, { square: { label: 's', side: 2 } }] } };
const memo: Memo = { urgentNote: 'now' };
// @ts-expect-error one occurrence is one element
const both: Draw = { drawing: { shape: [{ circle: { label: 'c', radius: 1 }, square: { label: 's', side: 2 } }] } };
export { draw, memo, both };
`;
    expect(compileBeside(files(), user, 'test/golden/.substitution-groups')).toEqual([]);
  });
});

describe('on the wire', () => {
  const d = toDescriptor(parseWsdl(WSDL));
  const element = (local: string) => d.elements[`{urn:shapes}${local}`]!;
  const encode = (local: string, value: unknown) =>
    encodeElement(d, element(local).name, element(local).value, value, false, '', local);
  const decode = (local: string, xml: string) =>
    decodeElement(d, element(local).value, readXml(xml).root, false, local);

  it('each substitute under its own name, in document order, both ways', () => {
    const value = { drawing: { shape: [{ circle: { label: 'c', radius: 1 } }, { square: { label: 's', side: 2 } }] } };
    const xml =
      '<Draw xmlns="urn:shapes"><drawing><circle><label>c</label><radius>1</radius></circle><square><label>s</label><side>2</side></square></drawing></Draw>';
    expect(encode('Draw', value)).toBe(xml);
    expect(decode('Draw', xml)).toEqual(value);
  });

  it('a substitute arriving in place of a head that is not abstract is read as itself', () => {
    expect(decode('Memo', '<Memo xmlns="urn:shapes"><urgentNote>now</urgentNote></Memo>')).toEqual({
      urgentNote: 'now',
    });
    expect(decode('Memo', '<Memo xmlns="urn:shapes"><note>later</note></Memo>')).toEqual({ note: 'later' });
    expect(encode('Memo', { urgentNote: 'now' })).toBe('<Memo xmlns="urn:shapes"><urgentNote>now</urgentNote></Memo>');
  });

  it('refuses the abstract head itself, and a substitute where the head blocks substitution', () => {
    expect(
      codecRefusal(() =>
        decode('Draw', '<Draw xmlns="urn:shapes"><drawing><shape><label>x</label></shape></drawing></Draw>'),
      ),
    ).toEqual(['CODEC_UNEXPECTED', 'Draw/drawing/shape', 'unexpected element {urn:shapes}shape']);
    expect(
      codecRefusal(() => decode('Stamp', '<Stamp xmlns="urn:shapes"><forgedStamp>x</forgedStamp></Stamp>')),
    ).toEqual(['CODEC_UNEXPECTED', 'Stamp/forgedStamp', 'unexpected element {urn:shapes}forgedStamp']);
  });
});
