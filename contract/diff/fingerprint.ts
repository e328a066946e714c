/**
 * An operation's messages without their names, to recognise a renamed operation: ASMX names
 * the Body elements after the method (`Foo`, `FooResponse`) and the result member `FooResult`,
 * so a rename changes those and nothing else. Member types are named, not expanded (enough to
 * tell operations apart, and cycle-free).
 */
import type { OperationDescriptor, ServiceDescriptor, ValueDescriptor } from '../../runtime/descriptor.js';

export function operationFingerprint(d: ServiceDescriptor, op: OperationDescriptor): string {
  return JSON.stringify([
    body(d, op.input, op.name),
    body(d, op.output, op.name),
    op.inputHeaders.map((h) => h.prop),
    op.outputHeaders.map((h) => h.prop),
  ]);
}

function body(d: ServiceDescriptor, b: OperationDescriptor['input'], opName: string): unknown {
  if (b.kind === 'empty') return 'empty';
  if (b.kind === 'params') return b.params.map((p) => [p.name, value(d, p.value)]);
  const element = d.elements[b.element];
  if (element === undefined) return 'unknown';
  if (element.value.kind !== 'type') return value(d, element.value);
  const type = d.types[element.value.type];
  if (type?.kind !== 'complex') return value(d, element.value);
  // The wrapper's members, the method-named result member anonymised.
  return type.fields.map((f) => [
    f.name.local === `${opName}Result` ? '*Result' : f.name.local,
    value(d, f.value),
    f.minOccurs,
    f.maxOccurs,
    f.nillable,
  ]);
}

function value(d: ServiceDescriptor, vd: ValueDescriptor): string {
  if (vd.kind === 'xml') return 'xml';
  if (vd.kind === 'primitive') return `${vd.xsd}${vd.enumeration === undefined ? '' : `(${vd.enumeration.join('|')})`}`;
  const close = vd.type.lastIndexOf('}');
  return d.types[vd.type]?.kind === 'simple' ? 'simple' : vd.type.slice(close + 1);
}
