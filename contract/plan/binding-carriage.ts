/**
 * Whether a binding can carry one of its operations. An operation a binding cannot carry is
 * left out of that binding only (the service plan records why, the CLI warns with the WSDL
 * line, the generated code says so), so one odd operation never costs the rest of the WSDL.
 *
 * - SOAP: document/literal bodies of one element part each, literal header blocks whose
 *   elements are declared (rpc style, `use="encoded"` and type parts are refused here).
 * - HTTP GET/POST: an `http:operation` location; every input part a simple value or an array of
 *   simple values (ASMX reads those from repeated query/form fields, nothing else); the output
 *   either empty or a `mime:mimeXml` part naming an element.
 */
import { GeneratorError } from '../errors.js';
import { type Binding, type BindingOperation, clark, type WsdlModel } from '../model/index.js';
import { throwIfOmitted } from './omitted.js';
import type { SchemaPlan } from './schema.js';
import {
  findMessage,
  httpOutputIsEmpty,
  httpResultPart,
  partValue,
  soapShape,
  SOAP_PROTOCOLS,
} from './message-shapes.js';
import type { PlannedValue } from './values.js';

/**
 * Why `binding` cannot carry `op`, or undefined when it can; `cause`: the refusal behind the
 * reason (a definition the parser left out keeps its own code and location there).
 */
export function carriageProblem(
  model: WsdlModel,
  schema: SchemaPlan,
  binding: Binding,
  op: BindingOperation,
): { reason: string; cause?: GeneratorError } | undefined {
  try {
    throwIfMessageUndeclared(op);
    const reason =
      exchangeProblem(op) ??
      (SOAP_PROTOCOLS.has(binding.protocol) ? soapProblem(model, binding, op) : httpProblem(model, schema, op));
    return reason === undefined ? undefined : { reason };
  } catch (err) {
    // The shape functions refuse with the construct's own message; here that refusal is local.
    if (err instanceof GeneratorError) return { reason: err.what, cause: err };
    throw err;
  }
}

/**
 * A wsdl:input or wsdl:output naming a message that is not declared: no binding can carry the
 * operation. The refusal keeps the reference's own code and line, so that a file left with no
 * operation is refused for it exactly, not for a vaguer reason at the binding.
 */
function throwIfMessageUndeclared(op: BindingOperation): void {
  const ref = op.portTypeOperation.unresolvedInput ?? op.portTypeOperation.unresolvedOutput;
  if (ref !== undefined) throw new GeneratorError('WSDL_UNRESOLVED_REFERENCE', ref.what, ref.source);
}

/**
 * The operations in which the service would speak first: a notification (an output only) and a
 * solicit-response (output, then input). Over HTTP the client always sends first, so no binding
 * carries them (WSDL 1.1 §2.4.3-4 defines no binding for them; WS-I BP R2303).
 */
function exchangeProblem(op: BindingOperation): string | undefined {
  const { input, output, outputFirst } = op.portTypeOperation;
  if (input === undefined && output !== undefined)
    return 'it is a notification operation (an output and no input), which no HTTP binding can carry';
  if (outputFirst === true)
    return 'it is a solicit-response operation (its output before its input), which no HTTP binding can carry';
  return undefined;
}

function soapProblem(model: WsdlModel, binding: Binding, op: BindingOperation): string | undefined {
  soapShape(model, binding, op, 'input');
  soapShape(model, binding, op, 'output');
  for (const header of [...op.inputHeaders, ...op.outputHeaders]) {
    if (header.unresolved !== undefined) {
      throwIfOmitted(model, `message:${clark(header.message)}`);
      return header.unresolved;
    }
    if (header.use === 'encoded')
      return `SOAP header ${header.part} is use="encoded"; only literal headers are supported`;
    if (model.schema.elements[`{${header.element.ns}}${header.element.local}`] === undefined) {
      return `SOAP header element {${header.element.ns}}${header.element.local} is not declared`;
    }
  }
  return undefined;
}

function httpProblem(model: WsdlModel, schema: SchemaPlan, op: BindingOperation): string | undefined {
  if (op.httpLocation === undefined) return 'it has no http:operation location';
  if (op.httpInput?.kind === 'unsupported') return `its input ${op.httpInput.what.replace(/^input: /, '')}`;
  if (op.httpOutput?.kind === 'unsupported') return `its output ${op.httpOutput.what.replace(/^output: /, '')}`;
  const inputName = op.portTypeOperation.input;
  if (inputName !== undefined) {
    for (const part of findMessage(model, inputName, op).parts) {
      const problem = paramProblem(schema, partValue(schema, part, op));
      if (problem !== undefined)
        return `parameter ${part.name} ${problem}, which HTTP GET/POST cannot carry (only simple values and arrays of them)`;
    }
  }
  const outputName = op.portTypeOperation.output;
  if (outputName === undefined || httpOutputIsEmpty(model, op, outputName)) return undefined;
  const part = httpResultPart(model, op, outputName);
  if (part.element === undefined) return `its mime:mimeXml part ${part.name} names a type, not an element`;
  return undefined;
}

/** What makes a value unfit for a query or form field, or undefined when it fits. */
function paramProblem(schema: SchemaPlan, value: PlannedValue): string | undefined {
  if (value.kind === 'primitive') return undefined;
  if (value.kind === 'xml') return 'holds arbitrary XML';
  const type = schema.byKey.get(value.key);
  if (type?.kind === 'simple') return undefined;
  if (type?.kind === 'complex' && type.arrayItem !== undefined && type.arrayItem.value.kind === 'primitive')
    return undefined;
  return `is of the complex type ${type?.sourceName ?? value.key}`;
}
