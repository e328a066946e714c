/**
 * Keeps secrets out of error messages. undici and Node never put header values or key material
 * in their messages, but a proxy's or a server's words can echo what they were sent, so every
 * TransportError a client with secrets raises is passed through here before the caller sees it.
 */
import { SoapFaultError, TransportError } from '../errors.js';

export const REDACTED = '[redacted]';

/**
 * Shorter secrets are not searched for: replacing every "p" of a message would make it unreadable
 * while hiding nothing (a one- to three-character secret is guessed faster than read).
 */
const SHORTEST_REDACTED = 4;

export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  // Longest first, so a secret that contains another is replaced whole.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length))
    if (secret.length >= SHORTEST_REDACTED && out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

/**
 * A fault whose text or detail echoes a secret the client sent (a server quoting a PasswordText
 * back, say) with the secrets replaced; the fault itself when it echoes none.
 */
export function redactFault(fault: SoapFaultError, secrets: readonly string[]): SoapFaultError {
  const message = redact(fault.message, secrets);
  const detail = Object.fromEntries(Object.entries(fault.detail).map(([k, v]) => [k, redact(v, secrets)]));
  const echoed = message !== fault.message || Object.entries(fault.detail).some(([k, v]) => detail[k] !== v);
  if (!echoed) return fault;
  return new SoapFaultError({
    code: fault.code,
    subcode: fault.subcode,
    message,
    detail,
    // The raw detail tree may hold the secret too, and no redacted copy of it is kept.
    detailXml: undefined,
    httpStatus: fault.httpStatus,
    binding: fault.binding,
  });
}

/** The same error with `suffix` added and the secrets replaced, or the error itself when nothing changes. */
export function explainTransportError(
  error: TransportError,
  secrets: readonly string[],
  suffix: string,
): TransportError {
  const message = redact(`${error.message}${suffix}`, secrets);
  if (message === error.message) return error;
  return new TransportError(error.code, message, {
    ...(error.cause === undefined ? {} : { cause: error.cause }),
    ...(error.httpStatus === undefined ? {} : { httpStatus: error.httpStatus }),
  });
}
