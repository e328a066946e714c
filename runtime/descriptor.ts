/**
 * The service descriptor: the wire facts the runtime needs, and nothing else.
 *
 * Generated code embeds one `ServiceDescriptor` as a constant (types + descriptor, the runtime
 * does the wire work); the conformance runner derives the same structure from a WSDL at run
 * time with `toDescriptor(model)` (contract/descriptor/index.ts). Both therefore agree, by
 * construction, on names, namespaces, soapActions, paths and element order.
 *
 * It is plain JSON data. Names are namespace URI + local name; maps are keyed by Clark
 * notation `{ns}local`.
 */

export type Protocol = 'soap11' | 'soap12' | 'http-get' | 'http-post';

export interface NameDescriptor {
  readonly ns: string;
  readonly local: string;
}

/**
 * XSD built-in types the runtime has a codec for, by their local name in the XSD namespace,
 * plus 'guid' and 'char' (Microsoft serialization types): the keys of the primitive table
 * (runtime/primitives.ts), which fixes their TypeScript mapping (docs/generator.md).
 */
import type { PrimitiveName } from './primitives.js';

export type { PrimitiveName };

/** How one value is encoded: a primitive, a named type from `types`, or raw XML. */
export type ValueDescriptor =
  | { readonly kind: 'primitive'; readonly xsd: PrimitiveName; readonly enumeration?: readonly string[] }
  | { readonly kind: 'type'; readonly type: string /* Clark key into ServiceDescriptor.types */ }
  /** anyType, `any`, DataSet schema: kept as an XML fragment (runtime `XmlElement`). */
  | { readonly kind: 'xml' };

export interface FieldDescriptor {
  /** TypeScript property name (the emitter's choice; usually the element's local name). */
  readonly prop: string;
  /** Element name on the wire. */
  readonly name: NameDescriptor;
  readonly value: ValueDescriptor;
  readonly minOccurs: number;
  /** -1 for unbounded. */
  readonly maxOccurs: number;
  readonly nillable: boolean;
  /** The field came from a choice (so it is optional whatever minOccurs says). */
  readonly inChoice?: boolean;
  /** `xs:any` wildcard: every unmatched child element is collected here as XML. */
  readonly wildcard?: boolean;
  /**
   * A repeating group of several members, not an element: the property holds one object per
   * occurrence of the group, of the complex type `value` names, whose fields are the group's
   * members, written straight into the parent (no element of their own), occurrence after
   * occurrence. `sequence`: each object holds the members of one occurrence, written in field
   * order; `choice`: each holds exactly one member. `name.local` is the group's name (for paths
   * in errors); minOccurs/maxOccurs count occurrences.
   */
  readonly group?: 'sequence' | 'choice';
}

export interface AttributeFieldDescriptor {
  readonly prop: string;
  readonly name: NameDescriptor;
  readonly value: ValueDescriptor;
  readonly required: boolean;
}

export interface ComplexTypeDescriptor {
  readonly kind: 'complex';
  readonly name?: NameDescriptor;
  /** Fields in wire order, the base type's fields first (extension is already flattened). */
  readonly fields: readonly FieldDescriptor[];
  readonly attributes: readonly AttributeFieldDescriptor[];
  /** ArrayOfX: the value is a plain array of this item field (its `prop` is unused). */
  readonly arrayItem?: FieldDescriptor;
  /** simpleContent: the element's text, under the property `value`. */
  readonly text?: ValueDescriptor;
  /**
   * Every type that derives from this one by extension, transitively, as Clark keys in document
   * order (abstract ones included). A value whose declared type has derived types is
   * polymorphic: it carries its concrete type in `$type`, and the wire carries it in xsi:type.
   */
  readonly derived?: readonly string[];
  /**
   * The `$type` discriminant of this type (its generated TypeScript name), set on every type of
   * a derivation hierarchy: a base with derived types, or a type with a base.
   */
  readonly tag?: string;
  /** `abstract="true"`: a value of this exact type can be neither sent nor received. */
  readonly abstract?: boolean;
}

export interface SimpleTypeDescriptor {
  readonly kind: 'simple';
  readonly name?: NameDescriptor;
  /** The primitive it restricts (list/union: 'string'). */
  readonly xsd: PrimitiveName;
  readonly enumeration?: readonly string[];
  readonly list?: boolean;
}

export type TypeDescriptor = ComplexTypeDescriptor | SimpleTypeDescriptor;

/** A global element used as a message body or header. */
export interface ElementDescriptor {
  readonly name: NameDescriptor;
  readonly value: ValueDescriptor;
  readonly nillable: boolean;
}

/** The operation's input or output as the caller sees it (one object, the same on every binding). */
export type BodyDescriptor =
  /** document/literal: the Body holds this global element; the value is its content. */
  | { readonly kind: 'element'; readonly element: string /* Clark key into elements */ }
  /** HTTP input: named parameters, in order, taken from the wrapper object's fields of the same name. */
  | { readonly kind: 'params'; readonly params: readonly { readonly name: string; readonly value: ValueDescriptor }[] }
  /**
   * HTTP output (mime:mimeXml): the response document is this element; its value is the
   * wrapper's single result field `field` (e.g. `<string>` -> `{ SMSSendResult }`).
   */
  | { readonly kind: 'xml-result'; readonly element: string; readonly field: string }
  /** An operation with no input or no output message. */
  | { readonly kind: 'empty' };

export interface HeaderDescriptor {
  readonly element: string; // Clark key into elements
  /** Property on the operation's header object. */
  readonly prop: string;
}

export interface OperationDescriptor {
  /** Operation name in the WSDL (portType/binding). */
  readonly name: string;
  /** The TypeScript method name on the client and handler interface (unique per service). */
  readonly method: string;
  /** SOAP bindings: the soapAction URI ('' when the WSDL gives none). */
  readonly soapAction?: string;
  /** HTTP bindings: the path relative to the port address, e.g. '/SMSSend'. */
  readonly httpPath?: string;
  readonly input: BodyDescriptor;
  readonly output: BodyDescriptor;
  readonly inputHeaders: readonly HeaderDescriptor[];
  readonly outputHeaders: readonly HeaderDescriptor[];
  /**
   * SOAP bindings: the operation has no wsdl:output (WSDL 1.1 §2.4.1, one-way). A server answers
   * it 202 with no body, never an envelope (WS-I BP R2714); `output` is then 'empty'.
   */
  readonly oneWay?: true;
  /**
   * SOAP bindings: the wsdl:faults whose detail is one declared element (WS-I BP R2205), in
   * WSDL order. A client reads such a detail into `SoapFaultError.fault`; a handler throws
   * `DeclaredFault` to send one.
   */
  readonly faults?: readonly FaultDescriptor[];
  readonly documentation?: string;
}

/** A declared fault: its wsdl:fault name and the element its detail holds. */
export interface FaultDescriptor {
  readonly name: string;
  /** Clark key into `elements`. */
  readonly element: string;
}

export interface BindingDescriptor {
  /** The wsdl:binding local name, e.g. 'ServiceAPISoap12'. */
  readonly name: string;
  readonly protocol: Protocol;
  /** The port address from the WSDL, when a port uses this binding. */
  readonly address?: string;
  readonly operations: readonly OperationDescriptor[];
  /**
   * Operations of the service that this binding cannot carry (e.g. a complex parameter on
   * HTTP GET), left out of `operations` by the generator: calling one is an error that says why.
   */
  readonly omitted?: readonly OmittedOperation[];
}

export interface OmittedOperation {
  /** Operation name in the WSDL. */
  readonly name: string;
  /** The method name it has on the bindings that carry it. */
  readonly method: string;
  /** Why this binding cannot carry it, e.g. 'parameter lines is of the complex type ArrayOfOrderLine'. */
  readonly reason: string;
}

export interface ServiceDescriptor {
  readonly name: string;
  readonly targetNamespace: string;
  /** At most one binding per protocol: the one the client and server use for that protocol. */
  readonly bindings: readonly BindingDescriptor[];
  readonly elements: Readonly<Record<string, ElementDescriptor>>;
  readonly types: Readonly<Record<string, TypeDescriptor>>;
}
