/**
 * A structural summary of a contract, for comparing the server's `?wsdl` with the one the run
 * uses: one line per fact that a client depends on — bindings, their operations, soapActions,
 * HTTP paths, message element QNames, and each wrapper's field QNames in order. Addresses,
 * documentation and prefixes are left out on purpose (the server rewrites addresses).
 *
 * Each line is `<key> = <value>`, so a difference can be shown as expected/actual per key.
 */
import type { BodyDescriptor, ServiceDescriptor, ValueDescriptor } from '../../runtime/descriptor.js';

function fieldsOf(d: ServiceDescriptor, value: ValueDescriptor): string {
  if (value.kind === 'primitive') return `xs:${value.xsd}`;
  if (value.kind === 'xml') return 'xml';
  const type = d.types[value.type];
  if (type === undefined) return `missing type ${value.type}`;
  if (type.kind === 'simple') return `xs:${type.xsd}`;
  return `(${type.fields.map((f) => `{${f.name.ns}}${f.name.local}`).join(', ')})`;
}

function bodyLine(body: BodyDescriptor): string {
  switch (body.kind) {
    case 'element':
      return body.element;
    case 'params':
      return `params(${body.params.map((p) => p.name).join(', ')})`;
    case 'xml-result':
      return `document ${body.element}`;
    case 'empty':
      return 'none';
  }
}

function elementKeys(body: BodyDescriptor): string[] {
  return body.kind === 'element' || body.kind === 'xml-result' ? [body.element] : [];
}

export function summarizeDescriptor(d: ServiceDescriptor): string[] {
  const lines: string[] = [`targetNamespace = ${d.targetNamespace}`];
  const elements = new Set<string>();
  for (const binding of d.bindings) {
    const b = `binding ${binding.protocol}`;
    lines.push(`${b} operations = ${binding.operations.map((o) => o.name).join(', ')}`);
    for (const op of binding.operations) {
      const o = `${b} operation ${op.name}`;
      if (op.soapAction !== undefined) lines.push(`${o} soapAction = "${op.soapAction}"`);
      if (op.httpPath !== undefined) lines.push(`${o} path = ${op.httpPath}`);
      lines.push(`${o} input = ${bodyLine(op.input)}`, `${o} output = ${bodyLine(op.output)}`);
      for (const key of [...elementKeys(op.input), ...elementKeys(op.output)]) elements.add(key);
    }
  }
  for (const key of elements) {
    const element = d.elements[key];
    lines.push(`element ${key} = ${element === undefined ? 'undeclared' : fieldsOf(d, element.value)}`);
  }
  return lines;
}

export interface SummaryDifference {
  readonly key: string;
  readonly expected: string;
  readonly actual: string;
}

function toMap(lines: readonly string[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of lines) {
    const eq = line.indexOf(' = ');
    map.set(eq < 0 ? line : line.slice(0, eq), eq < 0 ? '' : line.slice(eq + 3));
  }
  return map;
}

/** Every key whose value differs, is missing, or is extra, in the contract's order first. */
export function compareSummaries(contract: readonly string[], served: readonly string[]): SummaryDifference[] {
  const want = toMap(contract);
  const got = toMap(served);
  const differences: SummaryDifference[] = [];
  for (const [key, value] of want) {
    const actual = got.get(key);
    if (actual !== value) differences.push({ key, expected: value, actual: actual ?? '(absent)' });
  }
  for (const [key, value] of got) if (!want.has(key)) differences.push({ key, expected: '(absent)', actual: value });
  return differences;
}
