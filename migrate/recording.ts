/**
 * A recording: the exchanges `smskit record` saw, in a folder of its own.
 *
 *   DIR/recording.json           what was recorded: the upstream, when, whether secrets were kept
 *   DIR/exchanges-000001.jsonl   one exchange a line (request and answer, bodies in base64)
 *
 * Bounded: a stored body is cut at maxBodyBytes (the exchange is then kept for the record but
 * not replayed), a file is closed at maxFileBytes and the next one opened, and only the newest
 * maxFiles files are kept. Lines are appended whole, so a recorder stopped at any moment leaves
 * every earlier line readable; a torn last line is skipped with a warning when read.
 */
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const RECORDING_FORMAT = 1;
const META = 'recording.json';
const FILE = /^exchanges-(\d{6})\.jsonl$/;

export type HeaderList = readonly (readonly [string, string])[];

export interface StoredMessage {
  readonly headers: HeaderList;
  /** base64 of the body as stored (redacted unless secrets were kept; cut when `truncated`). */
  readonly body: string;
  readonly truncated?: true;
}

export interface StoredRequest extends StoredMessage {
  readonly method: string;
  /** Path and query as the client sent them (`/rich.asmx/Add?a=1&b=2`). */
  readonly target: string;
}

export interface StoredResponse extends StoredMessage {
  readonly status: number;
}

export interface Exchange {
  readonly id: number;
  /** When the request arrived (ISO 8601). */
  readonly at: string;
  /** From the request's arrival to the answer's last byte from the upstream. */
  readonly ms: number;
  readonly request: StoredRequest;
  /** Undefined when the upstream did not answer (the client got 502). */
  readonly response: StoredResponse | undefined;
  /**
   * Set when the exchange failed: why (`the upstream did not answer (ECONNREFUSED); the client
   * was answered 502`, `the answer broke off after 512 bytes (UND_ERR_SOCKET); the client's
   * connection was aborted`). The response, if any, is then what arrived (`truncated`), never a
   * complete answer: a replay compares against it only with a reference server.
   */
  readonly failure?: string;
  /**
   * The secrets this exchange carries, by rule (`header Authorization`, `element password`,
   * `answer header Set-Cookie`): replaced by `***` in the recording unless the recording's
   * `secretsKept` is true, in which case they are there as sent.
   */
  readonly secrets: readonly string[];
}

export interface RecordingMeta {
  readonly format: typeof RECORDING_FORMAT;
  readonly tool: string;
  /** The upstream's origin and base path, without credentials. */
  readonly upstream: string;
  readonly startedAt: string;
  /** false: every secret the rules know was replaced by `***` (the default); true: `--keep-secrets`. */
  readonly secretsKept: boolean;
  /** The field names redacted by rule (from the WSDL and the built-in rule). */
  readonly secretFields: readonly string[];
}

export interface StoreLimits {
  readonly maxBodyBytes: number;
  readonly maxFileBytes: number;
  readonly maxFiles: number;
}

export const DEFAULT_STORE_LIMITS: StoreLimits = {
  maxBodyBytes: 1024 * 1024,
  maxFileBytes: 16 * 1024 * 1024,
  maxFiles: 16,
};

export class RecordingError extends Error {
  readonly code = 'RECORDING';
}

const fileName = (n: number): string => `exchanges-${String(n).padStart(6, '0')}.jsonl`;

/** Appends exchanges to a recording folder, rotating and pruning its files. */
export class RecordingWriter {
  readonly #dir: string;
  readonly #limits: StoreLimits;
  #file: number;
  #bytes = 0;
  #nextId = 1;
  #written = 0;
  #pending: string[] = [];
  #flushing = false;

  readonly #onError: (message: string) => void;

  constructor(
    dir: string,
    meta: RecordingMeta,
    limits: StoreLimits = DEFAULT_STORE_LIMITS,
    onError: (message: string) => void = () => undefined,
  ) {
    this.#dir = dir;
    this.#limits = limits;
    this.#onError = onError;
    mkdirSync(dir, { recursive: true });
    if (existsSync(join(dir, META)) || exchangeFiles(dir).length > 0)
      throw new RecordingError(`${dir} already holds a recording: give an empty or new folder`);
    writeFileSync(join(dir, META), `${JSON.stringify(meta, null, 2)}\n`);
    this.#file = 1;
  }

  /** The next exchange id (ids are given in arrival order). */
  nextId(): number {
    return this.#nextId++;
  }

  get written(): number {
    return this.#written;
  }

  /**
   * Queues the exchange's line; lines are appended together once the current turn of the event
   * loop ends (one write for every exchange that finished in it), and at once before a rotation.
   */
  write(exchange: Exchange): void {
    const line = `${JSON.stringify(exchange)}\n`;
    const size = Buffer.byteLength(line);
    if (this.#bytes > 0 && this.#bytes + size > this.#limits.maxFileBytes) {
      this.flush();
      this.#file++;
      this.#bytes = 0;
      this.#prune();
    }
    this.#pending.push(line);
    this.#bytes += size;
    this.#written++;
    if (!this.#flushing) {
      this.#flushing = true;
      setImmediate(() => {
        try {
          this.flush();
        } catch (error) {
          this.#onError(`could not store exchanges: ${(error as Error).message}`);
        }
      });
    }
  }

  /** Appends the queued lines now. */
  flush(): void {
    this.#flushing = false;
    if (this.#pending.length === 0) return;
    const text = this.#pending.join('');
    this.#pending = [];
    appendFileSync(join(this.#dir, fileName(this.#file)), text);
  }

  /** Stored body: cut at the limit, base64. */
  body(bytes: Buffer): { body: string; truncated?: true } {
    if (bytes.length <= this.#limits.maxBodyBytes) return { body: bytes.toString('base64') };
    return { body: bytes.subarray(0, this.#limits.maxBodyBytes).toString('base64'), truncated: true };
  }

  #prune(): void {
    const files = exchangeFiles(this.#dir);
    for (const old of files.slice(0, Math.max(0, files.length - this.#limits.maxFiles + 1)))
      rmSync(join(this.#dir, old), { force: true });
  }
}

function exchangeFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => FILE.test(f))
    .sort();
}

export interface LoadedRecording {
  readonly meta: RecordingMeta;
  readonly exchanges: readonly Exchange[];
  /** Lines that could not be read (a torn last line), one message each. */
  readonly warnings: readonly string[];
}

/** Reads a recording folder; a folder that is not one is a RecordingError naming it. */
export function readRecording(dir: string): LoadedRecording {
  let meta: RecordingMeta;
  try {
    meta = JSON.parse(readFileSync(join(dir, META), 'utf8')) as RecordingMeta;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new RecordingError(
      `${join(dir, META)}: ${code === 'ENOENT' ? 'not found (is this a folder smskit record wrote?)' : 'not readable JSON'}`,
    );
  }
  if (meta.format !== RECORDING_FORMAT)
    throw new RecordingError(
      `${join(dir, META)}: recording format ${String(meta.format)}, this smskit reads ${RECORDING_FORMAT}`,
    );
  const exchanges: Exchange[] = [];
  const warnings: string[] = [];
  for (const file of exchangeFiles(dir)) {
    const lines = readFileSync(join(dir, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (line.trim() === '') return;
      try {
        exchanges.push(JSON.parse(line) as Exchange);
      } catch {
        warnings.push(`${file}:${i + 1}: not a whole exchange (skipped)`);
      }
    });
  }
  exchanges.sort((a, b) => a.id - b.id);
  return { meta, exchanges, warnings };
}

/** A header's value (the name in any case). */
export function headerValue(headers: HeaderList, name: string): string | undefined {
  const lower = name.toLowerCase();
  return headers.find(([n]) => n.toLowerCase() === lower)?.[1];
}
