/** JSDoc of a service method: WSDL documentation, then how each binding carries it. */
import type { OptionalKind, JSDocStructure } from 'ts-morph';
import { cleanDocumentation, jsDoc } from './docs.js';
import type { SchemaPlan } from '../../contract/plan/schema.js';
import { operationKey, type PlannedOperation, type ServicePlan } from '../../contract/plan/service.js';
import { TypeText } from './type-text.js';

export function operationDocs(op: PlannedOperation, ...extra: (string | undefined)[]): OptionalKind<JSDocStructure>[] {
  const lines = op.bound.map(({ binding, operation }) => {
    if (binding.protocol === 'soap11' || binding.protocol === 'soap12') {
      return `- ${binding.protocol} (${binding.name.local}): SOAPAction \`${operation.soapAction ?? ''}\``;
    }
    return `- ${binding.protocol} (${binding.name.local}): ${binding.verb ?? (binding.protocol === 'http-get' ? 'GET' : 'POST')} \`${operation.httpLocation ?? ''}\``;
  });
  const name =
    op.method === op.name ? `Operation \`${op.name}\`.` : `Operation \`${op.name}\` (method \`${op.method}\`).`;
  return jsDoc(
    cleanDocumentation(op.documentation),
    `${name} Bindings:\n${lines.join('\n')}`,
    oneWayText(op),
    ...extra,
  );
}

/** A one-way operation's promise says the message arrived, not what became of it (WS-I BP R2727). */
function oneWayText(op: PlannedOperation): string | undefined {
  const oneWay = op.bound.some(({ operation }) => operation.portTypeOperation.output === undefined);
  return oneWay
    ? 'One-way (no output message): over SOAP the service answers 202 (or 200) with no body.\n' +
        'That says the message arrived, not that it was processed: a refusal is not sent back.'
    : undefined;
}

/** Where the operation is missing and why: the service's bindings that cannot carry it. */
export function omittedText(op: PlannedOperation, service: ServicePlan): string | undefined {
  const lines = service.bindings.flatMap(({ binding, omitted }) =>
    omitted
      .filter((o) => operationKey(o.operation) === op.key)
      .map((o) => `- ${binding.protocol} (${binding.name.local}): ${o.reason}`),
  );
  return lines.length > 0 ? `Not available on:\n${lines.join('\n')}` : undefined;
}

/**
 * The operation's wsdl:faults: how a client reads a typed one and how a handler sends it, and
 * why any other is not typed (its detail stays raw XML); see contract/plan/faults.ts.
 */
export function faultsText(schema: SchemaPlan, op: PlannedOperation, side: 'client' | 'server'): string | undefined {
  if (op.faults.length === 0) return undefined;
  // Type names for the text only: a TypeText of its own, so nothing is imported for them.
  const names = new TypeText(schema);
  const typed: string[] = [];
  const untyped: string[] = [];
  for (const fault of op.faults) {
    if ('untyped' in fault) {
      untyped.push(`- \`${fault.name}\`: ${fault.untyped}`);
      continue;
    }
    const { name } = fault;
    const type = names.value(schema.elements.get(fault.element)!.value);
    typed.push(
      side === 'client'
        ? `- \`${name}\`: \`SoapFaultError.fault\` is \`{ name: '${name}', value: ${type} }\` (\`ReceivedFault<'${name}', ${type}>\`)`
        : `- \`${name}\`: \`throw new DeclaredFault('${name}', detail)\`, \`detail\` of type \`${type}\``,
    );
  }
  const heading =
    side === 'client'
      ? 'Declared faults (SOAP), read from the fault detail:'
      : 'Declared faults (SOAP), sent by throwing:';
  const notTyped =
    side === 'client'
      ? 'Not typed (its detail stays raw XML, `detailXml`):'
      : 'Not typed (a handler cannot send its detail):';
  return [
    ...(typed.length > 0 ? [`${heading}\n${typed.join('\n')}`] : []),
    ...(untyped.length > 0 ? [`${notTyped}\n${untyped.join('\n')}`] : []),
  ].join('\n\n');
}
