/**
 * A stored message as submit_sm parameters: one set per part, the text cut exactly as the
 * service counted it at acceptance (splitIntoSegments), so the number of parts equals the stored
 * segment count.
 *
 * Concatenation (3GPP TS 23.040 §9.2.3.24):
 * - udh: the parts carry a user data header (esm_class UDHI 0x40): 8-bit concatenation IE
 *   `00 03 ref total seq`, and with an application port the 16-bit port IE `05 04 dst dst src src`.
 * - sar: no header; the SMSC builds it from the sar_msg_ref_num / sar_total_segments /
 *   sar_segment_seqnum TLVs, and the port goes in the destination_port TLV.
 * GSM text is unpacked (one septet code per octet, SMPP's default) or 7-bit packed with fill bits
 * after the header; UCS-2 is UTF-16 big-endian.
 */
import type { OutgoingMessage } from '../route.js';
import { splitIntoSegments } from '../../sms/segments.js';
import { septetCodes } from '../../sms/gsm-alphabet.js';
import { fillBitsAfter, packSeptets, ucs2Octets } from '../../sms/pack.js';
import type { SmppRouteOptions } from './options.js';

export const ESM_UDHI = 0x40;
export const DATA_CODING_GSM = 0;
export const DATA_CODING_UCS2 = 8;

/** What differs between the parts of one message; the addresses come from the route's options. */
export interface SubmitPart {
  readonly short_message: Buffer;
  readonly esm_class: number;
  readonly data_coding: number;
  /** TLVs by node-smpp name (sar_*, dest_port), absent in udh mode. */
  readonly tlvs: Readonly<Record<string, number>>;
}

export type PartsResult = { readonly parts: readonly SubmitPart[] } | { readonly error: string };

type Layout = Pick<SmppRouteOptions, 'gsmPacking' | 'concatenation'>;

/**
 * The parts of `message`, or why it cannot be sent as stored (its text no longer splits into the
 * stored encoding and segment count: a changed alphabet or a hand-edited row).
 * `reference` tells the parts of this message apart from others' (8 bits in a UDH, 16 in SAR).
 */
export function buildParts(message: OutgoingMessage, layout: Layout, reference: number): PartsResult {
  const split = splitIntoSegments(message.smsmsg, message.port !== null);
  if (split.encoding !== message.encoding || split.segments.length !== message.segments) {
    return {
      error: `the text splits into ${split.segments.length} ${split.encoding} part(s), stored as ${message.segments} ${message.encoding}`,
    };
  }
  const total = split.segments.length;
  const parts = split.segments.map((text, index) => {
    const seq = index + 1;
    if (layout.concatenation === 'sar') return sarPart(text, message, layout, { reference, total, seq });
    const udh = userDataHeader(total > 1 ? { reference: reference & 0xff, total, seq } : undefined, message.port);
    return {
      short_message: Buffer.concat([udh, body(text, message.encoding, layout, udh.length)]),
      esm_class: udh.length > 0 ? ESM_UDHI : 0,
      data_coding: dataCoding(message),
      tlvs: {},
    };
  });
  return { parts };
}

interface Concat {
  readonly reference: number;
  readonly total: number;
  readonly seq: number;
}

function sarPart(text: string, message: OutgoingMessage, layout: Layout, concat: Concat): SubmitPart {
  const tlvs: Record<string, number> = {};
  if (concat.total > 1) {
    tlvs.sar_msg_ref_num = concat.reference & 0xffff;
    tlvs.sar_total_segments = concat.total;
    tlvs.sar_segment_seqnum = concat.seq;
  }
  if (message.port !== null) tlvs.dest_port = message.port;
  return {
    short_message: body(text, message.encoding, layout, 0),
    esm_class: 0,
    data_coding: dataCoding(message),
    tlvs,
  };
}

function dataCoding(message: OutgoingMessage): number {
  return message.encoding === 'ucs2' ? DATA_CODING_UCS2 : DATA_CODING_GSM;
}

/** The user data header (UDHL first), or no octets when the part needs none. */
export function userDataHeader(concat: Concat | undefined, port: number | null): Buffer {
  const ies: number[] = [];
  if (concat !== undefined) ies.push(0x00, 0x03, concat.reference, concat.total, concat.seq);
  if (port !== null) ies.push(0x05, 0x04, port >> 8, port & 0xff, 0x00, 0x00);
  return ies.length === 0 ? Buffer.alloc(0) : Buffer.from([ies.length, ...ies]);
}

function body(text: string, encoding: OutgoingMessage['encoding'], layout: Layout, udhOctets: number): Buffer {
  if (encoding === 'ucs2') return ucs2Octets(text);
  const septets = septetCodes(text);
  if (layout.gsmPacking === 'unpacked') return Buffer.from(septets);
  const packed = packSeptets(septets, fillBitsAfter(udhOctets));
  return Buffer.from(packed.buffer, packed.byteOffset, packed.length);
}
