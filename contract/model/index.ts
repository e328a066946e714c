/**
 * The resolved WSDL model: what `parse` produces and what `emit` and `toDescriptor` consume.
 *
 * Rules that every producer and consumer relies on:
 * - Names are QNames by namespace URI (`{ ns, local }`), never by prefix. `ns` is '' for
 *   "no namespace". Maps are keyed by Clark notation `{ns}local` (see `clark`).
 * - Everything is plain data (JSON-serialisable, no class instances, no cycles), so golden
 *   tests can snapshot it and the descriptor can be derived from it by a pure function.
 * - Order is significant everywhere it is in the document: particles, parts, operations,
 *   bindings, ports and enumeration values keep document order.
 * - Every named thing carries `source` (file and line where it is declared) so that later
 *   errors can point at the WSDL line that caused them.
 */

export interface QName {
  readonly ns: string;
  readonly local: string;
}

/** Clark notation `{ns}local`: the key used for every map in the model. */
export function clark(name: QName): string {
  return `{${name.ns}}${name.local}`;
}

export function qname(ns: string, local: string): QName {
  return { ns, local };
}

export interface SourceLocation {
  /** Path as given to the parser (relative paths stay relative: output must be deterministic). */
  readonly file: string;
  readonly line: number;
}

export { XSD_NS } from '../../runtime/namespaces.js';

// ---------------------------------------------------------------------------------------------
// XSD

export type MaxOccurs = number | 'unbounded';

/** How an element or attribute refers to its type. */
export type TypeUse =
  /** A built-in XSD simple type, e.g. { ns: XSD_NS, local: 'string' }. */
  | { readonly kind: 'builtin'; readonly name: QName }
  /** A named simpleType or complexType declared in some schema of the document set. */
  | { readonly kind: 'named'; readonly name: QName }
  /** An anonymous type declared inline. */
  | { readonly kind: 'inline'; readonly type: SchemaType }
  /** xs:anyType (or no type at all): arbitrary XML content, kept as an XML fragment. */
  | { readonly kind: 'anyType' };

export interface ElementDecl {
  readonly kind: 'element';
  /** Fully resolved QName on the wire (form/elementFormDefault already applied). */
  readonly name: QName;
  readonly type: TypeUse;
  readonly minOccurs: number;
  readonly maxOccurs: MaxOccurs;
  readonly nillable: boolean;
  /** Set when the particle was `<element ref="...">`: the referenced global element. */
  readonly ref?: QName;
  /** `ref="s:schema"` (DataSet results): the content is an inline XML Schema document. */
  readonly isSchemaRef?: boolean;
  readonly defaultValue?: string;
  readonly fixedValue?: string;
  readonly documentation?: string;
  readonly source: SourceLocation;
}

export interface AnyParticle {
  readonly kind: 'any';
  /** The namespace constraint as written (`##any`, `##other`, a list of URIs). */
  readonly namespace: string;
  readonly processContents: 'strict' | 'lax' | 'skip';
  readonly minOccurs: number;
  readonly maxOccurs: MaxOccurs;
  readonly source: SourceLocation;
}

export interface GroupParticle {
  readonly kind: 'sequence' | 'choice' | 'all';
  readonly minOccurs: number;
  readonly maxOccurs: MaxOccurs;
  readonly particles: readonly Particle[];
  readonly source: SourceLocation;
  /**
   * Set on the choice a reference to the head of a substitution group stands for
   * (parse/substitution-groups.ts): its members are the head (unless abstract) and every element
   * that may take its place, under their own names (XSD 1.0 Part 1 §3.3.4).
   */
  readonly substitutionHead?: QName;
}

export type Particle = ElementDecl | AnyParticle | GroupParticle;

export interface AttributeDecl {
  readonly name: QName;
  readonly type: TypeUse;
  readonly use: 'optional' | 'required' | 'prohibited';
  readonly defaultValue?: string;
  readonly fixedValue?: string;
  readonly documentation?: string;
  readonly source: SourceLocation;
}

export interface ComplexType {
  readonly kind: 'complex';
  /** Undefined for anonymous types. */
  readonly name?: QName;
  /** complexContent/extension or restriction base; the base's particles come first on the wire. */
  readonly base?: { readonly name: QName; readonly derivation: 'extension' | 'restriction' };
  /** simpleContent: text of this simple type plus attributes. */
  readonly simpleContent?: TypeUse;
  /** The type's own model group (not including the base's). */
  readonly content?: GroupParticle;
  readonly attributes: readonly AttributeDecl[];
  /** `anyAttribute` present. */
  readonly anyAttribute: boolean;
  readonly mixed: boolean;
  readonly abstract: boolean;
  /**
   * Set when the type is an ASMX-style array wrapper (`ArrayOfX`: exactly one sequence holding
   * exactly one element particle with maxOccurs > 1, no attributes, no base), or ASMX's
   * `AbstractTypes` array of the HTTP bindings (`restriction base="soapenc:Array"` over such a
   * sequence). The emitter maps it to `T[]` and the runtime wraps/unwraps the item element.
   */
  readonly arrayItem?: ElementDecl;
  readonly documentation?: string;
  readonly source: SourceLocation;
}

export interface SimpleType {
  readonly kind: 'simple';
  readonly name?: QName;
  readonly variety: 'atomic' | 'list' | 'union';
  /** atomic: the restriction base; list: the item type; union: undefined. */
  readonly base?: TypeUse;
  readonly memberTypes?: readonly TypeUse[];
  /** Enumeration values in document order (empty when not an enumeration). */
  readonly enumeration: readonly string[];
  readonly facets: {
    readonly pattern?: readonly string[];
    readonly minLength?: number;
    readonly maxLength?: number;
    readonly length?: number;
    readonly minInclusive?: string;
    readonly maxInclusive?: string;
    readonly minExclusive?: string;
    readonly maxExclusive?: string;
    readonly totalDigits?: number;
    readonly fractionDigits?: number;
  };
  readonly documentation?: string;
  readonly source: SourceLocation;
}

export type SchemaType = ComplexType | SimpleType;

export interface SchemaSet {
  /** Global element declarations keyed by Clark name, in document order. */
  readonly elements: Readonly<Record<string, ElementDecl>>;
  /** Named types keyed by Clark name, in document order. */
  readonly types: Readonly<Record<string, SchemaType>>;
  /** Target namespaces of every schema read (inline, imported, included), in document order. */
  readonly namespaces: readonly string[];
}

// ---------------------------------------------------------------------------------------------
// WSDL

export interface MessagePart {
  readonly name: string;
  /** Exactly one of element / type is set. */
  readonly element?: QName;
  readonly type?: TypeUse;
}

export interface Message {
  readonly name: QName;
  readonly parts: readonly MessagePart[];
  readonly source: SourceLocation;
}

export interface PortTypeOperation {
  readonly name: string;
  /** wsdl:input/@name and wsdl:output/@name (ASMX MessageName); used to match binding operations. */
  readonly inputName?: string;
  readonly outputName?: string;
  readonly input?: QName;
  readonly output?: QName;
  /**
   * The wsdl:input / wsdl:output names a message no wsdl:message declares (the name stays in
   * `input` / `output`): every binding leaves the operation out for this reason, and the file is
   * refused for it only when no operation is left.
   */
  readonly unresolvedInput?: UnresolvedReference;
  readonly unresolvedOutput?: UnresolvedReference;
  /**
   * The output comes before the input (a solicit-response operation, WSDL 1.1 §2.4.3): the
   * service would send first. Absent for the usual order.
   */
  readonly outputFirst?: true;
  readonly faults: readonly PortTypeFault[];
  readonly documentation?: string;
  readonly source: SourceLocation;
}

export interface PortTypeFault {
  readonly name: string;
  readonly message: QName;
  /**
   * The message is not declared. The fault is then not typed (its detail is read as XML), so
   * the operation is kept and only a warning says so; nothing may look the message up.
   */
  readonly unresolved?: UnresolvedReference;
}

/** A reference to a definition that is not declared, kept so that only what uses it is left out. */
export interface UnresolvedReference {
  /** The refusal it would be, without location: `<wsdl:output message="tns:X">: message {urn:a}X is not defined`. */
  readonly what: string;
  /** The element that holds the reference. */
  readonly source: SourceLocation;
}

export interface PortType {
  readonly name: QName;
  readonly operations: readonly PortTypeOperation[];
  readonly source: SourceLocation;
}

export type Protocol = 'soap11' | 'soap12' | 'http-get' | 'http-post';

export interface SoapHeaderUse {
  readonly message: QName;
  readonly part: string;
  /** The header block's element, resolved from message/part. */
  readonly element: QName;
  readonly use: 'literal' | 'encoded';
  /** The part is declared by `type`: `element` is then the part name in the message's namespace. */
  readonly byType?: true;
  /**
   * The message or its part could not be found (never declared, or left out by the parser): why.
   * `element` is then only a stand-in, and the operations using the header are left out.
   */
  readonly unresolved?: string;
}

export interface SoapBodyUse {
  readonly use: 'literal' | 'encoded';
  /** `parts` attribute; undefined means all parts. */
  readonly parts?: readonly string[];
  /** rpc style: the namespace of the wrapper. */
  readonly namespace?: string;
}

export interface BindingOperation {
  /** Operation name as in the binding and portType. */
  readonly name: string;
  readonly inputName?: string;
  readonly outputName?: string;
  /** The portType operation this binds (matched by name and input/output names). */
  readonly portTypeOperation: PortTypeOperation;
  /** SOAP: soapAction ('' when absent) and style. */
  readonly soapAction?: string;
  readonly soapActionRequired?: boolean;
  readonly style?: 'document' | 'rpc';
  readonly inputBody?: SoapBodyUse;
  readonly outputBody?: SoapBodyUse;
  readonly inputHeaders: readonly SoapHeaderUse[];
  readonly outputHeaders: readonly SoapHeaderUse[];
  /** HTTP: `http:operation/@location`, e.g. '/SMSSend'. */
  readonly httpLocation?: string;
  /** HTTP input encoding: `http:urlEncoded` (GET) or `mime:content` type (POST). */
  readonly httpInput?:
    | { readonly kind: 'urlEncoded' }
    | { readonly kind: 'mimeContent'; readonly type: string }
    | UnsupportedEncoding;
  /** HTTP output: `mime:mimeXml part=...` or `mime:content type=...`; undefined for `<wsdl:output/>`. */
  readonly httpOutput?:
    | { readonly kind: 'mimeXml'; readonly part?: string }
    | { readonly kind: 'mimeContent'; readonly type: string }
    | UnsupportedEncoding;
  readonly documentation?: string;
  readonly source: SourceLocation;
}

/** An HTTP encoding smskit cannot carry (`http:urlReplacement`, none at all, ...), and what it was. */
export interface UnsupportedEncoding {
  readonly kind: 'unsupported';
  readonly what: string;
}

export interface Binding {
  readonly name: QName;
  readonly protocol: Protocol;
  readonly portType: QName;
  /** SOAP: default style from soap:binding; transport URI. */
  readonly style?: 'document' | 'rpc';
  readonly transport?: string;
  /** HTTP: the verb from http:binding. */
  readonly verb?: string;
  readonly operations: readonly BindingOperation[];
  readonly source: SourceLocation;
}

export interface Port {
  readonly name: string;
  readonly binding: QName;
  /** soap:address / soap12:address / http:address location, as written. */
  readonly address?: string;
  /** Namespace of the address element (portaplus uses soap:address on soap12 bindings). */
  readonly addressNamespace?: string;
  /**
   * `binding` names no wsdl:binding: the port is left out (the plan warns), and the file is
   * refused for it only when no port of any service is left.
   */
  readonly unresolvedBinding?: UnresolvedReference;
  readonly source: SourceLocation;
}

export interface Service {
  readonly name: QName;
  readonly ports: readonly Port[];
  readonly documentation?: string;
  readonly source: SourceLocation;
}

export interface WsdlModel {
  /** The root document's path as given (for provenance and error messages). */
  readonly file: string;
  /** sha256 (hex) over the bytes of the root document and every local import, in read order. */
  readonly hash: string;
  readonly targetNamespace: string;
  readonly documentation?: string;
  readonly services: readonly Service[];
  readonly bindings: readonly Binding[];
  readonly portTypes: readonly PortType[];
  readonly messages: readonly Message[];
  readonly schema: SchemaSet;
  /** Non-fatal findings (unresolvable optional imports, ignored extensions), in document order. */
  readonly warnings: readonly ModelWarning[];
  /**
   * Definitions left out because they cannot be read (or use one that cannot), keyed
   * `type:{ns}local`, `element:{ns}local`, `message:{ns}local`, with the reason; absent when none.
   * Each is also a DEFINITION_OMITTED warning; a binding operation that needs one is left out.
   */
  readonly omitted?: Readonly<Record<string, OmittedDefinition>>;
  /** The imported documents read besides the root (paths as given, URLs whole), in read order; absent when none. */
  readonly imports?: readonly string[];
}

/** A definition the parser left out, with the refusal it would otherwise have been. */
export interface OmittedDefinition {
  /** The parser's error code (WSDL_UNRESOLVED_REFERENCE, WSDL_UNSUPPORTED, ...). */
  readonly code: string;
  /** The reason, without location. */
  readonly what: string;
  readonly source: SourceLocation;
}

export interface ModelWarning {
  readonly code: string;
  readonly message: string;
  readonly source: SourceLocation;
}
