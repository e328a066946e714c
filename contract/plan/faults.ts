/**
 * What a wsdl:fault's detail holds: one declared element (WS-I BP R2205: a fault message has one
 * part, and it names an element), or why it cannot be typed. Shared by the descriptor (which
 * types the faults it can) and the generated JSDoc (which says why the others are not).
 */
import { clark, type QName, type WsdlModel } from '../model/index.js';

/** The Clark key of the detail element, or `{ untyped: why }`. */
export function faultDetailElement(model: WsdlModel, messageName: QName): string | { readonly untyped: string } {
  const message = model.messages.find((m) => clark(m.name) === clark(messageName));
  if (message === undefined) return { untyped: `its message ${messageName.local} is not declared` };
  if (message.parts.length !== 1)
    return { untyped: `its message ${message.name.local} has ${message.parts.length} parts (WS-I BP R2205 wants one)` };
  const part = message.parts[0]!;
  if (part.element === undefined)
    return { untyped: `its part ${part.name} names a type, not an element (WS-I BP R2205)` };
  const key = clark(part.element);
  if (model.schema.elements[key] === undefined) return { untyped: `its element ${key} is not declared` };
  return key;
}
