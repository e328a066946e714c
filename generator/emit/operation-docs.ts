/** JSDoc of a service method: WSDL documentation, then how each binding carries it. */
import type { OptionalKind, JSDocStructure } from 'ts-morph';
import { cleanDocumentation, jsDoc } from './docs.js';
import { operationKey, type PlannedOperation, type ServicePlan } from '../../contract/plan/service.js';

export function operationDocs(op: PlannedOperation, extra?: string): OptionalKind<JSDocStructure>[] {
  const lines = op.bound.map(({ binding, operation }) => {
    if (binding.protocol === 'soap11' || binding.protocol === 'soap12') {
      return `- ${binding.protocol} (${binding.name.local}): SOAPAction \`${operation.soapAction ?? ''}\``;
    }
    return `- ${binding.protocol} (${binding.name.local}): ${binding.verb ?? (binding.protocol === 'http-get' ? 'GET' : 'POST')} \`${operation.httpLocation ?? ''}\``;
  });
  const name =
    op.method === op.name ? `Operation \`${op.name}\`.` : `Operation \`${op.name}\` (method \`${op.method}\`).`;
  return jsDoc(cleanDocumentation(op.documentation), `${name} Bindings:\n${lines.join('\n')}`, oneWayText(op), extra);
}

/** A one-way operation's promise says the message arrived, not what became of it (WS-I BP R2727). */
function oneWayText(op: PlannedOperation): string | undefined {
  const oneWay = op.bound.some(({ operation }) => operation.portTypeOperation.output === undefined);
  return oneWay
    ? 'One-way (no output message): the service answers 202 with no body once it has the message.\n' +
        'That says it arrived, not that it was processed: a refusal is not sent back.'
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
