/**
 * Whether a receiver of one value type reads every value a sender of another writes: the
 * value spaces of the smskit runtime's codecs (runtime/codec/primitives.ts), compared, with the
 * families and integer ranges of the primitive table (runtime/primitives.ts).
 *
 * - Text types (string, token, dateTime, guid, ...) share one codec in smskit, which keeps the
 *   text as it is: any text reads. .NET parses some of them (DateTime, Guid, TimeSpan,
 *   XmlQualifiedName), so there genuine ASMX refuses text that smskit takes.
 * - Integer types are ranges; an integer reads as a decimal; float and double are both a JS
 *   number in smskit (.NET's float is single precision).
 * - Enumerations restrict the lexical values; xs:anyType (XML) reads anything.
 */
import type { ValueAcceptance } from './types.js';
import { PRIMITIVES, type PrimitiveFacts, type PrimitiveFamily, type PrimitiveName } from '../../runtime/primitives.js';

/** What one side declares for a value, as far as reading and writing it goes. */
export type ValueSummary =
  | { readonly kind: 'primitive'; readonly xsd: PrimitiveName; readonly enumeration?: readonly string[] }
  | { readonly kind: 'complex'; readonly key: string }
  | { readonly kind: 'xml' };

/** A value as an HTTP GET/POST parameter: a simple type, repeated for arrays. */
export interface ParamSummary {
  readonly xsd: PrimitiveName;
  readonly enumeration?: readonly string[];
  readonly repeated: boolean;
}

/** Lexical types whose values another lexical type's all are (a bare date reads as a dateTime at midnight, on both runtimes). */
const LEXICAL_SUBSETS: Readonly<Partial<Record<PrimitiveName, readonly PrimitiveName[]>>> = {
  dateTime: ['dateTimeStamp', 'date'],
  duration: ['dayTimeDuration', 'yearMonthDuration'],
};

/** Text types .NET parses into a value of its own (XmlConvert) while smskit keeps the text. */
const PARSED_BY_DOTNET: ReadonlySet<PrimitiveName> = new Set<PrimitiveName>(['QName']);

const DOUBLE_EXACT = 2n ** 53n;

/**
 * How a receiver reads a value, per the table's family: text types share one codec that keeps
 * the text; temporal types and guid are checked against their lexical form, as .NET parses
 * them, so other text is refused on both. A family added to the table must be placed here.
 */
type Family = 'text' | 'lexical' | 'integer' | 'decimal' | 'float' | 'boolean' | 'base64' | 'hex';

const FAMILY_OF = {
  text: 'text',
  temporal: 'lexical',
  guid: 'lexical',
  integer: 'integer',
  decimal: 'decimal',
  float: 'float',
  boolean: 'boolean',
  base64: 'base64',
  hex: 'hex',
} as const satisfies Record<PrimitiveFamily, Family>;

function family(xsd: PrimitiveName): Family {
  return FAMILY_OF[PRIMITIVES[xsd].family];
}

/** The range of an integer type (undefined: unbounded on that side, or not an integer type). */
function rangeOf(xsd: PrimitiveName): readonly [bigint | undefined, bigint | undefined] {
  const facts: PrimitiveFacts = PRIMITIVES[xsd];
  return facts.range ?? [undefined, undefined];
}

/** undefined: every value reads; else why some do not. */
function primitiveGap(receiver: PrimitiveName, sender: PrimitiveName): string | undefined {
  if (receiver === sender) return undefined;
  const r = family(receiver);
  const s = family(sender);
  if (r === 'text') return undefined;
  if (r === 'lexical')
    return LEXICAL_SUBSETS[receiver]?.includes(sender) === true
      ? undefined
      : `xs:${sender} ${s === 'text' ? 'text' : 'values'} that is not an xs:${receiver}`;
  if (r === 'integer' && s === 'integer') return rangeGap(receiver, sender);
  if (r === 'decimal' && s === 'integer') return undefined;
  if (r === 'float' && s === 'float') return undefined;
  if (r === 'float' && s === 'integer') {
    const [min, max] = rangeOf(sender);
    return min !== undefined && max !== undefined && min >= -DOUBLE_EXACT && max <= DOUBLE_EXACT
      ? undefined
      : `xs:${sender} values beyond 2^53 lose precision as xs:${receiver}`;
  }
  if (r === 'float' && s === 'decimal') return `xs:decimal digits beyond a double's precision are lost`;
  if (s === 'text') return `xs:${sender} text that is not an xs:${receiver}`;
  if (r === 'integer' && (s === 'decimal' || s === 'float')) return `non-integral xs:${sender} values`;
  if (r === 'decimal' && s === 'float') return `INF, NaN and exponent forms of xs:${sender}`;
  if (r === 'boolean' && s === 'integer') return `xs:${sender} values other than 0 and 1`;
  return `xs:${sender} values are not xs:${receiver}`;
}

function rangeGap(receiver: PrimitiveName, sender: PrimitiveName): string | undefined {
  const [rMin, rMax] = rangeOf(receiver);
  const [sMin, sMax] = rangeOf(sender);
  const below = rMin !== undefined && (sMin === undefined || sMin < rMin);
  const above = rMax !== undefined && (sMax === undefined || sMax > rMax);
  if (!below && !above) return undefined;
  const parts = [below ? `below ${rMin}` : '', above ? `above ${rMax}` : ''].filter((p) => p !== '');
  return `xs:${sender} values ${parts.join(' or ')} do not fit xs:${receiver}`;
}

function enumerationGap(
  receiver: readonly string[] | undefined,
  sender: readonly string[] | undefined,
): string | undefined {
  if (receiver === undefined || receiver.length === 0) return undefined;
  if (sender === undefined || sender.length === 0) return `values outside the enumeration ${receiver.join(', ')}`;
  const extra = sender.filter((v) => !receiver.includes(v));
  return extra.length === 0 ? undefined : `${extra.join(', ')} not in the enumeration`;
}

function summaryGap(receiver: ValueSummary, sender: ValueSummary): string | undefined {
  if (receiver.kind === 'xml') return undefined;
  if (sender.kind === 'xml') return 'arbitrary XML where a typed value is expected';
  if (receiver.kind === 'primitive' && sender.kind === 'primitive') {
    return primitiveGap(receiver.xsd, sender.xsd) ?? enumerationGap(receiver.enumeration, sender.enumeration);
  }
  if (receiver.kind === 'complex' && sender.kind === 'complex') return undefined;
  return receiver.kind === 'complex'
    ? 'text where child elements are expected'
    : 'child elements where text is expected';
}

function dotnetNote(old: ValueSummary, now: ValueSummary): string {
  const parsed = (s: ValueSummary): string | undefined =>
    s.kind === 'primitive' && PARSED_BY_DOTNET.has(s.xsd) ? s.xsd : undefined;
  const [a, b] = [parsed(old), parsed(now)];
  if (old.kind !== 'primitive' || now.kind !== 'primitive' || (a === undefined && b === undefined)) return '';
  const which = [a, b]
    .filter((x) => x !== undefined)
    .map((x) => `xs:${x}`)
    .join(' and ');
  return `.NET parses ${which}: genuine ASMX refuses text that is not one, where smskit keeps any text`;
}

/** How a value declared `old` in OLD and `now` in NEW reads across versions. */
export function valueAcceptance(old: ValueSummary, now: ValueSummary): ValueAcceptance {
  const forwardWhy = summaryGap(now, old);
  const backwardWhy = summaryGap(old, now);
  return {
    forward: forwardWhy === undefined,
    backward: backwardWhy === undefined,
    ...(forwardWhy === undefined ? {} : { forwardWhy }),
    ...(backwardWhy === undefined ? {} : { backwardWhy }),
    asmx: dotnetNote(old, now),
  };
}

/** The same for an HTTP GET/POST parameter; undefined when either version cannot carry it as one. */
export function paramAcceptance(
  old: ParamSummary | undefined,
  now: ParamSummary | undefined,
): ValueAcceptance | undefined {
  if (old === undefined || now === undefined) return undefined;
  const gap = (receiver: ParamSummary, sender: ParamSummary): string | undefined =>
    primitiveGap(receiver.xsd, sender.xsd) ??
    enumerationGap(receiver.enumeration, sender.enumeration) ??
    (sender.repeated && !receiver.repeated
      ? 'the parameter is repeated once per item and only the first value is read'
      : undefined);
  const forwardWhy = gap(now, old);
  const backwardWhy = gap(old, now);
  const note = dotnetNote({ kind: 'primitive', xsd: old.xsd }, { kind: 'primitive', xsd: now.xsd });
  return {
    forward: forwardWhy === undefined,
    backward: backwardWhy === undefined,
    ...(forwardWhy === undefined ? {} : { forwardWhy }),
    ...(backwardWhy === undefined ? {} : { backwardWhy }),
    asmx: note,
  };
}

export function describeSummary(s: ValueSummary): string {
  if (s.kind === 'xml') return 'XML';
  if (s.kind === 'complex') return `complex ${s.key}`;
  return `xs:${s.xsd}`;
}

/** Whether two summaries declare the same value (nothing to report). */
export function sameSummary(a: ValueSummary, b: ValueSummary): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'primitive' && b.kind === 'primitive')
    return a.xsd === b.xsd && sameList(a.enumeration, b.enumeration);
  if (a.kind === 'complex' && b.kind === 'complex') return a.key === b.key;
  return true;
}

function sameList(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((v, i) => v === y[i]);
}
