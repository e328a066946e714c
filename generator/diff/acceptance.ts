/**
 * Whether a receiver of one value type reads every value a sender of another writes: the
 * value spaces of the smskit runtime's codecs (runtime/codec/primitives.ts), compared.
 *
 * - Text types (string, token, dateTime, guid, ...) share one codec in smskit, which keeps the
 *   text as it is: any text reads. .NET parses some of them (DateTime, Guid, TimeSpan,
 *   XmlQualifiedName), so there genuine ASMX refuses text that smskit takes.
 * - Integer types are ranges; an integer reads as a decimal; float and double are both a JS
 *   number in smskit (.NET's float is single precision).
 * - Enumerations restrict the lexical values; xs:anyType (XML) reads anything.
 */
import type { ValueAcceptance } from './types.js';
import { XSD_TEXT_TYPES } from '../../runtime/codec/primitives.js';

/** What one side declares for a value, as far as reading and writing it goes. */
export type ValueSummary =
  | { readonly kind: 'primitive'; readonly xsd: string; readonly enumeration?: readonly string[] }
  | { readonly kind: 'complex'; readonly key: string }
  | { readonly kind: 'xml' };

/** A value as an HTTP GET/POST parameter: a simple type, repeated for arrays. */
export interface ParamSummary {
  readonly xsd: string;
  readonly enumeration?: readonly string[];
  readonly repeated: boolean;
}

const TEXT_TYPES = new Set(XSD_TEXT_TYPES);

/**
 * Text types the runtime checks against their lexical form (runtime/codec/temporal.ts and the
 * guid codec), as .NET parses them: other text is refused on both.
 */
const LEXICAL_TYPES = new Set([
  'dateTime',
  'date',
  'time',
  'gYear',
  'gYearMonth',
  'gMonth',
  'gMonthDay',
  'gDay',
  'duration',
  'dayTimeDuration',
  'yearMonthDuration',
  'dateTimeStamp',
  'guid',
]);

/** Lexical types whose values another lexical type's all are (a bare date reads as a dateTime at midnight, on both runtimes). */
const LEXICAL_SUBSETS: Readonly<Record<string, readonly string[]>> = {
  dateTime: ['dateTimeStamp', 'date'],
  duration: ['dayTimeDuration', 'yearMonthDuration'],
};

/** Text types .NET parses into a value of its own (XmlConvert) while smskit keeps the text. */
const PARSED_BY_DOTNET = new Set(['QName']);

const INT_RANGES: Readonly<Record<string, readonly [bigint | undefined, bigint | undefined]>> = {
  byte: [-128n, 127n],
  short: [-32768n, 32767n],
  int: [-2147483648n, 2147483647n],
  long: [-(2n ** 63n), 2n ** 63n - 1n],
  unsignedByte: [0n, 255n],
  unsignedShort: [0n, 65535n],
  char: [0n, 65535n],
  unsignedInt: [0n, 4294967295n],
  unsignedLong: [0n, 2n ** 64n - 1n],
  integer: [undefined, undefined],
  nonNegativeInteger: [0n, undefined],
  positiveInteger: [1n, undefined],
  nonPositiveInteger: [undefined, 0n],
  negativeInteger: [undefined, -1n],
};

const DOUBLE_EXACT = 2n ** 53n;

type Family = 'text' | 'lexical' | 'integer' | 'decimal' | 'float' | 'boolean' | 'base64' | 'hex' | 'other';

function family(xsd: string): Family {
  if (TEXT_TYPES.has(xsd)) return 'text';
  if (LEXICAL_TYPES.has(xsd)) return 'lexical';
  if (xsd in INT_RANGES) return 'integer';
  if (xsd === 'decimal') return 'decimal';
  if (xsd === 'float' || xsd === 'double') return 'float';
  if (xsd === 'boolean') return 'boolean';
  if (xsd === 'base64Binary') return 'base64';
  if (xsd === 'hexBinary') return 'hex';
  return 'other';
}

/** undefined: every value reads; else why some do not. */
function primitiveGap(receiver: string, sender: string): string | undefined {
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
    const [min, max] = INT_RANGES[sender]!;
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

function rangeGap(receiver: string, sender: string): string | undefined {
  const [rMin, rMax] = INT_RANGES[receiver]!;
  const [sMin, sMax] = INT_RANGES[sender]!;
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
