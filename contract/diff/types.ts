/**
 * The data of `smskit diff`: what two versions of a WSDL are compared as (a side), what the
 * comparison finds (findings, before any verdict) and what it reports (changes, with a verdict
 * per direction and binding). Plain data throughout, so `--json` is the report as it is.
 *
 * Directions, as the report names them:
 * - "breaks existing clients": a client built from OLD calls a server built from NEW;
 * - "breaks existing servers": a client built from NEW calls a server built from OLD.
 */
import type { Protocol, ServiceDescriptor } from '../../runtime/descriptor.js';
import type { WsdlModel } from '../model/index.js';

export type { Protocol };

/** Bindings in the order every report lists them. */
export const PROTOCOLS: readonly Protocol[] = ['soap11', 'soap12', 'http-get', 'http-post'];

export interface Location {
  readonly file: string;
  readonly line: number;
}

/**
 * One version of the contract. `model` is absent when only the descriptor is known (the one
 * committed in generated code, for `generate --check`): then nothing has a location in that
 * version and documentation is not compared.
 */
export interface Side {
  /** The path or URL as the user gave it. */
  readonly label: string;
  readonly services: readonly ServiceDescriptor[];
  readonly model?: WsdlModel;
}

/**
 * Where a message travels: `call` is the whole exchange (routing: the operation, its SOAPAction
 * or path), the others one message of it.
 */
export type MessageRole = 'call' | 'input' | 'output' | 'input-header' | 'output-header';

/** One message of one operation on one binding, in which a finding shows. */
export interface Usage {
  readonly service: string;
  readonly protocol: Protocol;
  /** The operation's identity in both versions: its name, `name#method` for ASMX overloads. */
  readonly operation: string;
  readonly role: MessageRole;
}

/**
 * A usage as a rule sees it: `depth` counts the steps from the message root (0: the root
 * element, 1: a member of the root's type, 2: a member of that member's type, ...), which
 * matters on HTTP GET/POST, where the input's root is not on the wire and its members are
 * the URL's parameters.
 */
export interface Reach {
  readonly usage: Usage;
  readonly depth: number;
}

/** Rule-specific facts of a finding; each rule reads the ones it sets. */
export interface Facts {
  /** The member, attribute, header, type or enumeration value concerned. */
  readonly name?: string;
  /** Member/attribute added or removed: whether it is required (minOccurs > 0, use="required"). */
  readonly required?: boolean;
  /** Whether the receiving type of each version collects unknown elements (xs:any). */
  readonly wildcard?: { readonly old: boolean; readonly new: boolean };
  /** The old and new value (a namespace, a SOAPAction, a path, an XSD type...). */
  readonly from?: string;
  readonly to?: string;
  /** Occurrences [minOccurs, maxOccurs] (-1: unbounded) in each version. */
  readonly occurs?: { readonly old: readonly [number, number]; readonly new: readonly [number, number] };
  /** nillable in each version. */
  readonly nillable?: { readonly old: boolean; readonly new: boolean };
  /** Whether every value a sender of each version writes is read by a receiver of the other. */
  readonly accepts?: ValueAcceptance;
  /** The same for the value as an HTTP GET/POST parameter (undefined: not a parameter there). */
  readonly acceptsAsParam?: ValueAcceptance;
  /** Enumeration values added or removed. */
  readonly values?: readonly string[];
  /** The old and new SOAP body kind ('element' or 'empty'). */
  readonly body?: { readonly old: string; readonly new: string };
  /** Why a binding no longer carries (or now carries) an operation. */
  readonly reason?: string;
}

export interface ValueAcceptance {
  /** A receiver built from NEW reads every value a sender built from OLD writes. */
  readonly forward: boolean;
  readonly backward: boolean;
  /** How a failing direction fails ("xs:long values above 2147483647", ...). */
  readonly forwardWhy?: string;
  readonly backwardWhy?: string;
  /** Where genuine ASMX (.NET's XmlSerializer) reads differently, or '' when it reads the same. */
  readonly asmx?: string;
}

/** What the comparison found, before any verdict. Keyed so that each difference is reported once. */
export interface Finding {
  readonly key: string;
  readonly rule: RuleId;
  /** Where in the contract, e.g. `ServiceAPI › SMSSend › input › priority`. */
  readonly subject: string;
  /** What changed, e.g. `member added (required, xs:int)`. */
  readonly what: string;
  readonly facts: Facts;
  readonly old?: Location;
  readonly new?: Location;
}

export type RuleId =
  | 'service-added'
  | 'service-removed'
  | 'binding-added'
  | 'binding-removed'
  | 'binding-renamed'
  | 'address-path-changed'
  | 'address-host-changed'
  | 'operation-added'
  | 'operation-removed'
  | 'operation-renamed'
  | 'soap-action-changed'
  | 'http-path-changed'
  | 'namespace-changed'
  | 'element-form-changed'
  | 'message-element-renamed'
  | 'message-body-changed'
  | 'member-added'
  | 'member-removed'
  | 'member-renamed'
  | 'members-reordered'
  | 'occurs-changed'
  | 'nillable-changed'
  | 'type-changed'
  | 'type-renamed'
  | 'enum-values-added'
  | 'enum-values-removed'
  | 'attribute-added'
  | 'attribute-removed'
  | 'attribute-required-changed'
  | 'array-item-renamed'
  | 'derived-type-added'
  | 'derived-type-removed'
  | 'abstract-changed'
  | 'header-added'
  | 'header-removed'
  | 'fault-added'
  | 'fault-removed'
  | 'facet-changed'
  | 'documentation-changed'
  | 'formatting-only';

export type Verdict = 'breaking' | 'compatible' | 'documentation';

/** One usage's outcome: whether it breaks each direction. */
export interface Effect extends Usage {
  readonly breaksClients: boolean;
  readonly breaksServers: boolean;
}

/** A reported difference, with its verdict. */
export interface Change {
  readonly rule: RuleId;
  readonly verdict: Verdict;
  readonly subject: string;
  readonly what: string;
  /** Bindings on which a client built from OLD fails against a server built from NEW. */
  readonly breaksClients: readonly Protocol[];
  /** Bindings on which a client built from NEW fails against a server built from OLD. */
  readonly breaksServers: readonly Protocol[];
  /** Bindings on which the change is on the wire at all. */
  readonly bindings: readonly Protocol[];
  /** Why, per direction and binding, including where genuine ASMX behaves differently. */
  readonly why: readonly string[];
  readonly old?: Location;
  readonly new?: Location;
  /** Every operation and message it shows in, with its outcome (what the execution proof checks). */
  readonly effects: readonly Effect[];
}

export interface DiffReport {
  readonly old: string;
  readonly new: string;
  readonly changes: readonly Change[];
  readonly summary: DiffSummary;
}

export interface DiffSummary {
  readonly breaksClients: number;
  readonly breaksServers: number;
  readonly breaking: number;
  readonly compatible: number;
  readonly documentation: number;
}

/** `--fail-on`: which changes make `smskit diff` exit 1. */
export type FailOn = 'breaking' | 'client' | 'server' | 'any';
