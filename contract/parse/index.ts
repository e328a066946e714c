/**
 * `parseWsdl`: a WSDL 1.1 file (plus its local imports) -> the fully resolved `WsdlModel`.
 *
 * Steps, one module each: load the documents (documents.ts), index every global definition by
 * Clark name (definition-index.ts), then resolve messages and portTypes (messages.ts), bindings
 * (bindings.ts with soap-/http-binding.ts), services (services.ts) and finally the schema
 * components (schema-set.ts and the XSD modules). Bindings are read before the schema is
 * resolved so that an rpc/encoded WSDL is refused for that reason, not for its SOAP-ENC types.
 */
import { type Binding, clark, type Message, type PortType, type WsdlModel } from '../model/index.js';
import { readBinding } from './bindings.js';
import { indexSchemas, indexWsdl } from './definition-index.js';
import { loadDocuments, type ReadFile, type ReadUrl } from './documents.js';
import { readMessage, readPortType, unresolvedMessageWarnings } from './messages.js';
import { WSDL_NS } from './namespaces.js';
import { resolveSchemaSet, withoutBodyArrays } from './schema-set.js';
import { withTypedHeaderElements } from './typed-headers.js';
import { type BrokenDefinition, dropDependents, omissionWarning, tolerate } from './broken.js';
import { duplicatePortWarnings, readService } from './services.js';
import { wsdlDocumentation } from './xml-access.js';

export interface ParseOptions {
  /** Reads a file by absolute path (default: fs.readFileSync). Tests use it to serve fixtures. */
  readonly readFile?: ReadFile;
  /**
   * Reads an http(s) document (a root given as a URL, a remote import, or a relative import of
   * a URL document). Without it remote documents are refused; contract/read provides it.
   */
  readonly readUrl?: ReadUrl;
}

/** The messages SOAP bindings carry as bodies (their wrappers are objects, never arrays). */
function soapBodyMessages(bindings: readonly Binding[], messages: readonly Message[]): Message[] {
  const used = new Set(
    bindings
      .filter((b) => b.protocol === 'soap11' || b.protocol === 'soap12')
      .flatMap((b) => b.operations.flatMap((o) => [o.portTypeOperation.input, o.portTypeOperation.output]))
      .flatMap((name) => (name === undefined ? [] : [clark(name)])),
  );
  return messages.filter((m) => used.has(clark(m.name)));
}

export function parseWsdl(file: string, options?: ParseOptions): WsdlModel {
  const docs = loadDocuments(file, options?.readFile, options?.readUrl);
  const schemaIndex = indexSchemas(docs);
  const wsdlIndex = indexWsdl(docs);
  const broken = new Map<string, BrokenDefinition>();
  const readMessages = [...wsdlIndex.messages.values()].flatMap(
    (def) =>
      tolerate(`message:{${def.doc.targetNamespace}}${def.name}`, broken, () => readMessage(schemaIndex, def)) ?? [],
  );
  const portTypes: PortType[] = [...wsdlIndex.portTypes.values()].map((def) => readPortType(wsdlIndex, def));
  const resolved = resolveSchemaSet(schemaIndex, broken);
  const { schema: keptSchema, messages, warnings: omitted } = dropDependents(resolved, readMessages, broken);
  const ctx = {
    messages: new Map(messages.map((m) => [clark(m.name), m])),
    portTypes: new Map(portTypes.map((p) => [clark(p.name), p])),
  };
  // A binding that cannot be read (its portType not declared, say) is left out with the ports
  // that use it; the file is refused for it only when no port is left (plan/service.ts).
  const bindings = [...wsdlIndex.bindings.values()].flatMap(
    (def) => tolerate(`binding:{${def.doc.targetNamespace}}${def.name}`, broken, () => readBinding(ctx, def)) ?? [],
  );
  const typed = withTypedHeaderElements(
    withoutBodyArrays(keptSchema, soapBodyMessages(bindings, messages)),
    bindings,
    messages,
  );
  const schema = typed.schema;
  const services = [...wsdlIndex.services.values()].map((def) => readService(wsdlIndex, def));
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
    warnings: [
      ...docs.warnings,
      ...omitted,
      ...[...broken.values()].filter((b) => b.key.startsWith('binding:')).map(omissionWarning),
      ...portTypes.flatMap(unresolvedMessageWarnings),
      ...typed.warnings,
      ...duplicatePortWarnings(services),
    ],
    ...(broken.size === 0
      ? {}
      : {
          omitted: Object.fromEntries(
            [...broken].map(([key, b]) => [key, { code: b.code, what: b.what, source: b.source }]),
          ),
        }),
    ...(docs.documents.length > 1 ? { imports: docs.documents.slice(1) } : {}),
  };
}

export { DocumentPending, type ReadFile, type ReadUrl } from './documents.js';
