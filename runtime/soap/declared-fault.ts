/**
 * A received SOAP fault whose detail holds one of the operation's declared fault elements (its
 * descriptor's `faults`): the same error with that element decoded into `fault`. A detail the
 * element's schema cannot read leaves the error as it came (`fault` undefined, `detailXml` still
 * there): the peer's fault is what the caller must see, not a decoding error of ours.
 */
import type { OperationDescriptor, ServiceDescriptor } from '../descriptor.js';
import { decodeElement } from '../codec/index.js';
import { SoapFaultError } from '../errors.js';
import { childElements } from '../xml/helpers.js';
import type { XmlElement } from '../xml/types.js';

export function withDeclaredFault(
  d: ServiceDescriptor,
  op: OperationDescriptor,
  error: SoapFaultError,
): SoapFaultError {
  const faults = op.faults;
  if (faults === undefined || error.detailXml === undefined) return error;
  for (const node of childElements(error.detailXml)) {
    const declared = faults.find((f) => isElement(d, f.element, node));
    if (declared === undefined) continue;
    const element = d.elements[declared.element]!;
    let value: unknown;
    try {
      value = decodeElement(d, element.value, node, element.nillable, `detail/${node.local}`);
    } catch {
      return error;
    }
    return new SoapFaultError({
      code: error.code,
      subcode: error.subcode,
      message: error.message,
      detail: { ...error.detail },
      detailXml: error.detailXml,
      fault: { name: declared.name, value },
      httpStatus: error.httpStatus,
      binding: error.binding,
    });
  }
  return error;
}

function isElement(d: ServiceDescriptor, key: string, node: XmlElement): boolean {
  const name = d.elements[key]?.name;
  return name !== undefined && name.local === node.local && name.ns === node.ns;
}
