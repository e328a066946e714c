/**
 * The invariant-culture text .NET (Mono 6.8, as the ASMX peers run) gives a few values, so the
 * TypeScript mirrors of the peer services answer with the same strings as the C#: `"R"` for
 * double and float, and a DateTime as XmlSerializer reads it and `ToString("…fffffffK")` writes it.
 */

/**
 * `value.ToString("R")`: the shortest of "G15" and "G17" (double) or "G7" and "G9" (float) that
 * reads back as the same value.
 */
export function formatRoundTrip(given: number, type: 'double' | 'float'): string {
  // A float parameter holds the nearest 32-bit value of what was sent, not the double itself.
  const value = type === 'double' ? given : Math.fround(given);
  const [short, long] = type === 'double' ? [15, 17] : [7, 9];
  const same = (text: string): boolean =>
    type === 'double' ? Number(text) === value : Math.fround(Number(text)) === value;
  const first = formatGeneral(value, short);
  return same(first) ? first : formatGeneral(value, long);
}

/**
 * `value.ToString("G<precision>")`: scientific when the exponent is -5 or below, or not below the
 * precision (.NET writes 0.0001 as "0.0001" but 0.00001 as "1E-05").
 */
export function formatGeneral(value: number, precision: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
  if (value === 0) return '0';
  const [mantissa, exponentText] = value.toExponential(precision - 1).split('e');
  const exponent = Number(exponentText);
  const trim = (digits: string): string =>
    digits.includes('.') ? digits.replace(/0+$/, '').replace(/\.$/, '') : digits;
  if (exponent <= -5 || exponent >= precision) {
    const sign = exponent < 0 ? '-' : '+';
    return `${trim(mantissa!)}E${sign}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  return trim(value.toFixed(Math.max(0, precision - 1 - exponent)));
}

export interface DotnetDateTime {
  /** `ToString("yyyy-MM-dd'T'HH:mm:ss.fffffffK")`. */
  readonly text: string;
  readonly kind: 'Utc' | 'Local' | 'Unspecified';
}

const DATE_TIME = /^(\d{4})-(\d\d)-(\d\d)(?:T(\d\d):(\d\d):(\d\d)(?:\.(\d+))?)?(Z|[+-]\d\d:\d\d)?$/;

/**
 * A date-time as ASMX reads it on a host running with TZ=UTC (as the peers do). XmlSerializer
 * (SOAP): "Z" gives a Utc value, an offset is converted to local time (here UTC, written
 * "+00:00"), no zone gives an Unspecified value. The HTTP GET/POST reader (DateTime.Parse)
 * converts "Z" to local time too. Undefined for text that is not a date-time.
 */
export function readDotnetDateTime(lexical: string, reader: 'xml' | 'http' = 'xml'): DotnetDateTime | undefined {
  const m = DATE_TIME.exec(lexical.trim());
  if (m === null) return undefined;
  const [, y, mo, d, h = '00', mi = '00', s = '00', fraction = '', zone] = m;
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0-99 as 1900-1999.
  let date = new Date(0);
  date.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  date.setUTCHours(Number(h), Number(mi), Number(s), 0);
  if (zone !== undefined && zone !== 'Z') {
    const minutes = (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6))) * (zone.startsWith('-') ? -1 : 1);
    date = new Date(date.getTime() - minutes * 60_000);
  }
  const ticks = fraction.slice(0, 7).padEnd(7, '0');
  const kind = zone === undefined ? 'Unspecified' : zone === 'Z' && reader === 'xml' ? 'Utc' : 'Local';
  const suffix = kind === 'Utc' ? 'Z' : kind === 'Local' ? '+00:00' : '';
  return { text: `${date.toISOString().slice(0, 19)}.${ticks}${suffix}`, kind };
}
