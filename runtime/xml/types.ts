/**
 * The in-memory XML tree that the reader produces and every consumer (WSDL parser, wire codec,
 * conformance checks) walks. Names are resolved: `ns` is the namespace URI ('' for none),
 * prefixes are kept only for messages and for re-serialising QName-valued content.
 */

export interface XmlAttribute {
  readonly ns: string;
  readonly local: string;
  readonly prefix: string;
  readonly value: string;
}

export interface XmlElement {
  readonly type: 'element';
  readonly ns: string;
  readonly local: string;
  readonly prefix: string;
  /** Attributes in document order, namespace declarations (xmlns, xmlns:p) excluded. */
  readonly attributes: readonly XmlAttribute[];
  /**
   * In-scope namespace bindings (prefix -> URI; '' is the default namespace), including those
   * inherited from ancestors. An element that declares no namespace shares its parent's object
   * (no allocation on the hot path); one that declares some gets a flat copy topped up with the
   * parent's bindings. Look up with `namespaces[prefix]`; treat it as read-only.
   * Used to resolve QName-valued attribute values such as type="s:string".
   */
  readonly namespaces: Readonly<Record<string, string>>;
  /** Children in document order; adjacent text and CDATA are merged into one text node. */
  readonly children: readonly XmlNode[];
  /** 1-based line and column of the start tag's `<`. */
  readonly line: number;
  readonly column: number;
}

export interface XmlText {
  readonly type: 'text';
  /** Decoded text: entities, character references and CDATA already resolved; whitespace kept. */
  readonly text: string;
}

export type XmlNode = XmlElement | XmlText;

export interface XmlDocument {
  readonly root: XmlElement;
  /** The encoding named in the XML declaration, if any (lowercased), for conformance checks. */
  readonly declaredEncoding?: string;
  readonly hasDeclaration: boolean;
}

/** Limits that bound the reader's work; every one has a safe default. */
export interface XmlReadLimits {
  /** Maximum element nesting depth (default 256). */
  readonly maxDepth?: number;
  /** Maximum attributes on one element (default 256). */
  readonly maxAttributes?: number;
  /** Maximum namespace declarations on one element (default 64). */
  readonly maxNamespaceDeclarations?: number;
  /** Maximum total number of elements (default 1,000,000). */
  readonly maxElements?: number;
}
