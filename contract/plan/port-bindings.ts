/**
 * Which binding serves each protocol of a service: one per protocol, from the ports in document
 * order, each binding's operations sorted into those it can carry and those it cannot (with
 * why). A port with no binding to carry (none declared by its name, or one the parser left out)
 * is left out with a warning, and the refusal it would be is kept for when nothing is left.
 */
import { carriageProblem } from './binding-carriage.js';
import { GeneratorError, type GeneratorErrorCode } from '../errors.js';
import {
  clark,
  type Binding,
  type BindingOperation,
  type ModelWarning,
  type Port,
  type Service,
  type WsdlModel,
} from '../model/index.js';
import type { SchemaPlan } from './schema.js';

export interface PlannedBinding {
  readonly binding: Binding;
  readonly port: Port;
  /** The binding's operations that it can carry, in binding order. */
  readonly operations: readonly BindingOperation[];
  /** The binding's operations it cannot carry, with the reason (see binding-carriage.ts). */
  readonly omitted: readonly OmittedOperation[];
}

export interface OmittedOperation {
  readonly operation: BindingOperation;
  readonly reason: string;
  /** The refusal behind the reason, when there is one. */
  readonly cause?: GeneratorError;
}

/**
 * One binding per protocol: the first port's in document order that carries at least one
 * operation (so an rpc/encoded SOAP 1.1 binding beside a literal one does not hide it), else the
 * first. A binding passed over because it carries nothing is named in a warning with the reason;
 * one passed over because another serves its protocol, in a note.
 */
export function chooseBindings(
  model: WsdlModel,
  service: Service,
  schema: SchemaPlan,
): { bindings: PlannedBinding[]; notes: string[]; warnings: ModelWarning[]; portCauses: GeneratorError[] } {
  const warnings: ModelWarning[] = [];
  const portCauses: GeneratorError[] = [];
  const candidates = service.ports.flatMap((port) => {
    const binding = model.bindings.find((b) => clark(b.name) === clark(port.binding));
    if (binding !== undefined) return [sortByCarriage(model, schema, binding, port)];
    const cause = unusablePortCause(model, port);
    portCauses.push(cause);
    const why = port.unresolvedBinding === undefined ? `its binding ${port.binding.local} is left out: ` : '';
    warnings.push({
      code: 'PORT_OMITTED',
      message: `port ${port.name} of service ${service.name.local} is left out: ${why}${cause.what}`,
      source: port.source,
    });
    return [];
  });
  const bindings: PlannedBinding[] = [];
  const notes: string[] = [];
  for (const candidate of candidates) {
    const { binding, port } = candidate;
    const sameProtocol = candidates.filter((c) => c.binding.protocol === binding.protocol);
    const chosen = sameProtocol.find((c) => c.operations.length > 0) ?? sameProtocol[0]!;
    if (chosen === candidate) {
      bindings.push(candidate);
      continue;
    }
    if (candidate.operations.length === 0 && candidate.omitted.length > 0) {
      warnings.push({
        code: 'BINDING_OMITTED',
        message: `binding ${binding.name.local} (${binding.protocol}, port ${port.name}) is left out: ${candidate.omitted[0]!.reason}`,
        source: binding.source,
      });
      continue;
    }
    notes.push(
      `port ${port.name} (binding ${binding.name.local}) is not used: ${binding.protocol} is served by port ` +
        `${chosen.port.name} (binding ${chosen.binding.name.local}), the first in document order`,
    );
  }
  return { bindings, notes, warnings, portCauses };
}

/**
 * Why a port has no binding to carry: it names none that is declared, or the one it names was
 * left out by the parser (its portType not declared, say); the refusal that would be, located
 * where the fault lies, for the plan to raise only when no port is left anywhere.
 */
function unusablePortCause(model: WsdlModel, port: Port): GeneratorError {
  if (port.unresolvedBinding !== undefined)
    return new GeneratorError('WSDL_UNRESOLVED_REFERENCE', port.unresolvedBinding.what, port.unresolvedBinding.source);
  const omitted = model.omitted?.[`binding:${clark(port.binding)}`];
  if (omitted !== undefined)
    return new GeneratorError(omitted.code as GeneratorErrorCode, omitted.what, omitted.source);
  return new GeneratorError(
    'MISSING_REFERENCE',
    `port ${port.name} refers to missing binding ${clark(port.binding)}`,
    port.source,
  );
}

/** Splits a binding's operations into those it can carry and those it cannot (with why). */
function sortByCarriage(model: WsdlModel, schema: SchemaPlan, binding: Binding, port: Port): PlannedBinding {
  const operations: BindingOperation[] = [];
  const omitted: OmittedOperation[] = [];
  for (const operation of binding.operations) {
    const problem = carriageProblem(model, schema, binding, operation);
    if (problem === undefined) operations.push(operation);
    else omitted.push({ operation, ...problem });
  }
  return { binding, port, operations, omitted };
}
