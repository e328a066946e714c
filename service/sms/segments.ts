/**
 * Encoding choice and SMS segment counting (3GPP TS 23.040 / 23.038).
 *
 * One SMS carries 140 octets of user data. A user data header (UDH) takes octets from it:
 * UDHL (1 octet) + its information elements; 8-bit concatenation IE = 5 octets (00 03 ref total
 * seq), 16-bit application port IE = 6 octets (05 04 dst dst src src). In 7-bit the header is
 * padded with fill bits to a septet boundary, so a segment holds floor((140 - UDH) * 8 / 7) septets.
 *
 * | layout                 | UDH octets | GSM 7-bit septets | UCS-2 units |
 * |------------------------|-----------:|------------------:|------------:|
 * | single, no port        | 0          | 160               | 70          |
 * | concatenated, no port  | 6          | 153               | 67          |
 * | single, port           | 7          | 152               | 66          |
 * | concatenated, port     | 12         | 146               | 64          |
 *
 * Splitting never separates an extension character's ESC pair (2 septets) nor a UTF-16 surrogate
 * pair (a character outside the BMP counts as 2 UCS-2 units, as handsets send it).
 */
import { SmsRefusal } from '../errors.js';
import { isGsm7, septetWidthAt } from './gsm-alphabet.js';

export type Encoding = 'gsm7' | 'ucs2';

const USER_DATA_OCTETS = 140;
const UDHL_OCTETS = 1;
const CONCAT_IE_OCTETS = 5;
const PORT_IE_OCTETS = 6;

export const DEFAULT_MAX_SEGMENTS = 10;

/** In `u` mode a proper pair is one astral code point, so only unpaired halves match. */
const LONE_SURROGATE = /\p{Cs}/u;

/** Octets of user data header for a segment. */
export function udhOctets(concatenated: boolean, port: boolean): number {
  const ies = (concatenated ? CONCAT_IE_OCTETS : 0) + (port ? PORT_IE_OCTETS : 0);
  return ies === 0 ? 0 : UDHL_OCTETS + ies;
}

/** Characters units (septets or UTF-16 units) one segment holds. */
export function segmentCapacity(encoding: Encoding, concatenated: boolean, port: boolean): number {
  const octets = USER_DATA_OCTETS - udhOctets(concatenated, port);
  return encoding === 'gsm7' ? Math.floor((octets * 8) / 7) : Math.floor(octets / 2);
}

export interface SegmentSplit {
  readonly encoding: Encoding;
  /** Septets (gsm7) or UTF-16 units (ucs2) of the whole text. */
  readonly units: number;
  /** The text cut into segments, as it would go on the air. */
  readonly segments: readonly string[];
}

/**
 * Chooses the encoding and cuts `text` into segments (an empty text gives no segments). One walk
 * over the text and a slice per segment: it runs for every message accepted and every message
 * sent, so it builds nothing per character.
 */
export function splitIntoSegments(text: string, port: boolean): SegmentSplit {
  const encoding: Encoding = isGsm7(text) ? 'gsm7' : 'ucs2';
  let units = 0;
  for (let i = 0; i < text.length; i += pieceLength(text, i)) units += pieceCost(text, i, encoding);
  if (units <= segmentCapacity(encoding, false, port)) {
    return { encoding, units, segments: text === '' ? [] : [text] };
  }
  const capacity = segmentCapacity(encoding, true, port);
  const segments: string[] = [];
  let start = 0;
  let used = 0;
  for (let i = 0; i < text.length; i += pieceLength(text, i)) {
    const cost = pieceCost(text, i, encoding);
    if (used + cost > capacity) {
      segments.push(text.slice(start, i));
      start = i;
      used = 0;
    }
    used += cost;
  }
  segments.push(text.slice(start));
  return { encoding, units, segments };
}

/** UTF-16 units of the indivisible piece at `i`: 2 for a surrogate pair, which no cut may separate. */
function pieceLength(text: string, i: number): 1 | 2 {
  const code = text.charCodeAt(i);
  if (code < 0xd800 || code > 0xdbff || i + 1 >= text.length) return 1;
  const next = text.charCodeAt(i + 1);
  return next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
}

/** What the piece at `i` costs: septets in GSM 7-bit (an extension character 2), UTF-16 units in UCS-2. */
function pieceCost(text: string, i: number, encoding: Encoding): number {
  return encoding === 'gsm7' ? septetWidthAt(text, i) : pieceLength(text, i);
}

export interface MessageLimits {
  /** Most segments a message may take (default 10). */
  readonly maxSegments: number;
}

export interface CheckedMessage {
  readonly encoding: Encoding;
  readonly segments: number;
}

/** Validates `smsmsg`: not empty, well-formed UTF-16, within the segment cap. */
export function checkMessage(text: string, port: boolean, limits: MessageLimits): CheckedMessage {
  if (text === '') throw new SmsRefusal('EmptyMessage', 'smsmsg is empty', 'smsmsg');
  // Beyond this no encoding fits (GSM 7-bit holds the most per UTF-16 unit); refuse before
  // walking a huge string. A single segment holds more than one of a concatenated message.
  const bound = Math.max(
    segmentCapacity('gsm7', false, port),
    limits.maxSegments * segmentCapacity('gsm7', true, port),
  );
  if (text.length > bound) throw tooLong(text, port, limits);
  if (LONE_SURROGATE.test(text)) {
    throw new SmsRefusal('InvalidMessage', 'smsmsg contains an unpaired UTF-16 surrogate', 'smsmsg');
  }
  const split = splitIntoSegments(text, port);
  if (split.segments.length > limits.maxSegments) throw tooLong(text, port, limits);
  return { encoding: split.encoding, segments: split.segments.length };
}

/**
 * Segments `text` takes, counted as splitIntoSegments cuts but without building them, and its
 * characters (code points): linear and allocation-free, so a huge text is counted cheaply.
 */
export function countSegments(
  text: string,
  port: boolean,
): { encoding: Encoding; segments: number; characters: number } {
  const encoding: Encoding = isGsm7(text) ? 'gsm7' : 'ucs2';
  const capacity = segmentCapacity(encoding, true, port);
  let units = 0;
  let characters = 0;
  let segments = 1;
  let used = 0;
  for (let i = 0; i < text.length; i += pieceLength(text, i)) {
    const cost = pieceCost(text, i, encoding);
    characters++;
    units += cost;
    if (used + cost > capacity) {
      segments++;
      used = 0;
    }
    used += cost;
  }
  if (units <= segmentCapacity(encoding, false, port)) segments = text === '' ? 0 : 1;
  return { encoding, segments, characters };
}

const ENCODING_NAMES: Record<Encoding, string> = { gsm7: 'GSM 7-bit', ucs2: 'UCS-2' };
/**
 * 1002 → "1,002". By hand: an Intl.NumberFormat costs ~23 ms of ICU start-up in every process
 * that loads this module (each `serve`, each `conformance` run), for a message rarely written.
 */
function withThousands(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+$)/g, ',');
}

/** `smsmsg needs 14 segments (UCS-2, 1,002 characters); at most 10`: what it takes against the cap. */
function tooLong(text: string, port: boolean, limits: MessageLimits): SmsRefusal {
  const { encoding, segments, characters } = countSegments(text, port);
  return new SmsRefusal(
    'MessageTooLong',
    `smsmsg needs ${withThousands(segments)} segments (${ENCODING_NAMES[encoding]}, ${withThousands(characters)} characters); at most ${limits.maxSegments}`,
    'smsmsg',
  );
}
