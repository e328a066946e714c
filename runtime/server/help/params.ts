/**
 * An operation's parameters and results as the help page lists them: name, type and whether it
 * is required. They are the SOAP message's wrapper fields (the names the caller fills, the same
 * object on every binding), or the HTTP parameters for an operation only HTTP carries.
 */
import type { BodyDescriptor, FieldDescriptor, ServiceDescriptor, ValueDescriptor } from '../../descriptor.js';
import type { HttpOperation } from '../../http/binding.js';
import type { HelpOperation } from './site.js';

export interface ParameterRow {
  readonly name: string;
  readonly type: string;
  readonly use: string;
}

function localName(key: string): string {
  const close = key.lastIndexOf('}');
  return close < 0 ? key : key.slice(close + 1);
}

function enumerated(xsd: string, values: readonly string[] | undefined): string {
  return values === undefined || values.length === 0 ? xsd : `${xsd}: ${values.join(' | ')}`;
}

export function typeLabel(d: ServiceDescriptor, vd: ValueDescriptor): string {
  if (vd.kind === 'primitive') return enumerated(vd.xsd, vd.enumeration);
  if (vd.kind === 'xml') return 'XML';
  const type = d.types[vd.type];
  if (type === undefined) return localName(vd.type);
  if (type.kind === 'simple')
    return type.list === true
      ? `list of ${enumerated(type.xsd, type.enumeration)}`
      : enumerated(type.xsd, type.enumeration);
  if (type.arrayItem !== undefined) return `${typeLabel(d, type.arrayItem.value)}[]`;
  return type.name?.local ?? localName(vd.type);
}

function fieldRow(d: ServiceDescriptor, f: FieldDescriptor): ParameterRow {
  const type = f.wildcard === true ? 'XML' : typeLabel(d, f.value);
  const use = [
    f.minOccurs > 0 && f.inChoice !== true ? 'required' : 'optional',
    ...(f.nillable ? ['nillable'] : []),
  ].join(', ');
  return { name: f.name.local, type: f.maxOccurs === 1 ? type : `${type}[]`, use };
}

/** The fields of a document/literal wrapper element, or the element itself when it is no wrapper. */
function bodyRows(d: ServiceDescriptor, body: BodyDescriptor): ParameterRow[] {
  if (body.kind !== 'element') return [];
  const element = d.elements[body.element];
  if (element === undefined) return [];
  const type = element.value.kind === 'type' ? d.types[element.value.type] : undefined;
  if (type?.kind === 'complex' && type.arrayItem === undefined && type.text === undefined)
    return type.fields.map((f) => fieldRow(d, f));
  return [
    { name: element.name.local, type: typeLabel(d, element.value), use: element.nillable ? 'nillable' : 'required' },
  ];
}

function httpRows(hop: HttpOperation): ParameterRow[] {
  return hop.params.map((p) => ({
    name: p.name,
    type: `${enumerated(p.xsd, p.enumeration)}${p.repeated ? '[]' : ''}`,
    use: p.required ? 'required' : 'optional',
  }));
}

export function parameterRows(d: ServiceDescriptor, op: HelpOperation): ParameterRow[] {
  for (const b of op.bindings) if ('op' in b) return bodyRows(d, b.op.input);
  for (const b of op.bindings) if ('hop' in b) return httpRows(b.hop);
  return [];
}

export function resultRows(d: ServiceDescriptor, op: HelpOperation): ParameterRow[] {
  for (const b of op.bindings) if ('op' in b) return bodyRows(d, b.op.output);
  for (const b of op.bindings) {
    if (!('hop' in b) || b.hop.result === undefined) continue;
    const element = d.elements[b.hop.result.elementKey];
    if (element !== undefined)
      return [
        {
          name: b.hop.result.field,
          type: typeLabel(d, element.value),
          use: element.nillable ? 'nillable' : 'required',
        },
      ];
  }
  return [];
}

/** The SOAP header blocks a request carries, by element name. */
export function headerRows(d: ServiceDescriptor, op: HelpOperation): ParameterRow[] {
  for (const b of op.bindings) {
    if (!('op' in b)) continue;
    return b.op.inputHeaders.map((h) => {
      const element = d.elements[h.element];
      return {
        name: element?.name.local ?? localName(h.element),
        type: element === undefined ? '' : typeLabel(d, element.value),
        use: 'SOAP header',
      };
    });
  }
  return [];
}
