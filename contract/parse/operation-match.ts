/**
 * Pairs a binding operation with its portType operation by name and, when given, by the
 * input/output names — ASMX overloads (`MessageName`) share an operation name and differ only
 * there. No match or more than one is an error, never a guess.
 */
import type { XmlElement } from '../../runtime/xml/types.js';
import { GeneratorError } from '../errors.js';
import type { PortType, PortTypeOperation } from '../model/index.js';
import { at, showQName } from './xml-access.js';

export interface OperationKey {
  readonly name: string;
  readonly inputName?: string;
  readonly outputName?: string;
}

export function matchPortTypeOperation(
  portType: PortType,
  key: OperationKey,
  file: string,
  el: XmlElement,
  binding: string,
): PortTypeOperation {
  const byName = portType.operations.filter((op) => op.name === key.name);
  // ASMX overloads: the first overload has no input/output names, the others have their
  // MessageName. WSDL 1.1 §2.4.5 gives unnamed ones the default names, so an unnamed binding
  // operation is the unnamed portType operation, not the named overload.
  const exact = byName.filter(
    (op) =>
      effectiveName(key.inputName, `${op.name}Request`, op) === effectiveName(op.inputName, `${op.name}Request`, op) &&
      effectiveName(key.outputName, `${op.name}Response`, op) ===
        effectiveName(op.outputName, `${op.name}Response`, op),
  );
  if (exact.length === 1) return exact[0]!;
  const candidates = byName.filter(
    (op) =>
      namesAgree(key.inputName, op.inputName, `${op.name}Request`, op.name) &&
      namesAgree(key.outputName, op.outputName, `${op.name}Response`, op.name),
  );
  const shown = describe(key);
  if (candidates.length === 1) return candidates[0]!;
  if (candidates.length === 0) {
    throw new GeneratorError(
      'WSDL_INVALID',
      `binding ${binding} operation ${shown} has no counterpart in portType ${showQName(portType.name)}`,
      at(file, el),
    );
  }
  throw new GeneratorError(
    'WSDL_INVALID',
    `binding ${binding} operation ${shown} matches ${candidates.length} operations of portType ${showQName(portType.name)}; name its wsdl:input/wsdl:output to tell them apart`,
    at(file, el),
  );
}

/** A name as given, or the WSDL 1.1 default (one-way operations: the operation's name). */
function effectiveName(name: string | undefined, requestResponseDefault: string, op: PortTypeOperation): string {
  if (name !== undefined) return name;
  return op.input !== undefined && op.output !== undefined ? requestResponseDefault : op.name;
}

/**
 * A binding name matches the portType's explicit name, or — when the portType leaves it out —
 * the WSDL 1.1 §2.4.5 default (`<op>Request`/`<op>Response`; one-way: the operation name).
 */
function namesAgree(
  bindingName: string | undefined,
  portTypeName: string | undefined,
  defaultName: string,
  oneWayDefault: string,
): boolean {
  if (bindingName === undefined) return true;
  if (portTypeName !== undefined) return bindingName === portTypeName;
  return bindingName === defaultName || bindingName === oneWayDefault;
}

function describe(key: OperationKey): string {
  const names = [key.inputName && `input "${key.inputName}"`, key.outputName && `output "${key.outputName}"`].filter(
    Boolean,
  );
  return names.length === 0 ? `"${key.name}"` : `"${key.name}" (${names.join(', ')})`;
}
