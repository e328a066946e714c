/**
 * Loads the root WSDL and everything it pulls in: `wsdl:import`, inline `xs:schema`s and
 * their `xs:import`/`xs:include`. A document is a file or a URL: a location relative to a URL
 * resolves against that URL (as a browser would), one relative to a file against its folder.
 * The parser itself never touches the network: URL documents come from `readUrl`, which the
 * contract layer (contract/read) serves from what it fetched; without it a remote
 * location is refused. Each document is read once (import cycles and diamonds are harmless)
 * and hashed in read order.
 */
import { createHash, type Hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { XmlReadError } from '../../runtime/xml/reader.js';
import { readXmlFast } from '../../runtime/xml/fast-reader.js';
import type { XmlElement } from '../../runtime/xml/types.js';
import { GeneratorError } from '../errors.js';
import type { ModelWarning } from '../model/index.js';
import { SOAP_ENCODING_NS, WSDL20_NS, WSDL_NS, XML_NS, XSD_NS } from './namespaces.js';
import { at, attr, children, tagName } from './xml-access.js';

export type ReadFile = (absPath: string) => string | Uint8Array;

/** Reads a document by absolute http(s) URL; throws an Error whose message says why it cannot. */
export type ReadUrl = (url: string) => string | Uint8Array;

/**
 * Thrown by a `readUrl` that has not fetched the URL yet: the parse stops (nothing else is
 * wrapped around it) so the caller can fetch the document and parse again.
 */
export class DocumentPending extends Error {
  override readonly name = 'DocumentPending';
  constructor(readonly url: string) {
    super(`${url} has not been fetched yet`);
  }
}

export interface WsdlDocument {
  readonly file: string;
  readonly root: XmlElement;
  readonly targetNamespace: string;
}

export interface SchemaDocument {
  readonly file: string;
  readonly root: XmlElement;
  readonly targetNamespace: string;
  readonly elementsQualified: boolean;
  readonly attributesQualified: boolean;
}

export interface DocumentSet {
  readonly wsdls: readonly WsdlDocument[];
  readonly schemas: readonly SchemaDocument[];
  readonly hash: string;
  readonly warnings: readonly ModelWarning[];
  /** Every document read (display names: paths as given, URLs whole), the root first. */
  readonly documents: readonly string[];
}

/**
 * One document: its display name (a file's path as given, relative staying relative; a URL
 * whole) and absolute path or URL; `remote` for a URL.
 */
interface FileRef {
  readonly display: string;
  readonly abs: string;
  readonly remote: boolean;
}

class Loader {
  readonly wsdls: WsdlDocument[] = [];
  readonly schemas: SchemaDocument[] = [];
  readonly warnings: ModelWarning[] = [];
  /** xs:import without schemaLocation: checked once every document is loaded. */
  readonly locationlessImports: { namespace: string; file: string; el: XmlElement }[] = [];
  private readonly seen = new Set<string>();
  private readonly hash: Hash = createHash('sha256');

  /** Every document read, by display name, in read order. */
  readonly documents: string[] = [];

  constructor(
    private readonly readFile: ReadFile,
    private readonly readUrl: ReadUrl | undefined,
  ) {}

  digest(): string {
    return this.hash.digest('hex');
  }

  /** Reads and parses a file once; undefined if it was already read. */
  read(ref: FileRef, importedFrom?: { file: string; el: XmlElement; location: string }): XmlElement | undefined {
    if (this.seen.has(ref.abs)) return undefined;
    let bytes: string | Uint8Array;
    try {
      bytes = this.readDocument(ref, importedFrom);
    } catch (error) {
      if (error instanceof DocumentPending || error instanceof GeneratorError) throw error;
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      if (importedFrom === undefined) {
        throw new GeneratorError('WSDL_IMPORT_UNRESOLVED', `cannot read the WSDL file (${reason})`, {
          file: ref.display,
          line: 1,
        });
      }
      throw new GeneratorError(
        'WSDL_IMPORT_UNRESOLVED',
        `<${tagName(importedFrom.el)}> location "${importedFrom.location}" cannot be read from ${ref.display} (${reason})`,
        at(importedFrom.file, importedFrom.el),
      );
    }
    this.seen.add(ref.abs);
    this.documents.push(ref.display);
    this.hash.update(bytes);
    try {
      // The fast path gives readXml's tree, or defers to it (comments, DOCTYPE, any error):
      // test/runtime/fast-reader.test.ts. It reads a comment-free WSDL several times faster.
      return readXmlFast(bytes).root;
    } catch (error) {
      if (!(error instanceof XmlReadError)) throw error;
      throw new GeneratorError('WSDL_MALFORMED_XML', `${error.detail} (column ${error.column})`, {
        file: ref.display,
        line: error.line,
      });
    }
  }

  private readDocument(
    ref: FileRef,
    importedFrom: { file: string; el: XmlElement; location: string } | undefined,
  ): string | Uint8Array {
    if (!ref.remote) return this.readFile(ref.abs);
    if (this.readUrl !== undefined) return this.readUrl(ref.abs);
    const where = importedFrom === undefined ? { file: ref.display, line: 1 } : at(importedFrom.file, importedFrom.el);
    const what =
      importedFrom === undefined
        ? `the WSDL ${ref.display}`
        : `<${tagName(importedFrom.el)}> location "${importedFrom.location}"`;
    throw new GeneratorError(
      'WSDL_IMPORT_UNRESOLVED',
      `${what} is remote and this reading of the WSDL fetches nothing: read the WSDL through smskit's contract loader (the CLI's --wsdl with --allow-import-host ${new URL(ref.abs).host}), or save the document locally and point the import at it`,
      where,
    );
  }

  addWsdl(ref: FileRef, root: XmlElement): void {
    const doc: WsdlDocument = { file: ref.display, root, targetNamespace: attr(root, 'targetNamespace') ?? '' };
    this.wsdls.push(doc);
    for (const el of children(root, WSDL_NS)) {
      if (el.local === 'import') this.followWsdlImport(ref, el);
      else if (el.local === 'types') this.addInlineSchemas(ref, el);
    }
  }

  private addInlineSchemas(ref: FileRef, types: XmlElement): void {
    for (const el of types.children) {
      if (el.type !== 'element') continue;
      if (el.ns === XSD_NS && el.local === 'schema') this.addSchema(ref, el, undefined);
      else if (el.local === 'schema' && OBSOLETE_XSD_NS.has(el.ns)) throw obsoleteSchema(ref.display, el);
      else
        this.warn(
          'WSDL_IGNORED_EXTENSION',
          `<${tagName(el)}> in wsdl:types is not an XML Schema 1.0 schema and was ignored`,
          ref.display,
          el,
        );
    }
  }

  private followWsdlImport(from: FileRef, el: XmlElement): void {
    const location = attr(el, 'location');
    if (location === undefined) {
      throw new GeneratorError(
        'WSDL_IMPORT_UNRESOLVED',
        `wsdl:import of namespace "${attr(el, 'namespace') ?? ''}" has no location`,
        at(from.display, el),
      );
    }
    const ref = resolveLocation(from, location, el);
    const root = this.read(ref, { file: from.display, el, location });
    if (root === undefined) return;
    if (root.ns === WSDL_NS && root.local === 'definitions') this.addWsdl(ref, root);
    else if (root.ns === XSD_NS && root.local === 'schema') this.addSchema(ref, root, undefined);
    else throw notWsdl(ref.display, root, 'a WSDL 1.1 <definitions> or an XML Schema <schema>');
  }

  /** `chameleonNamespace`: an included schema without targetNamespace takes its includer's. */
  addSchema(ref: FileRef, root: XmlElement, chameleonNamespace: string | undefined): void {
    const doc: SchemaDocument = {
      file: ref.display,
      root,
      targetNamespace: attr(root, 'targetNamespace') ?? chameleonNamespace ?? '',
      elementsQualified: attr(root, 'elementFormDefault') === 'qualified',
      attributesQualified: attr(root, 'attributeFormDefault') === 'qualified',
    };
    this.schemas.push(doc);
    for (const el of children(root, XSD_NS)) {
      if (el.local === 'import') this.followSchemaImport(ref, el);
      else if (el.local === 'include') this.followInclude(ref, el, doc.targetNamespace);
      else if (el.local === 'redefine') {
        throw new GeneratorError('WSDL_UNSUPPORTED', 'xs:redefine is not supported', at(ref.display, el));
      }
    }
  }

  private followSchemaImport(from: FileRef, el: XmlElement): void {
    const location = attr(el, 'schemaLocation');
    // XSD itself, xml: and SOAP-ENC are built in (IMPLICIT_NAMESPACES): never read, wherever the
    // import says they are (Mono's WCF imports XSD from a location that answers an HTML page;
    // many WSDLs point SOAP-ENC at schemas.xmlsoap.org).
    if (IMPLICIT_NAMESPACES.has(attr(el, 'namespace') ?? '')) return;
    if (location === undefined) {
      this.locationlessImports.push({ namespace: attr(el, 'namespace') ?? '', file: from.display, el });
      return;
    }
    const ref = resolveLocation(from, location, el);
    const root = this.read(ref, { file: from.display, el, location });
    if (root === undefined) return;
    if (!(root.ns === XSD_NS && root.local === 'schema')) throw notWsdl(ref.display, root, 'an XML Schema <schema>');
    this.addSchema(ref, root, undefined);
  }

  private followInclude(from: FileRef, el: XmlElement, targetNamespace: string): void {
    const location = attr(el, 'schemaLocation');
    if (location === undefined) {
      throw new GeneratorError('WSDL_IMPORT_UNRESOLVED', 'xs:include has no schemaLocation', at(from.display, el));
    }
    const ref = resolveLocation(from, location, el);
    const root = this.read(ref, { file: from.display, el, location });
    if (root === undefined) return;
    if (!(root.ns === XSD_NS && root.local === 'schema')) throw notWsdl(ref.display, root, 'an XML Schema <schema>');
    this.addSchema(ref, root, targetNamespace);
  }

  warn(code: string, message: string, file: string, el: XmlElement): void {
    this.warnings.push({ code, message, source: at(file, el) });
  }
}

const URL_SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;
const WINDOWS_DRIVE = /^[a-zA-Z]:[\\/]/;

const HTTP_URL = /^https?:\/\//i;

/** A root document given as an http(s) URL, or a file path. */
export function documentRef(location: string): FileRef {
  if (HTTP_URL.test(location)) return { display: location, abs: new URL(location).href, remote: true };
  return { display: location, abs: path.resolve(location), remote: false };
}

/**
 * Relative locations resolve against the importing document: a URL against its URL (so a WSDL
 * read from a service finds the schema beside it there), a file against its folder. Absolute
 * http(s) URLs are remote documents; other schemes (file:, ftp:) are refused.
 */
function resolveLocation(from: FileRef, location: string, el: XmlElement): FileRef {
  const trimmed = location.trim();
  if (HTTP_URL.test(trimmed) || (from.remote && !URL_SCHEME.test(trimmed))) {
    const url = URL.parse(trimmed, from.remote ? from.abs : undefined);
    if (url === null)
      throw new GeneratorError(
        'WSDL_IMPORT_UNRESOLVED',
        `<${tagName(el)}> location "${trimmed}" is not a valid URL`,
        at(from.display, el),
      );
    url.hash = '';
    return { display: url.href, abs: url.href, remote: true };
  }
  if (URL_SCHEME.test(trimmed) && !WINDOWS_DRIVE.test(trimmed)) {
    throw new GeneratorError(
      'WSDL_IMPORT_UNRESOLVED',
      `<${tagName(el)}> location "${trimmed}" uses a scheme smskit does not read: only files and http(s) URLs are followed`,
      at(from.display, el),
    );
  }
  const display = path.isAbsolute(trimmed) ? trimmed : path.join(path.dirname(from.display), trimmed);
  return { display, abs: path.resolve(path.dirname(from.abs), trimmed), remote: false };
}

/** Namespaces of the XML Schema drafts before the 2001 Recommendation. */
const OBSOLETE_XSD_NS = new Set(['http://www.w3.org/2000/10/XMLSchema', 'http://www.w3.org/1999/XMLSchema']);

function obsoleteSchema(file: string, el: XmlElement): GeneratorError {
  return new GeneratorError(
    'WSDL_UNSUPPORTED',
    `<${tagName(el)}> is in ${el.ns}, a draft namespace of XML Schema from before the 2001 Recommendation; smskit reads XML Schema 1.0 (${XSD_NS}): the service's stack is too old, or the schema needs its namespace updated`,
    at(file, el),
  );
}

function notWsdl(file: string, root: XmlElement, expected: string): GeneratorError {
  if (root.local === 'schema' && OBSOLETE_XSD_NS.has(root.ns)) return obsoleteSchema(file, root);
  const found = `<${tagName(root)}>${root.ns === '' ? '' : ` in namespace ${root.ns}`}`;
  const hint = root.ns === WSDL20_NS ? ' (WSDL 2.0 is not supported)' : '';
  return new GeneratorError('WSDL_NOT_WSDL', `expected ${expected}, found ${found}${hint}`, at(file, root));
}

/**
 * Namespaces imported without a location that need no schema: XSD and xml: are built in, and
 * ASMX imports SOAP-ENC in every WSDL with array parameters only for the `soapenc:Array`
 * restriction base, which is read as a literal array (parse/complex-types.ts).
 */
const IMPLICIT_NAMESPACES = new Set([XSD_NS, XML_NS, SOAP_ENCODING_NS]);

/** Loads the root WSDL and its imports; `file` is kept exactly as given for display. */
export function loadDocuments(
  file: string,
  readFile: ReadFile = (p) => readFileSync(p),
  readUrl: ReadUrl | undefined = undefined,
): DocumentSet {
  const loader = new Loader(readFile, readUrl);
  const ref = documentRef(file);
  const root = loader.read(ref)!;
  if (!(root.ns === WSDL_NS && root.local === 'definitions')) {
    throw notWsdl(file, root, `a WSDL 1.1 <definitions> element in namespace ${WSDL_NS}`);
  }
  loader.addWsdl(ref, root);
  const provided = new Set(loader.schemas.map((s) => s.targetNamespace));
  for (const imp of loader.locationlessImports) {
    if (provided.has(imp.namespace) || IMPLICIT_NAMESPACES.has(imp.namespace)) continue;
    loader.warn(
      'XSD_IMPORT_NO_LOCATION',
      `xs:import of namespace "${imp.namespace}" has no schemaLocation and no schema in the document set provides it`,
      imp.file,
      imp.el,
    );
  }
  return {
    wsdls: loader.wsdls,
    schemas: loader.schemas,
    hash: loader.digest(),
    warnings: loader.warnings,
    documents: loader.documents,
  };
}
