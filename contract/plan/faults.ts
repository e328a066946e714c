/**
 * An operation's wsdl:faults as smskit carries them: typed when the fault's message is one part
 * naming a declared element (WS-I BP R2205; JAX-WS `@WebFault`, PHP and WCF fault contracts
 * publish them so), else untyped with why. The descriptor lists the typed ones (the runtime
 * reads and writes their detail); the generated JSDoc names both.
 */
import { clark, type PortTypeOperation, type WsdlModel } from '../model/index.js';
import type { SchemaPlan } from './schema.js';

export type PlannedFault =
  | { readonly name: string /** Clark key of the detail element. */; readonly element: string }
  | { readonly name: string /** Why its detail stays raw XML. */; readonly untyped: string };

export function planFaults(model: WsdlModel, schema: SchemaPlan, op: PortTypeOperation): PlannedFault[] {
  return op.faults.map(({ name, message: messageName }): PlannedFault => {
    const untyped = (why: string): PlannedFault => ({ name, untyped: why });
    // WSDL 1.1 §2.4.1: a one-way operation has no fault; nothing would carry one back.
    if (op.output === undefined) return untyped('a one-way operation answers no fault (WSDL 1.1 §2.4.1)');
    const message = model.messages.find((m) => clark(m.name) === clark(messageName));
    if (message === undefined) return untyped(`its message ${messageName.local} is not declared`);
    if (message.parts.length !== 1)
      return untyped(`its message ${message.name.local} has ${message.parts.length} parts (WS-I BP R2205 wants one)`);
    const part = message.parts[0]!;
    if (part.element === undefined)
      return untyped(`its part ${part.name} names a type, not an element (WS-I BP R2205)`);
    const element = clark(part.element);
    if (model.schema.elements[element] === undefined) return untyped(`its element ${element} is not declared`);
    // An element the schema plan left out (a construct it cannot model) has a warning of its own.
    if (!schema.elements.has(element)) return untyped(`its element ${element} is left out`);
    return { name, element };
  });
}

/** The typed faults: what the descriptor lists. */
export function typedFaults(faults: readonly PlannedFault[]): { name: string; element: string }[] {
  return faults.flatMap((f) => ('element' in f ? [{ name: f.name, element: f.element }] : []));
}
