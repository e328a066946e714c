/**
 * What a submit_sm carried, decoded the way a handset would read it: the user data header
 * (concatenation and port IEs, 3GPP TS 23.040 §9.2.3.24) or the SAR / destination_port TLVs,
 * and the text from its octets (GSM 7-bit unpacked or packed after the header's fill bits,
 * UCS-2 big-endian). Parts of one message are put back together by reference.
 */
import type smpp from 'smpp';
import { gsmText } from '../../sms/gsm-alphabet.js';
import { fillBitsAfter, ucs2Text, unpackSeptets } from '../../sms/pack.js';
import { fieldOctets } from '../smpp/raw-octets.js';

export interface Address {
  readonly address: string;
  readonly ton: number;
  readonly npi: number;
}

export interface Concatenation {
  readonly via: 'udh' | 'sar';
  readonly reference: number;
  readonly total: number;
  readonly seq: number;
}

/** One submit_sm as received. */
export interface ReceivedPart {
  readonly messageId: string;
  readonly systemId: string;
  readonly source: Address;
  readonly destination: Address;
  readonly dataCoding: number;
  readonly esmClass: number;
  readonly registeredDelivery: number;
  /** The octets of short_message (or message_payload), hex. */
  readonly hex: string;
  readonly text: string;
  readonly concatenation: Concatenation | null;
  readonly port: number | null;
}

/** A whole message: its parts in order, the text joined. */
export interface ReceivedMessage {
  readonly messageIds: readonly string[];
  readonly systemId: string;
  readonly source: Address;
  readonly destination: Address;
  readonly encoding: 'gsm7' | 'ucs2' | `data_coding ${number}`;
  readonly text: string;
  readonly parts: number;
  readonly concatenation: 'udh' | 'sar' | null;
  readonly port: number | null;
  /** Each part's octets (hex), header included. */
  readonly hex: readonly string[];
}

interface Header {
  readonly length: number;
  readonly concat: { reference: number; total: number; seq: number } | undefined;
  readonly port: number | undefined;
}

/** The information elements the simulator reads; others are skipped. A header running past the octets is ignored. */
export function readUserDataHeader(octets: Uint8Array): Header {
  const length = (octets[0] ?? 0) + 1;
  let concat: Header['concat'];
  let port: number | undefined;
  for (let at = 1; at + 1 < length && at + 1 < octets.length; ) {
    const id = octets[at] as number;
    const size = octets[at + 1] as number;
    const ie = octets.subarray(at + 2, at + 2 + size);
    if (id === 0x00 && size === 3)
      concat = { reference: ie[0] as number, total: ie[1] as number, seq: ie[2] as number };
    if (id === 0x08 && size === 4)
      concat = {
        reference: ((ie[0] as number) << 8) | (ie[1] as number),
        total: ie[2] as number,
        seq: ie[3] as number,
      };
    if (id === 0x05 && size === 4) port = ((ie[0] as number) << 8) | (ie[1] as number);
    if (id === 0x04 && size === 2) port = ie[0] as number;
    at += 2 + size;
  }
  return { length: Math.min(length, octets.length), concat, port };
}

export function decodeText(body: Uint8Array, dataCoding: number, packed: boolean, udhOctets: number): string {
  if (dataCoding === 8) return ucs2Text(body);
  if (dataCoding === 0 || dataCoding === 1) {
    return gsmText(packed ? unpackSeptets(body, fillBitsAfter(udhOctets)) : body);
  }
  return Buffer.from(body).toString('hex');
}

function address(pdu: smpp.PDU, prefix: 'source' | 'dest', field: 'source_addr' | 'destination_addr'): Address {
  return {
    address: String(pdu[field] ?? ''),
    ton: Number(pdu[`${prefix}_addr_ton`] ?? 0),
    npi: Number(pdu[`${prefix}_addr_npi`] ?? 0),
  };
}

export function decodeSubmit(pdu: smpp.PDU, messageId: string, systemId: string, packed: boolean): ReceivedPart {
  const shortMessage = fieldOctets(pdu, 'short_message');
  const octets = shortMessage.length > 0 ? shortMessage : fieldOctets(pdu, 'message_payload');
  const esmClass = Number(pdu.esm_class ?? 0);
  const dataCoding = Number(pdu.data_coding ?? 0);
  const header = esmClass & 0x40 ? readUserDataHeader(octets) : undefined;
  const text = decodeText(octets.subarray(header?.length ?? 0), dataCoding, packed, header?.length ?? 0);
  let concatenation: Concatenation | null = null;
  if (header?.concat !== undefined) concatenation = { via: 'udh', ...header.concat };
  else if (typeof pdu.sar_msg_ref_num === 'number') {
    concatenation = {
      via: 'sar',
      reference: pdu.sar_msg_ref_num,
      total: Number(pdu.sar_total_segments ?? 1),
      seq: Number(pdu.sar_segment_seqnum ?? 1),
    };
  }
  const tlvPort = typeof pdu.dest_port === 'number' ? pdu.dest_port : undefined;
  return {
    messageId,
    systemId,
    source: address(pdu, 'source', 'source_addr'),
    destination: address(pdu, 'dest', 'destination_addr'),
    dataCoding,
    esmClass,
    registeredDelivery: Number(pdu.registered_delivery ?? 0),
    hex: octets.toString('hex'),
    text,
    concatenation,
    port: header?.port ?? tlvPort ?? null,
  };
}

/** Collects parts until a message is whole; keeps at most `limit` incomplete messages (the oldest go first). */
export class Reassembler {
  private readonly open = new Map<string, ReceivedPart[]>();

  constructor(private readonly limit = 10_000) {}

  /** The whole message when `part` completes one (a single part is whole at once). */
  add(part: ReceivedPart): ReceivedMessage | undefined {
    const concat = part.concatenation;
    if (concat === null || concat.total <= 1) return whole([part]);
    const key = `${part.systemId}\u0000${part.source.address}\u0000${part.destination.address}\u0000${concat.via}\u0000${concat.reference}\u0000${concat.total}`;
    const parts = this.open.get(key) ?? [];
    if (!parts.some((p) => p.concatenation?.seq === concat.seq)) parts.push(part);
    if (parts.length < concat.total) {
      this.open.set(key, parts);
      if (this.open.size > this.limit) this.open.delete(this.open.keys().next().value as string);
      return undefined;
    }
    this.open.delete(key);
    return whole(parts.sort((a, b) => (a.concatenation?.seq ?? 0) - (b.concatenation?.seq ?? 0)));
  }
}

function whole(parts: readonly ReceivedPart[]): ReceivedMessage {
  const first = parts[0] as ReceivedPart;
  const dc = first.dataCoding;
  return {
    messageIds: parts.map((p) => p.messageId),
    systemId: first.systemId,
    source: first.source,
    destination: first.destination,
    encoding: dc === 8 ? 'ucs2' : dc === 0 || dc === 1 ? 'gsm7' : `data_coding ${dc}`,
    text: parts.map((p) => p.text).join(''),
    parts: parts.length,
    concatenation: first.concatenation?.via ?? null,
    port: first.port,
    hex: parts.map((p) => p.hex),
  };
}
