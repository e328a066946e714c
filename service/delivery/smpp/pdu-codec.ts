/**
 * node-smpp's PDU encoding and decoding, the same results at a fraction of the cost.
 *
 * node-smpp walks every PDU with `for…in` (which, on its PDU objects, also walks the prototype's
 * enumerable methods and so never takes V8's fast path), binds a closure per header field and
 * copies each incoming PDU into a new buffer before reading it. On a busy bind that was ~6 µs per
 * submit_sm written and ~7 µs per deliver_sm read, paid again by the simulator on the other side.
 *
 * This module keeps node-smpp's tables (commands, TLVs, their types and filters, so a command or
 * TLV added with `smpp.addCommand`/`addTLV` is covered too) and its semantics, field for field:
 * which fields are written, in which order, how filters run and what they may change, where a
 * short PDU stops being read. Only the walking is new: each command's parameters are listed once,
 * a PDU's own keys are read with `Object.keys`, and a PDU is read where it lies in the socket's
 * buffer. The field types' own read, write and size functions do the octets, so a malformed PDU
 * fails with node-smpp's error at node-smpp's offset. test/service/delivery/smpp/pdu-codec.test.ts
 * checks both directions against node-smpp on generated and on damaged PDUs.
 *
 * Installed once per process, on import (as raw-octets.ts is): `PDU.prototype.toBuffer` and
 * `PDU.fromStream` are replaced. `new PDU(buffer)` is still node-smpp's own reading.
 */
import smpp from 'smpp';

type Fields = Record<string, unknown>;

interface FieldType {
  read(buffer: Buffer, offset: number, length?: number): unknown;
  write(value: unknown, buffer: Buffer, offset: number): void;
  size(value: unknown): number;
  default?: unknown;
}

interface Filter {
  encode(this: Fields, value: unknown, skipUdh?: boolean): unknown;
  decode(this: Fields, value: unknown, skipUdh?: boolean): unknown;
}

interface ParamDef {
  readonly type: FieldType;
  readonly filter?: Filter;
  readonly default?: unknown;
}

interface CommandDef {
  readonly id: number;
  readonly command: string;
  readonly params?: Readonly<Record<string, ParamDef>>;
  readonly tlvMap?: Readonly<Record<string, string>>;
}

interface TlvDef {
  readonly id: number;
  readonly tag: string;
  readonly type: FieldType;
  readonly filter?: Filter;
  readonly multiple?: boolean;
}

interface Tables {
  readonly commands: Record<string, CommandDef>;
  readonly commandsById: Record<number, CommandDef>;
  readonly tlvs: Record<string, TlvDef>;
  readonly tlvsById: Record<number, TlvDef>;
  readonly types: Record<string, FieldType>;
}

const tables = smpp as unknown as Tables;
const HEADER = 16;
/** Where an installed codec keeps node-smpp's own toBuffer (one per process, however often this module loads). */
const INSTALLED = Symbol.for('smskit.smpp.node-smpp-to-buffer');

interface Param {
  readonly key: string;
  readonly def: ParamDef;
}

/** A command's parameters in node-smpp's order, listed once (node-smpp's tables do not change after start-up but for addCommand). */
const paramLists = new WeakMap<CommandDef, readonly Param[]>();

function paramsOf(command: CommandDef): readonly Param[] {
  let list = paramLists.get(command);
  if (list === undefined) {
    list = Object.entries(command.params ?? {}).map(([key, def]) => ({ key, def }));
    paramLists.set(command, list);
  }
  return list;
}

/**
 * node-smpp's `_filter(direction)`: each own field with a filter, in the PDU's key order (a filter
 * may change a later field: the message filter sets data_coding and esm_class).
 */
function runFilters(pdu: Fields, command: CommandDef, direction: 'encode' | 'decode'): void {
  filterFields(pdu, command, Object.keys(pdu), direction);
}

function filterFields(pdu: Fields, command: CommandDef, keys: readonly string[], direction: 'encode' | 'decode'): void {
  const params = command.params ?? {};
  for (const key of keys) {
    const param = params[key];
    if (param !== undefined) {
      if (param.filter !== undefined) pdu[key] = param.filter[direction].call(pdu, pdu[key]);
      continue;
    }
    const tlv = tables.tlvs[key];
    if (tlv?.filter === undefined) continue;
    if (tlv.multiple) {
      const values = pdu[key] as unknown[];
      for (let i = 0; i < values.length; i++) values[i] = tlv.filter[direction].call(pdu, values[i], true);
    } else if (key === 'message_payload') {
      // node-smpp's rule: the payload keeps its UDH only when short_message carries no text.
      const short = pdu.short_message as { message?: { length?: number } } | undefined;
      const skipUdh = short?.message?.length;
      pdu[key] = tlv.filter[direction].call(pdu, pdu[key], skipUdh as unknown as boolean);
    } else {
      pdu[key] = tlv.filter[direction].call(pdu, pdu[key], true);
    }
  }
}

function headerOnly(pdu: smpp.PDU, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  buffer.writeUInt32BE(pdu.command_length, 0);
  buffer.writeUInt32BE(pdu.command_id, 4);
  buffer.writeUInt32BE(pdu.command_status, 8);
  buffer.writeUInt32BE(pdu.sequence_number, 12);
  return buffer;
}

/**
 * One field's octets at `offset`; returns the offset after them. A C-string given as a string is
 * written in place (node-smpp copies it through a buffer of its own first): the same octets, since
 * node-smpp's 'ascii' is Node's latin1 for writing, one octet per UTF-16 unit, then NUL.
 */
function writeField(type: FieldType, value: unknown, buffer: Buffer, offset: number): number {
  if (type === tables.types.cstring && typeof value === 'string') {
    buffer.write(value, offset, value.length, 'latin1');
    buffer[offset + value.length] = 0;
    return offset + value.length + 1;
  }
  type.write(value, buffer, offset);
  return offset + type.size(value);
}

/** `PDU.prototype.toBuffer`, node-smpp's meaning. */
export function encodePdu(pdu: smpp.PDU): Buffer {
  const command = tables.commands[pdu.command];
  if (command === undefined) return nodeSmppToBuffer.call(pdu); // its error for a command it does not know
  pdu.command_length = HEADER;
  if (pdu.command_status) return headerOnly(pdu, HEADER);
  runFilters(pdu, command, 'encode');
  const params = command.params ?? {};
  const tlvs: Array<readonly [string, TlvDef]> = [];
  let length = HEADER;
  for (const key of Object.keys(pdu)) {
    const param = params[key];
    if (param !== undefined) {
      length += param.type.size(pdu[key]);
      continue;
    }
    const tlv = tables.tlvs[key];
    if (tlv === undefined) continue;
    tlvs.push([key, tlv]);
    if (tlv.multiple) for (const value of pdu[key] as unknown[]) length += tlv.type.size(value) + 4;
    else length += tlv.type.size(pdu[key]) + 4;
  }
  pdu.command_length = length;
  const buffer = headerOnly(pdu, length);
  let offset = HEADER;
  for (const { key, def } of paramsOf(command)) offset = writeField(def.type, pdu[key], buffer, offset);
  for (const [key, tlv] of tlvs) {
    const values = tlv.multiple ? (pdu[key] as unknown[]) : [pdu[key]];
    for (const value of values) {
      const size = tlv.type.size(value);
      buffer.writeUInt16BE(tlv.id, offset);
      buffer.writeUInt16BE(size, offset + 2);
      tlv.type.write(value, buffer, offset + 4);
      offset += size + 4;
    }
  }
  return buffer;
}

/**
 * An empty node-smpp PDU (its prototype, none of its constructor's work). Made with `new` rather
 * than Object.create so that V8 sizes its objects to the fields they come to hold.
 */
function DecodedPdu(): void {}
DecodedPdu.prototype = smpp.PDU.prototype;

/** `new PDU(buffer)`, node-smpp's meaning: `buffer` holds one whole PDU, its length first. */
export function decodePdu(buffer: Buffer): smpp.PDU {
  const pdu = new (DecodedPdu as unknown as new () => smpp.PDU & Fields)();
  pdu.command_length = buffer.readUInt32BE(0);
  pdu.command_id = buffer.readUInt32BE(4);
  pdu.command_status = buffer.readUInt32BE(8);
  pdu.sequence_number = buffer.readUInt32BE(12);
  const { command_length: commandLength } = pdu;
  if (commandLength > smpp.PDU.maxLength) {
    throw Error(`PDU length was too large (${commandLength}, maximum is ${smpp.PDU.maxLength}).`);
  }
  const command = tables.commandsById[pdu.command_id];
  if (command === undefined) {
    pdu.command = 'unknown';
    return pdu;
  }
  pdu.command = command.command;
  // Filters run afterwards in the PDU's key order (node-smpp's `_filter`): the parameters read,
  // then the TLVs in the order they first came (unknown TLVs, keyed by number, have no filter).
  const filtered: string[] = [];
  let offset = HEADER;
  for (const { key, def } of paramsOf(command)) {
    if (offset >= commandLength) break;
    const value = def.type.read(buffer, offset);
    pdu[key] = value;
    if (def.filter !== undefined) filtered.push(key);
    offset += def.type.size(value);
  }
  while (offset + 4 <= commandLength) {
    const tlvId = buffer.readUInt16BE(offset);
    const length = buffer.readUInt16BE(offset + 2);
    offset += 4;
    const tlv = tables.tlvsById[tlvId];
    if (tlv === undefined) {
      pdu[tlvId] = buffer.slice(offset, offset + length);
      offset += length;
      continue;
    }
    const tag = command.tlvMap?.[tlv.tag] ?? tlv.tag;
    const value = tlv.type.read(buffer, offset, length);
    if (!(tag in pdu) && tables.tlvs[tag]?.filter !== undefined) filtered.push(tag);
    if (tlv.multiple) ((pdu[tag] ??= []) as unknown[]).push(value);
    else pdu[tag] = value;
    offset += length;
  }
  if (filtered.length > 0) filterFields(pdu, command, filtered, 'decode');
  return pdu;
}

/** `PDU.fromStream`: the rest of a PDU whose length was read, or false while it has not all arrived. */
function fromStream(stream: { read(size: number): Buffer | null }, commandLength: number): smpp.PDU | false {
  const rest = stream.read(commandLength - 4);
  if (!rest) return false;
  // Its own copy, as node-smpp makes: fields read from it are views that must not pin the socket's chunk.
  const buffer = Buffer.allocUnsafe(commandLength);
  buffer.writeUInt32BE(commandLength, 0);
  rest.copy(buffer, 4);
  return decodePdu(buffer);
}

const PDU = smpp.PDU as smpp.PDUConstructor & Record<string | symbol, unknown>;

/** node-smpp's own encoding, for comparison. */
export const nodeSmppToBuffer: (this: smpp.PDU) => Buffer =
  (PDU[INSTALLED] as ((this: smpp.PDU) => Buffer) | undefined) ?? PDU.prototype.toBuffer;

function install(): void {
  if (PDU[INSTALLED] !== undefined) return;
  PDU[INSTALLED] = PDU.prototype.toBuffer;
  PDU.prototype.toBuffer = function toBuffer(this: smpp.PDU) {
    return encodePdu(this);
  };
  PDU.fromStream = fromStream;
}
install();
