/**
 * What a submit_sm_resp's command_status means for the message, one table for every code the
 * route tells apart (SMPP 3.4 §5.1.3). docs/delivery.md prints the same table.
 *
 * - throttle: the SMSC is busy; the route pauses this bind and resends the same PDU (never an outcome).
 * - permanent: the message itself is wrong for this SMSC; resending it cannot help → `rejected`.
 * - transient: the SMSC could not take it now → `retry` (maybeSent false: it answered "no").
 * A code not in the table (vendor-specific 0x0400–0x04FF, reserved ones) is transient, so the
 * engine's retry budget and validity period end it rather than a guess that it is permanent.
 */
import smpp from 'smpp';

export type StatusClass = 'ok' | 'throttle' | 'permanent' | 'transient';

export const STATUS_CLASSES: Readonly<Record<string, StatusClass>> = {
  ESME_ROK: 'ok',
  ESME_RTHROTTLED: 'throttle',
  ESME_RMSGQFUL: 'throttle',
  ESME_RINVMSGLEN: 'permanent',
  ESME_RINVCMDLEN: 'permanent',
  ESME_RINVCMDID: 'permanent',
  ESME_RINVPRTFLG: 'permanent',
  ESME_RINVREGDLVFLG: 'permanent',
  ESME_RINVSRCADR: 'permanent',
  ESME_RINVDSTADR: 'permanent',
  ESME_RINVESMCLASS: 'permanent',
  ESME_RINVSRCTON: 'permanent',
  ESME_RINVSRCNPI: 'permanent',
  ESME_RINVDSTTON: 'permanent',
  ESME_RINVDSTNPI: 'permanent',
  ESME_RINVSERTYP: 'permanent',
  ESME_RINVSCHED: 'permanent',
  ESME_RINVEXPIRY: 'permanent',
  ESME_RINVDFTMSGID: 'permanent',
  ESME_RX_P_APPN: 'permanent',
  ESME_RX_R_APPN: 'permanent',
  ESME_RINVTLVSTREAM: 'permanent',
  ESME_RTLVNOTALLWD: 'permanent',
  ESME_RINVTLVLEN: 'permanent',
  ESME_RMISSINGTLV: 'permanent',
  ESME_RINVTLVVAL: 'permanent',
  ESME_RINVDCS: 'permanent',
  ESME_RPROHIBITED: 'permanent',
  ESME_RSERTYPUNAUTH: 'permanent',
  ESME_RSERTYPDENIED: 'permanent',
  ESME_RINVSRCADDRSUBUNIT: 'permanent',
  ESME_RINVDSTADDRSUBUNIT: 'permanent',
  ESME_RSYSERR: 'transient',
  ESME_RINVBNDSTS: 'transient',
  ESME_RSUBMITFAIL: 'transient',
  ESME_RX_T_APPN: 'transient',
  ESME_RDELIVERYFAILURE: 'transient',
  ESME_RUNKNOWNERR: 'transient',
  ESME_RSERTYPUNAVAIL: 'transient',
};

const NAME_OF = new Map<number, string>();
for (const [name, code] of Object.entries(smpp.errors)) if (!NAME_OF.has(code)) NAME_OF.set(code, name);

/** ESME_R… for a command_status, or its hex form (0x00000401) when SMPP 3.4 has no name for it. */
export function statusName(code: number): string {
  return NAME_OF.get(code) ?? `0x${code.toString(16).padStart(8, '0')}`;
}

export function statusClass(code: number): StatusClass {
  return STATUS_CLASSES[statusName(code)] ?? 'transient';
}

export function statusCode(name: string): number {
  const code = smpp.errors[name];
  if (code === undefined) throw new RangeError(`unknown SMPP status ${name}`);
  return code;
}
