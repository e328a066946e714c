/**
 * Leaf texts that carry the same value in different spellings, brought to one spelling before
 * two answers are compared. Only forms that cannot be anything else are touched, so a string
 * that happens to look like a number ("007") is never taken for one:
 * - xs:dateTime with a zone: the instant in UTC (ASMX writes "+00:00" or converts an offset to
 *   its local time; a TypeScript server keeps "Z" or the offset it received); without a zone:
 *   the date and time with seven fraction digits (.NET writes ".0000000"); a date alone stays.
 * - xs:double/xs:float in exponent form: .NET writes "1E+300", JavaScript "1e+300".
 * - a GUID: lower case (.NET writes a Guid it parsed in lower case).
 */
const DATE_TIME = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)?$/;
const EXPONENT = /^[+-]?(\d+\.?\d*|\.\d+)[eE][+-]?\d+$/;
const GUID = /^[0-9a-fA-F]{8}(-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}$/;

/** An xs:dateTime in one form (see above), or undefined for text that is not one. */
export function canonicalDateTime(text: string): string | undefined {
  const m = DATE_TIME.exec(text);
  if (m === null) return undefined;
  const [, date, time, fraction = '', zone] = m;
  const ticks = fraction.slice(0, 7).padEnd(7, '0');
  if (zone === undefined) return `${date}T${time}.${ticks}`;
  const base = Date.parse(`${date}T${time}${zone === 'Z' ? 'Z' : zone}`);
  if (Number.isNaN(base)) return undefined;
  return `${new Date(base).toISOString().slice(0, 19)}.${ticks}Z`;
}

export function canonicalText(text: string): string {
  const trimmed = text.trim();
  if (trimmed !== text || trimmed === '') return text;
  const dateTime = canonicalDateTime(trimmed);
  if (dateTime !== undefined) return dateTime;
  if (EXPONENT.test(trimmed)) return String(Number(trimmed));
  if (GUID.test(trimmed)) return trimmed.toLowerCase();
  return text;
}
