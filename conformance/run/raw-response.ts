/**
 * An HTTP/1.1 response read incrementally from socket data, for the raw-socket path: the head
 * (at most MAX_HEAD_BYTES, interim 1xx answers skipped), then the body framed by
 * Content-Length, chunked encoding or the connection's close. Every byte is looked at once, so
 * thousands of tiny reads cost what one large read does, and the body is refused the moment it
 * passes the limit (a declared Content-Length over it is refused before any body byte).
 */
import { BodySink, type BodyProgress } from './body-sink.js';
import { headTooLarge, MAX_HEAD_BYTES, responseTooLarge } from './bounds.js';

export interface RawHead {
  readonly status: number;
  readonly headers: Record<string, string>;
}

export interface RawResponse extends RawHead {
  readonly body: Uint8Array;
}

const notHttp = (message: string, code: string): Error => Object.assign(new Error(message), { code });
/** A chunk-size line with extensions is a few dozen bytes; anything longer is not HTTP. */
const MAX_CHUNK_LINE = 4096;

function parseHead(text: string): RawHead {
  const [statusLine = '', ...lines] = text.split('\r\n');
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  if (match === null) throw notHttp(`not an HTTP status line: ${statusLine.slice(0, 80)}`, 'HPE_INVALID_CONSTANT');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  return { status: Number(match[1]), headers };
}

/** Chunked transfer coding, decoded as it arrives (RFC 9112 §7.1); trailers are read and dropped. */
class ChunkedDecoder {
  #state: 'size' | 'data' | 'data-end' | 'trailer' | 'done' = 'size';
  #line = '';
  #remaining = 0;
  #trailerBytes = 0;

  get done(): boolean {
    return this.#state === 'done';
  }

  /** Feeds wire bytes; `emit` receives the decoded data they carry. */
  push(data: Buffer, emit: (piece: Buffer) => void): void {
    let at = 0;
    while (at < data.length && this.#state !== 'done') {
      if (this.#state === 'data') {
        const take = Math.min(this.#remaining, data.length - at);
        emit(data.subarray(at, at + take));
        at += take;
        this.#remaining -= take;
        if (this.#remaining === 0) this.#state = 'data-end';
        continue;
      }
      const eol = data.indexOf(0x0a, at);
      const end = eol < 0 ? data.length : eol + 1;
      this.#line += data.toString('latin1', at, end);
      if (this.#state === 'trailer') this.#trailerBytes += end - at;
      at = end;
      if (this.#line.length > MAX_CHUNK_LINE || this.#trailerBytes > MAX_HEAD_BYTES)
        throw notHttp('a chunk-size or trailer line is too long', 'HPE_CHUNK_SIZE');
      if (eol >= 0) this.#endOfLine(this.#line.replace(/\r?\n$/, ''));
    }
  }

  #endOfLine(line: string): void {
    this.#line = '';
    if (this.#state === 'data-end') {
      if (line !== '') throw notHttp('chunk data is not followed by CRLF', 'HPE_INVALID_CHUNK_SIZE');
      this.#state = 'size';
    } else if (this.#state === 'size') {
      const size = /^([0-9a-fA-F]{1,12})\s*(;.*)?$/.exec(line);
      if (size === null) throw notHttp(`not a chunk size: ${line.slice(0, 40)}`, 'HPE_INVALID_CHUNK_SIZE');
      this.#remaining = parseInt(size[1]!, 16);
      this.#state = this.#remaining === 0 ? 'trailer' : 'data';
    } else if (line === '') {
      this.#state = 'done';
    }
  }
}

export class RawResponseReader {
  readonly #maxBodyBytes: number;
  readonly #headBuffer = Buffer.alloc(MAX_HEAD_BYTES);
  #headFilled = 0;
  #head: RawHead | undefined;
  #framing: 'length' | 'chunked' | 'close' | 'none' = 'close';
  #declared = 0;
  #chunked: ChunkedDecoder | undefined;
  readonly #body: BodySink;
  #complete = false;
  #started = false;

  constructor(maxBodyBytes: number) {
    this.#maxBodyBytes = maxBodyBytes;
    this.#body = new BodySink(maxBodyBytes);
  }

  get head(): RawHead | undefined {
    return this.#head;
  }

  /** The body received so far. */
  get body(): BodyProgress {
    return this.#body;
  }

  /** True once any byte has arrived. */
  get started(): boolean {
    return this.#started;
  }

  /** True once the response is whole by its framing (a close-delimited body never is). */
  get complete(): boolean {
    return this.#complete;
  }

  /** Feeds socket data; throws a BoundHit past a limit, an `HPE_*` error on bytes that are not HTTP. */
  push(chunk: Buffer): void {
    this.#started ||= chunk.length > 0;
    let data = chunk;
    while (this.#head === undefined && data.length > 0) data = this.#pushHead(data);
    if (data.length === 0 || this.#complete) return;
    if (this.#chunked !== undefined) {
      this.#chunked.push(data, (piece) => this.#body.append(piece));
      this.#complete = this.#chunked.done;
    } else {
      this.#body.append(this.#framing === 'length' ? data.subarray(0, this.#declared - this.#body.length) : data);
      this.#complete = this.#framing === 'length' && this.#body.length >= this.#declared;
    }
  }

  /** The response as received when the connection closed; undefined without a whole head. */
  result(): RawResponse | undefined {
    if (this.#head === undefined) return undefined;
    return { ...this.#head, body: this.#body.bytes() };
  }

  /** Collects head bytes; returns the data after the head (or nothing while the head is open). */
  #pushHead(data: Buffer): Buffer {
    const searchFrom = Math.max(0, this.#headFilled - 3);
    const room = MAX_HEAD_BYTES - this.#headFilled;
    const copied = data.copy(this.#headBuffer, this.#headFilled, 0, Math.min(room, data.length));
    this.#headFilled += copied;
    // Refuse bytes that are not HTTP at once rather than when the head limit is reached.
    if (this.#headFilled >= 5 && this.#headBuffer.toString('latin1', 0, 5) !== 'HTTP/')
      throw notHttp(
        `not an HTTP status line: ${JSON.stringify(this.#headBuffer.toString('latin1', 0, 40))}`,
        'HPE_INVALID_CONSTANT',
      );
    const end = this.#headBuffer.subarray(0, this.#headFilled).indexOf('\r\n\r\n', searchFrom);
    if (end < 0) {
      if (copied < data.length || this.#headFilled === MAX_HEAD_BYTES) throw headTooLarge();
      return Buffer.alloc(0);
    }
    const rest = data.subarray(copied - (this.#headFilled - (end + 4)));
    const head = parseHead(this.#headBuffer.toString('latin1', 0, end));
    this.#headFilled = 0;
    // An interim answer (100 Continue, 103 Early Hints) is followed by the real one.
    if (head.status >= 100 && head.status < 200) return rest;
    this.#startBody(head);
    return rest;
  }

  #startBody(head: RawHead): void {
    this.#head = head;
    if (head.status === 204 || head.status === 304) {
      this.#framing = 'none';
      this.#complete = true;
    } else if (/chunked/i.test(head.headers['transfer-encoding'] ?? '')) {
      this.#framing = 'chunked';
      this.#chunked = new ChunkedDecoder();
    } else if (head.headers['content-length'] !== undefined) {
      const declared = Number(head.headers['content-length']);
      if (!Number.isSafeInteger(declared) || declared < 0)
        throw notHttp(
          `invalid Content-Length ${head.headers['content-length'].slice(0, 40)}`,
          'HPE_INVALID_CONTENT_LENGTH',
        );
      if (declared > this.#maxBodyBytes) throw responseTooLarge(this.#maxBodyBytes, declared);
      this.#framing = 'length';
      this.#declared = declared;
      this.#complete = declared === 0;
    }
  }
}
