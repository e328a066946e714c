/**
 * JSDoc text: WSDL documentation first, then the XSD facts a caller needs (wire QName,
 * occurrence, nillable, enumeration, facets), so hovering a member answers "what goes on the wire".
 */
import type { JSDocStructure, OptionalKind } from 'ts-morph';
import type { MaxOccurs, QName, SimpleType } from '../../contract/model/index.js';

/** WSDL documentation as JSDoc-safe text: normalised line ends, no comment terminator. */
export function cleanDocumentation(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const lines = text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.trimEnd());
  while (lines.length > 0 && lines[0]!.trim() === '') lines.shift();
  while (lines.length > 0 && lines.at(-1)!.trim() === '') lines.pop();
  const indent = Math.min(...lines.filter((l) => l.trim() !== '').map((l) => /^\s*/.exec(l)![0].length));
  const cleaned = lines.map((l) => l.slice(Number.isFinite(indent) ? indent : 0)).join('\n');
  return cleaned === '' ? undefined : cleaned;
}

export function jsDoc(...paragraphs: (string | undefined)[]): OptionalKind<JSDocStructure>[] {
  // A comment terminator inside WSDL text would end the JSDoc early.
  const text = paragraphs
    .filter((p): p is string => p !== undefined && p !== '')
    .join('\n\n')
    .replace(/\*\//g, '*\\/');
  return text === '' ? [] : [{ description: text }];
}

export function wireName(name: QName): string {
  return name.ns === '' ? `\`${name.local}\` (no namespace)` : `\`{${name.ns}}${name.local}\``;
}

export function occurrence(minOccurs: number, maxOccurs: MaxOccurs, nillable: boolean): string {
  return `minOccurs ${minOccurs}, maxOccurs ${maxOccurs}${nillable ? ', nillable' : ''}`;
}

export function facetText(type: SimpleType): string | undefined {
  const facts: string[] = [];
  for (const [facet, value] of Object.entries(type.facets)) {
    if (value === undefined) continue;
    facts.push(
      `${facet} ${Array.isArray(value) ? value.map((v) => `\`${String(v)}\``).join(' | ') : `\`${String(value)}\``}`,
    );
  }
  return facts.length > 0 ? `Facets: ${facts.join('; ')}` : undefined;
}
