/**
 * The part of node-smpp (npm `smpp` 0.5.1, which ships no types) that the SMPP route and the
 * simulator use. node-smpp frames PDUs, encodes and decodes their fields and TLVs, and matches
 * responses to requests by sequence number; everything else (message octets, windows, pacing,
 * receipts) is ours.
 */
declare module 'smpp' {
  import type { EventEmitter } from 'node:events';
  import type { Server as NetServer, Socket } from 'node:net';

  namespace smpp {
    /** A decoded PDU: the header fields, then each mandatory field and TLV by its node-smpp name. */
    interface PDU {
      command: string;
      command_length: number;
      command_id: number;
      command_status: number;
      sequence_number: number;
      [field: string]: unknown;
      isResponse(): boolean;
      response(options?: Record<string, unknown>): PDU;
      toBuffer(): Buffer;
    }

    interface PDUConstructor {
      new (command: string, options?: Record<string, unknown>): PDU;
      new (buffer: Buffer): PDU;
      prototype: PDU;
      maxLength: number;
      /** The rest of a PDU whose length was read from `stream`, or false until it has all arrived. */
      fromStream(stream: { read(size: number): Buffer | null }, commandLength: number): PDU | false;
    }

    interface Session extends EventEmitter {
      socket: Socket;
      /** Writes `pdu`; false when the socket is no longer writable. */
      send(pdu: PDU, onResponse?: (response: PDU) => void, onWritten?: (pdu: PDU) => void): boolean;
      close(callback?: () => void): void;
      destroy(callback?: () => void): void;
    }

    interface MessageFilter {
      decode(this: Record<string, unknown>, value: unknown, skipUdh?: boolean): unknown;
      encode(this: Record<string, unknown>, value: unknown): unknown;
    }
  }

  const smpp: {
    PDU: smpp.PDUConstructor;
    connect(options: Record<string, unknown>): smpp.Session;
    createServer(options: Record<string, unknown>, listener?: (session: smpp.Session) => void): NetServer;
    /** command_status names → codes (ESME_ROK, ESME_RTHROTTLED, …). */
    errors: Readonly<Record<string, number>>;
    filters: { message: smpp.MessageFilter };
  };
  export = smpp;
}
