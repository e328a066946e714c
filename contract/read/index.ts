/**
 * The contract layer: where a WSDL comes from, for every command and library call that reads
 * one (generate, inspect, diff, call, conformance). A file or an http(s) URL becomes text, then
 * `parseWsdl`'s model — read once, no temporary files, one error code (CONTRACT_UNREADABLE) for
 * a contract that cannot be read at all; what is wrong inside a document keeps the parser's
 * own codes and names the document (the URL for a fetched one) and line.
 *
 * Imports of a document read from a URL resolve against that URL and are fetched too, with the
 * same network options, one document at a time, bounded in count, size and time; by default
 * only from the WSDL's own origin, other hosts when `allowImportHosts` names them. A WSDL read
 * from a file fetches a remote import only from a host so named.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { GeneratorError } from '../errors.js';
import type { WsdlModel } from '../model/index.js';
import { DocumentPending, parseWsdl } from '../parse/index.js';
import type { NetworkOptions } from '../../runtime/network/types.js';
import { withoutCredentials } from '../../runtime/network/proxy.js';
import { FetchFailure, type FetchLimits, fetchDocument, htmlPageHint, isHtmlPage } from './fetch.js';
import { credentialsFor, importRefusal } from './policy.js';

export { FetchFailure, type FetchLimits } from './fetch.js';

export interface ContractOptions {
  /** TLS, proxy and HTTP auth for the fetches (a ServiceClient's options of the same names). */
  readonly network?: NetworkOptions;
  /**
   * The service the credentials (`auth`, the client certificate) are for, when it is not the
   * WSDL's own origin: fetches elsewhere go without them. CAs and the proxy always apply.
   */
  readonly serviceUrl?: string;
  /** Per document fetched. Default 10 s. */
  readonly timeoutMs?: number;
  /** Per document fetched. Default 16 MiB (the largest real WSDLs are well under 1 MiB). */
  readonly maxBytes?: number;
  /** Hosts (`host` or `host:port`, `*` for any) imports may be fetched from besides the WSDL's own origin. */
  readonly allowImportHosts?: readonly string[];
  /** Documents fetched in all, the WSDL included. Default 32. */
  readonly maxDocuments?: number;
}

export interface Contract {
  readonly model: WsdlModel;
  /** The root WSDL's text as read (the embedded conformance service serves it back). */
  readonly text: string;
  /** Every document read, the root first: paths as given, URLs without credentials. */
  readonly documents: readonly string[];
}

export const DEFAULT_CONTRACT_LIMITS: FetchLimits = { timeoutMs: 10_000, maxBytes: 16 * 1024 * 1024 };
const DEFAULT_MAX_DOCUMENTS = 32;

export function isContractUrl(location: string): boolean {
  return /^https?:\/\//i.test(location);
}

/** `<where>: <what>`: the contract as a whole cannot be read (so no line is named). */
function unreadable(where: string, what: string): GeneratorError {
  return new GeneratorError('CONTRACT_UNREADABLE', what, { file: where, line: 0 });
}

/** Reads the contract at `location` (a file path or an http(s) URL) into the model. */
export async function readContract(location: string, options: ContractOptions = {}): Promise<Contract> {
  const rootUrl = isContractUrl(location) ? URL.parse(location) : undefined;
  if (rootUrl === null) throw unreadable(location, 'cannot read the WSDL: not a valid URL');
  const shown = rootUrl === undefined ? location : withoutCredentials(rootUrl);
  const fetched = new Map<string, Buffer>();
  const failed = new Map<string, string>();
  const limits = {
    timeoutMs: options.timeoutMs ?? DEFAULT_CONTRACT_LIMITS.timeoutMs,
    maxBytes: options.maxBytes ?? DEFAULT_CONTRACT_LIMITS.maxBytes,
  };
  const fetchOne = (url: URL): Promise<Buffer> =>
    fetchDocument(url, credentialsFor(url, options.network ?? {}, options.serviceUrl ?? rootUrl?.href), limits);
  let text: string;
  if (rootUrl === undefined) text = readRootFile(location);
  else {
    const body = await fetchOne(rootUrl).catch((error: unknown) => {
      throw error instanceof FetchFailure ? unreadable(shown, `cannot fetch the WSDL: ${error.message}`) : error;
    });
    if (isHtmlPage(body)) throw unreadable(shown, htmlPageHint(rootUrl, body));
    fetched.set(shown, body);
    text = body.toString('utf8');
  }
  const maxDocuments = options.maxDocuments ?? DEFAULT_MAX_DOCUMENTS;
  const readUrl = (url: string): Buffer => {
    const body = fetched.get(url);
    if (body !== undefined) return body;
    const reason = failed.get(url) ?? importRefusal(new URL(url), rootUrl, options.allowImportHosts ?? []);
    if (reason !== undefined) throw new Error(reason);
    if (fetched.size >= maxDocuments)
      throw new Error(`not fetched: the contract would take more than ${maxDocuments} documents`);
    throw new DocumentPending(url);
  };
  const root = rootUrl === undefined ? location : shown;
  const rootFile = rootUrl === undefined ? path.resolve(location) : undefined;
  for (;;) {
    try {
      const model = parseWsdl(root, {
        readFile: (abs) => (abs === rootFile ? text : readFileSync(abs)),
        readUrl,
      });
      return { model, text, documents: [root, ...(model.imports ?? [])] };
    } catch (error) {
      if (!(error instanceof DocumentPending)) throw error;
      await fetchImport(new URL(error.url), fetchOne, fetched, failed);
    }
  }
}

/** Fetches one import into `fetched`, or records why it cannot be read (the parse names the import). */
async function fetchImport(
  url: URL,
  fetchOne: (url: URL) => Promise<Buffer>,
  fetched: Map<string, Buffer>,
  failed: Map<string, string>,
): Promise<void> {
  try {
    const body = await fetchOne(url);
    if (isHtmlPage(body)) failed.set(url.href, 'the server answered an HTML page, not a schema or WSDL');
    else fetched.set(url.href, body);
  } catch (error) {
    if (!(error instanceof FetchFailure)) throw error;
    failed.set(url.href, error.message);
  }
}

function readRootFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw unreadable(file, `cannot read the WSDL file (${reason})`);
  }
}

/**
 * The model of a WSDL given as text (a server's `?wsdl` answer, read by a conformance check):
 * parsed under `label` (the URL it came from, so relative imports resolve against it); the
 * documents it imports are read from `documents` (fetched ahead by collectServedImports), and
 * one that is not there is refused with the reason `refused` gives, else "not fetched".
 */
export function contractFromText(
  text: string | Uint8Array,
  label: string,
  documents: ReadonlyMap<string, Uint8Array> = new Map(),
  refused: ReadonlyMap<string, string> = new Map(),
): WsdlModel {
  const root = isContractUrl(label) ? new URL(label).href : label;
  const rootFile = isContractUrl(label) ? undefined : path.resolve(label);
  return parseWsdl(root, {
    readFile: (abs) => {
      if (abs === rootFile) return text;
      throw new Error('not read: only the served document itself is checked');
    },
    readUrl: (url) => {
      if (url === root) return text;
      const document = documents.get(url);
      if (document !== undefined) return document;
      throw new Error(refused.get(url) ?? 'not fetched: only the served document itself is checked');
    },
  });
}

export interface ServedImports {
  /** Each imported document fetched, by URL. */
  readonly documents: ReadonlyMap<string, Uint8Array>;
  /** Each import that was not fetched, with why (the parse names it when it needs it). */
  readonly refused: ReadonlyMap<string, string>;
}

/**
 * The documents a served WSDL imports (wsdl:import, xsd:import, xsd:include with a location),
 * transitively, fetched by `fetch` (which applies the caller's origin rule, size and time limits
 * and returns why it did not fetch one as a string), at most `maxDocuments` in all: what
 * contractFromText needs to read the served WSDL as a client would.
 */
export async function collectServedImports(
  text: string | Uint8Array,
  url: string,
  fetch: (url: URL) => Promise<Uint8Array | string>,
  maxDocuments = DEFAULT_MAX_DOCUMENTS,
): Promise<ServedImports> {
  const root = new URL(url).href;
  const documents = new Map<string, Uint8Array>();
  const refused = new Map<string, string>();
  for (;;) {
    try {
      parseWsdl(root, {
        readFile: () => {
          throw new Error('not read: a served WSDL imports by URL');
        },
        readUrl: (wanted) => {
          if (wanted === root) return text;
          const document = documents.get(wanted);
          if (document !== undefined) return document;
          const reason = refused.get(wanted);
          if (reason !== undefined) throw new Error(reason);
          if (documents.size + 1 >= maxDocuments)
            throw new Error(`not fetched: the served WSDL would take more than ${maxDocuments} documents`);
          throw new DocumentPending(wanted);
        },
      });
      return { documents, refused };
    } catch (error) {
      if (!(error instanceof DocumentPending)) return { documents, refused };
      const answer = await fetch(new URL(error.url));
      if (typeof answer === 'string') refused.set(error.url, answer);
      else if (isHtmlPage(Buffer.from(answer)))
        refused.set(error.url, 'the server answered an HTML page, not a schema or WSDL');
      else documents.set(error.url, answer);
    }
  }
}
