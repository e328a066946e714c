/** The vocabulary of sample values: what a case varies, what a sample holds, what went wrong. */

/** What a positive case varies. */
export type SampleVariant =
  /** Typical values; `text` in every free string. */
  | { readonly kind: 'typical'; readonly text: string }
  /** Every array (and repeated element) with this many items. */
  | { readonly kind: 'arrays'; readonly count: number }
  /** Every nillable element xsi:nil (and a nil item in arrays of nillable items). */
  | { readonly kind: 'nil' }
  /** This concrete type (Clark key) wherever the declared type's hierarchy allows it. */
  | { readonly kind: 'derived'; readonly type: string };

export const PLAIN_TEXT = 'Conformance check 42';

/** What the typical sample of an operation holds, to decide which variants are worth a case. */
export interface SampleFeatures {
  /** A string the run may vary (no user value, no enumeration, no pattern). */
  freeText: boolean;
  /** An array or repeated element with no user value. */
  arrays: boolean;
  /** A nillable element or item with no user value. */
  nillable: boolean;
  /** Concrete types (Clark keys) a single-valued polymorphic member could take, beyond the first. */
  readonly derived: Set<string>;
}

export interface SampleProblem {
  readonly path: string;
  readonly reason: string;
}

/** What a simple value's sample reads and records of the walk over the whole value. */
export interface SimpleWalk {
  readonly variant: SampleVariant;
  readonly features: SampleFeatures;
  readonly problems: SampleProblem[];
}
