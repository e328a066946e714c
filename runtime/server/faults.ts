/**
 * Which fault a failure becomes, and what the log says about it. A request the server cannot
 * read is the client's mistake (a Client fault saying where); a handler's ServiceError or
 * DeclaredFault is the fault it names; anything else is a generic Server fault on the wire and
 * one line in the log, which never quotes request values.
 */
import type { OperationDescriptor, Protocol, ServiceDescriptor } from '../descriptor.js';
import { encodeElement } from '../codec/index.js';
import { CodecError, type DeclaredFault, type ServiceError } from '../errors.js';
import type { FaultSpec } from '../soap-version/version.js';
import { XmlReadError } from '../xml/reader.js';
import type { Logger } from './options.js';

const XML_REASONS: Readonly<Record<string, string>> = {
  XML_DOCTYPE: 'a DOCTYPE is not allowed',
  XML_LIMIT: 'the document exceeds a size or nesting limit',
  XML_ENCODING: 'unsupported encoding',
};

export const GENERIC_SERVER_FAULT: FaultSpec = { kind: 'server', message: 'Server was unable to process request.' };

/** The fault for a request that could not be read or decoded (the client's mistake). */
export function requestFault(logger: Logger, err: unknown, what: string): FaultSpec {
  if (err instanceof XmlReadError) {
    const why = XML_REASONS[err.code] ?? 'the XML is not well-formed';
    return {
      kind: 'client',
      message: `Server was unable to read the request: ${why} (line ${err.line}, column ${err.column}).`,
    };
  }
  if (err instanceof CodecError)
    return { kind: 'client', message: `Server was unable to read the request: ${err.message}.` };
  logger.error(`unexpected error reading a ${what}: ${describeError(err)}`);
  return GENERIC_SERVER_FAULT;
}

export function internalFault(
  logger: Logger,
  err: unknown,
  op: OperationDescriptor,
  binding: Protocol,
  what: string,
): FaultSpec {
  logger.error(`${op.name} (${binding}): ${what} failed: ${describeError(err)}`);
  return GENERIC_SERVER_FAULT;
}

/** A ServiceError thrown by a handler: its message and code go to the client, in a detail. */
export function serviceFault(d: ServiceDescriptor, err: ServiceError): FaultSpec {
  return {
    kind: 'client',
    message: err.message,
    detail: { ns: d.targetNamespace, entries: { code: err.code, ...err.detail } },
  };
}

/**
 * A DeclaredFault a handler threw. On SOAP its value is written as the fault's declared element
 * in the detail; a name the operation does not declare, or a value the element cannot carry, is
 * the handler's mistake: logged (by name and path, never values) and answered as a generic
 * Server fault. HTTP GET/POST carry no detail: the fault's message alone, as a ServiceError's.
 */
export function declaredFault(
  logger: Logger,
  d: ServiceDescriptor,
  op: OperationDescriptor,
  binding: Protocol,
  err: DeclaredFault,
): FaultSpec {
  if (binding !== 'soap11' && binding !== 'soap12') return { kind: err.faultCode, message: err.message };
  const declared = op.faults?.find((f) => f.name === err.faultName);
  const element = declared === undefined ? undefined : d.elements[declared.element];
  if (element === undefined) {
    const names = op.faults?.map((f) => f.name).join(', ') || 'none';
    logger.error(
      `${op.name} (${binding}): the handler threw DeclaredFault ${err.faultName}, which the operation does not declare (its declared faults: ${names})`,
    );
    return GENERIC_SERVER_FAULT;
  }
  try {
    const path = `fault ${err.faultName}`;
    const detailElement = encodeElement(d, element.name, element.value, err.detail, element.nillable, '', path, true);
    return { kind: err.faultCode, message: err.message, detailElement };
  } catch (encoding) {
    logger.error(`${op.name} (${binding}): DeclaredFault ${err.faultName} cannot be sent: ${describeError(encoding)}`);
    return GENERIC_SERVER_FAULT;
  }
}

/**
 * Class, code and where it was thrown — not the message: handler errors often quote request
 * values (a password in an SQL error, say), and the log must not carry them.
 */
export function describeError(err: unknown): string {
  if (!(err instanceof Error)) return `non-Error thrown (${typeof err})`;
  const code = (err as { code?: unknown }).code;
  const frame = err.stack
    ?.split('\n')
    .find((line) => line.trimStart().startsWith('at '))
    ?.trim();
  return `${err.name}${typeof code === 'string' ? ` [${code}]` : ''}${frame === undefined ? '' : ` ${frame}`}`;
}
