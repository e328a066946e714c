/**
 * `parseWsdl`: a WSDL 1.1 file (plus its local imports) -> the fully resolved `WsdlModel`.
 *
 * Steps, one module each: load the documents (documents.ts), index every global definition by
 * Clark name (definition-index.ts), then resolve messages and portTypes (messages.ts), bindings
 * (bindings.ts with soap-/http-binding.ts), services (services.ts) and finally the schema
 * components (schema-set.ts and the XSD modules). Bindings are read before the schema is
 * resolved so that an rpc/encoded WSDL is refused for that reason, not for its SOAP-ENC types.
 */
import { clark, type Message, type PortType, type WsdlModel } from '../model/index.js';
import { readBinding } from './bindings.js';
import { indexSchemas, indexWsdl } from './definition-index.js';
import { loadDocuments, type ReadFile, type ReadUrl } from './documents.js';
import { readMessage, readPortType } from './messages.js';
import { WSDL_NS } from './namespaces.js';
import { resolveSchemaSet } from './schema-set.js';
import { readService } from './services.js';
import { wsdlDocumentation } from './xml-access.js';

export interface ParseOptions {
  /** Reads a file by absolute path (default: fs.readFileSync). Tests use it to serve fixtures. */
  readonly readFile?: ReadFile;
  /**
   * Reads an http(s) document (a root given as a URL, a remote import, or a relative import of
   * a URL document). Without it remote documents are refused; generator/contract provides it.
   */
  readonly readUrl?: ReadUrl;
}

export function parseWsdl(file: string, options?: ParseOptions): WsdlModel {
  const docs = loadDocuments(file, options?.readFile, options?.readUrl);
  const schemaIndex = indexSchemas(docs);
  const wsdlIndex = indexWsdl(docs);
  const messages: Message[] = [...wsdlIndex.messages.values()].map((def) => readMessage(schemaIndex, def));
  const portTypes: PortType[] = [...wsdlIndex.portTypes.values()].map((def) => readPortType(wsdlIndex, def));
  const ctx = {
    messages: new Map(messages.map((m) => [clark(m.name), m])),
    portTypes: new Map(portTypes.map((p) => [clark(p.name), p])),
  };
  const bindings = [...wsdlIndex.bindings.values()].map((def) => readBinding(ctx, def));
  const services = [...wsdlIndex.services.values()].map((def) => readService(wsdlIndex, def));
  const schema = resolveSchemaSet(schemaIndex);
  const root = docs.wsdls[0]!;
  const documentation = wsdlDocumentation(root.root, WSDL_NS);
  return {
    file,
    hash: docs.hash,
    targetNamespace: root.targetNamespace,
    ...(documentation === undefined ? {} : { documentation }),
    services,
    bindings,
    portTypes,
    messages,
    schema,
    warnings: docs.warnings,
    ...(docs.documents.length > 1 ? { imports: docs.documents.slice(1) } : {}),
  };
}

export { DocumentPending, type ReadFile, type ReadUrl } from './documents.js';
