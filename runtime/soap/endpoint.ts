/**
 * A SOAP binding's endpoint, computed once per descriptor: its version and how to find an
 * operation from a request (by SOAPAction / action parameter, by the Body element).
 */
import type { BindingDescriptor, OperationDescriptor, ServiceDescriptor } from '../descriptor.js';
import { elementOf } from '../message.js';
import { soap11 } from '../soap-version/soap11.js';
import { soap12 } from '../soap-version/soap12.js';
import type { SoapVersion } from '../soap-version/version.js';

export interface SoapEndpoint {
  readonly version: SoapVersion;
  readonly binding: BindingDescriptor;
  /** Operations by soapAction (several when a WSDL gives the same action to several). */
  readonly byAction: ReadonlyMap<string, readonly OperationDescriptor[]>;
  /** Operations by their Body element: namespace URI -> local name -> operation. */
  readonly byElement: ReadonlyMap<string, ReadonlyMap<string, OperationDescriptor>>;
}

export function compileSoapEndpoint(d: ServiceDescriptor, binding: BindingDescriptor): SoapEndpoint {
  const byAction = new Map<string, OperationDescriptor[]>();
  const byElement = new Map<string, Map<string, OperationDescriptor>>();
  for (const op of binding.operations) {
    if (op.soapAction !== undefined && op.soapAction !== '')
      byAction.set(op.soapAction, [...(byAction.get(op.soapAction) ?? []), op]);
    if (op.input.kind === 'element') {
      const name = elementOf(d, op.input.element, op.name).name;
      let byLocal = byElement.get(name.ns);
      if (byLocal === undefined) byElement.set(name.ns, (byLocal = new Map()));
      byLocal.set(name.local, op);
    }
  }
  return { version: binding.protocol === 'soap12' ? soap12 : soap11, binding, byAction, byElement };
}

export interface SoapEndpoints {
  readonly soap11?: SoapEndpoint;
  readonly soap12?: SoapEndpoint;
}
