/**
 * Table tests: a reference to an element that heads a substitution group is read as the choice
 * of the elements that may stand in its place (XSD 1.0 Part 1 §3.3.4: the head unless abstract,
 * every member transitively, each under its own name), unless the head's block, or its schema's
 * blockDefault, forbids substitution.
 */
import { describe, expect, it } from 'vitest';
import type { ComplexType, Particle } from '../../../contract/model/index.js';
import { contractFromText } from '../../../contract/read/index.js';

const XSD = 'http://www.w3.org/2001/XMLSchema';

/**
 * The particles of type T's sequence, in a schema with `elements` declared globally: `ref`, then
 * a reference to `ctl`, a head that allows substitution, so every row shows the two side by side.
 */
function particlesOf(elements: string, ref: string, schemaAttrs = ''): Particle[] {
  const model = contractFromText(
    `<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:s="${XSD}" xmlns:tns="urn:t" targetNamespace="urn:t">
<wsdl:types><s:schema targetNamespace="urn:t" elementFormDefault="qualified" ${schemaAttrs}>${elements}
<s:element name="ctl" type="s:string" block=""/><s:element name="ctlSub" type="s:string" substitutionGroup="tns:ctl"/>
<s:complexType name="T"><s:sequence>${ref}<s:element ref="tns:ctl"/></s:sequence></s:complexType></s:schema></wsdl:types></wsdl:definitions>`,
    'mem.wsdl',
  );
  return (model.schema.types['{urn:t}T'] as ComplexType).content!.particles as Particle[];
}

/** A particle as `name` or `choice(min..max of a b c, head h)`. */
function shown(p: Particle): string {
  if (p.kind === 'element')
    return `${p.name.local}${p.minOccurs === 1 && p.maxOccurs === 1 ? '' : `{${p.minOccurs},${p.maxOccurs}}`}`;
  if (p.kind === 'any') return 'any';
  return `${p.kind}{${p.minOccurs},${p.maxOccurs}}(${p.particles.map(shown).join(' ')}; head ${p.substitutionHead?.local ?? '-'})`;
}

const el = (name: string, extra = '') => `<s:element name="${name}" type="s:string"${extra}/>`;
const member = (name: string, head: string, extra = '') => el(name, ` substitutionGroup="tns:${head}"${extra}`);

const cases: [string, { elements: string; ref: string; schemaAttrs?: string; want: string[] }][] = [
  [
    'an abstract head: its members only, with the reference occurrences',
    {
      elements: el('shape', ' abstract="true"') + member('circle', 'shape') + member('square', 'shape'),
      ref: '<s:element ref="tns:shape" minOccurs="0" maxOccurs="unbounded"/>',
      want: ['choice{0,unbounded}(circle square; head shape)'],
    },
  ],
  [
    'a head that is not abstract stands for itself too, first',
    {
      elements: el('note') + member('urgentNote', 'note'),
      ref: '<s:element ref="tns:note"/>',
      want: ['choice{1,1}(note urgentNote; head note)'],
    },
  ],
  [
    'members of members, transitively, in document order; an abstract member is left out, its own members kept',
    {
      elements:
        el('shape', ' abstract="true"') +
        member('circle', 'round') +
        member('round', 'shape', ' abstract="true"') +
        member('square', 'shape'),
      ref: '<s:element ref="tns:shape"/>',
      want: ['choice{1,1}(circle square; head shape)'],
    },
  ],
  [
    'block="substitution" on the head: the head alone',
    {
      elements: el('stamp', ' block="substitution"') + member('forged', 'stamp'),
      ref: '<s:element ref="tns:stamp"/>',
      want: ['stamp'],
    },
  ],
  [
    'block="#all" on the head: the head alone',
    {
      elements: el('stamp', ' block="#all"') + member('forged', 'stamp'),
      ref: '<s:element ref="tns:stamp"/>',
      want: ['stamp'],
    },
  ],
  [
    "the schema's blockDefault",
    {
      elements: el('stamp') + member('forged', 'stamp'),
      ref: '<s:element ref="tns:stamp"/>',
      schemaAttrs: 'blockDefault="substitution"',
      want: ['stamp'],
    },
  ],
  [
    'block="extension" does not block a member of the same type',
    {
      elements: el('stamp', ' block="extension"') + member('forged', 'stamp'),
      ref: '<s:element ref="tns:stamp"/>',
      want: ['choice{1,1}(stamp forged; head stamp)'],
    },
  ],
  [
    'a head of no group: the element',
    { elements: el('tag'), ref: '<s:element ref="tns:tag" maxOccurs="3"/>', want: ['tag{1,3}'] },
  ],
  [
    'a local element is never substituted',
    { elements: el('note') + member('urgentNote', 'note'), ref: el('note'), want: ['note'] },
  ],
];

describe('references to the head of a substitution group', () => {
  it.each(cases)('%s', (_name, { elements, ref, schemaAttrs, want }) => {
    expect(particlesOf(elements, ref, schemaAttrs).map(shown)).toEqual([...want, 'choice{1,1}(ctl ctlSub; head ctl)']);
  });
});
