/**
 * The lexical forms of the XSD date, time and duration types, checked on the way in and on the
 * way out (XML Schema 1.0 part 2, sections 3.2.6 to 3.2.14; dateTimeStamp, dayTimeDuration and
 * yearMonthDuration are XSD 1.1's). The value stays its text (a TypeScript string): the check
 * makes sure that text is one a schema-aware peer reads, so that a required `<Created/>` or
 * `"yesterday"` fails here, naming the field, rather than as a fault from the other side or as
 * a silently wrong value.
 *
 *   dateTime   -?YYYY-MM-DDThh:mm:ss(.s+)?(Z|(+|-)hh:mm)?      date   -?YYYY-MM-DD(zone)?
 *   time       hh:mm:ss(.s+)?(zone)?                          gYearMonth -?YYYY-MM(zone)?
 *   gYear      -?YYYY(zone)?    gMonthDay --MM-DD(zone)?    gDay ---DD(zone)?    gMonth --MM(zone)?
 *   duration   -?P(nY)?(nM)?(nD)?(T(nH)?(nM)?(n(.n)?S)?)?  with at least one component and no T
 *              without a time component after it
 *
 * A year has four digits or more (no leading zero beyond four, not 0000: XSD 1.0 has no year
 * zero); months 01-12; days 01 up to the month's length (February 29 only in leap years, any
 * year for gMonthDay); hours 00-23, or 24:00:00 exactly (the end of the day); minutes and seconds
 * 00-59; a zone Z or from -14:00 to +14:00. ASMX writes `2024-02-29T18:29:59.1234567+00:00`,
 * `2026-11-24T10:00:00Z`, `0001-01-01T00:00:00` (DateTime.MinValue), all of which pass.
 *
 * One leniency, on reading only: a date alone where a dateTime is expected is read as the
 * midnight that starts it (`2024-02-29` -> `2024-02-29T00:00:00`), as ASMX reads it on every
 * binding (captures/rich/EchoScalars.soap11.lexical-variants.txt answers that very value; a
 * hand-typed HTTP GET query is where it comes up). The value handed on is a dateTime all the same.
 *
 * Hot path: a value is checked by one precompiled regex test (no allocation) and, for a day
 * above 28, a look at the digits; the message saying what is wrong is worked out only on failure.
 */
import { CodecError } from '../errors.js';
import type { PrimitiveOf } from '../primitives.js';

/** The date, time and duration types of the primitive table (runtime/primitives.ts). */
export type TemporalName = PrimitiveOf<'temporal'>;

const YEAR = '-?(?:[1-9][0-9]{4,}|(?!0000)[0-9]{4})';
const MONTH = '(?:0[1-9]|1[0-2])';
const DAY = '(?:0[1-9]|[12][0-9]|3[01])';
const TIME = '(?:(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]+)?|24:00:00(?:\\.0+)?)';
const ZONE = '(?:Z|[+-](?:(?:0[0-9]|1[0-3]):[0-5][0-9]|14:00))';
const SECONDS = '[0-9]+(?:\\.[0-9]+)?S';
/** T, then at least one of hours, minutes, seconds (the lookahead refuses a T with none). */
const DURATION_TIME = `T(?=[0-9])(?:[0-9]+H)?(?:[0-9]+M)?(?:${SECONDS})?`;

/** Where the day of a form stands, for the days-in-month check a regex cannot make. */
type DayCheck = 'after-year' | 'month-day' | undefined;

interface TemporalForm {
  /** `xs:dateTime`, for messages. */
  readonly name: string;
  /** The whole lexical form, for messages. */
  readonly form: string;
  readonly strict: RegExp;
  readonly day: DayCheck;
}

function form(local: string, shape: string, pattern: string, day?: DayCheck): TemporalForm {
  return { name: `xs:${local}`, form: shape, strict: new RegExp(`^${pattern}$`), day };
}

const ZONE_FORM = '(Z|(+|-)hh:mm)?';

/** One form per temporal type of the table: a type added there without its form here does not compile. */
const FORMS: Readonly<Record<TemporalName, TemporalForm>> = {
  dateTime: form(
    'dateTime',
    `-?YYYY-MM-DDThh:mm:ss(.s+)?${ZONE_FORM}`,
    `${YEAR}-${MONTH}-${DAY}T${TIME}${ZONE}?`,
    'after-year',
  ),
  dateTimeStamp: form(
    'dateTimeStamp',
    '-?YYYY-MM-DDThh:mm:ss(.s+)?(Z|(+|-)hh:mm)',
    `${YEAR}-${MONTH}-${DAY}T${TIME}${ZONE}`,
    'after-year',
  ),
  date: form('date', `-?YYYY-MM-DD${ZONE_FORM}`, `${YEAR}-${MONTH}-${DAY}${ZONE}?`, 'after-year'),
  time: form('time', `hh:mm:ss(.s+)?${ZONE_FORM}`, `${TIME}${ZONE}?`),
  gYearMonth: form('gYearMonth', `-?YYYY-MM${ZONE_FORM}`, `${YEAR}-${MONTH}${ZONE}?`),
  gYear: form('gYear', `-?YYYY${ZONE_FORM}`, `${YEAR}${ZONE}?`),
  gMonthDay: form('gMonthDay', `--MM-DD${ZONE_FORM}`, `--${MONTH}-${DAY}${ZONE}?`, 'month-day'),
  gDay: form('gDay', `---DD${ZONE_FORM}`, `---${DAY}${ZONE}?`),
  gMonth: form('gMonth', `--MM${ZONE_FORM}`, `--${MONTH}${ZONE}?`),
  duration: form(
    'duration',
    '-?PnYnMnDTnHnMn.nS (at least one part; T only before a time part)',
    `-?P(?=[0-9]|T[0-9])(?:[0-9]+Y)?(?:[0-9]+M)?(?:[0-9]+D)?(?:${DURATION_TIME})?`,
  ),
  dayTimeDuration: form(
    'dayTimeDuration',
    '-?PnDTnHnMn.nS (at least one part; T only before a time part)',
    `-?P(?=[0-9]|T[0-9])(?:[0-9]+D)?(?:${DURATION_TIME})?`,
  ),
  yearMonthDuration: form('yearMonthDuration', '-?PnYnM (at least one part)', '-?P(?=[0-9])(?:[0-9]+Y)?(?:[0-9]+M)?'),
};

const DATE_TIME = FORMS.dateTime;
const DATE = FORMS.date;

/** The lexical form of a temporal type. */
export function temporalForm(xsd: TemporalName): TemporalForm {
  return FORMS[xsd];
}

/** Throws a CODEC_INVALID_VALUE error naming `path` unless `text` is a lexical form of `f`. */
export function checkTemporal(f: TemporalForm, text: string, path: string): void {
  if (!isForm(f, text)) throw invalidTemporal(f, text, path);
}

/** The value of `text` read as `f` (see the leniency above), or a CODEC_INVALID_VALUE error. */
export function readTemporal(f: TemporalForm, text: string, path: string): string {
  if (isForm(f, text)) return text;
  if (f === DATE_TIME && isForm(DATE, text)) {
    const dateEnd = text.indexOf('-', 1) + 6;
    return `${text.slice(0, dateEnd)}T00:00:00${text.slice(dateEnd)}`;
  }
  throw invalidTemporal(f, text, path);
}

function isForm(f: TemporalForm, text: string): boolean {
  return f.strict.test(text) && (f.day === undefined || dayFits(text, f.day));
}

function invalidTemporal(f: TemporalForm, text: string, path: string): CodecError {
  const shown = text.length > 40 ? `${text.slice(0, 40)}...` : text;
  return new CodecError('CODEC_INVALID_VALUE', path, `"${shown}" is not an ${f.name}: ${whatIsWrong(f, text)}`);
}

/** Whether the day (known to be 01-31 by the regex) exists in its month. */
function dayFits(text: string, at: DayCheck): boolean {
  // after-year: -?YYYY+-MM-DD...; month-day: --MM-DD...
  const yearEnd = at === 'after-year' ? text.indexOf('-', 1) : 1;
  const day = digits2(text, yearEnd + 4);
  if (day <= 28) return true;
  const month = digits2(text, yearEnd + 1);
  if (month === 2) return day === 29 && (at === 'month-day' || isLeap(text, yearEnd));
  return (
    day <= 30 || month === 1 || month === 3 || month === 5 || month === 7 || month === 8 || month === 10 || month === 12
  );
}

function digits2(text: string, at: number): number {
  return (text.charCodeAt(at) - 48) * 10 + text.charCodeAt(at + 1) - 48;
}

/**
 * Whether the year before `yearEnd` is a leap year of the proleptic Gregorian calendar. XSD 1.0
 * has no year zero: -0001 is 1 BCE, the astronomical year 0, so a negative year Y is leap when
 * Y - 1 is. Only the year modulo 400 matters, which spares parsing a year of any length.
 */
function isLeap(text: string, yearEnd: number): boolean {
  const negative = text.charCodeAt(0) === 45;
  let mod = 0;
  for (let i = negative ? 1 : 0; i < yearEnd; i++) mod = (mod * 10 + text.charCodeAt(i) - 48) % 400;
  if (negative) mod = (mod + 399) % 400;
  return mod % 4 === 0 && (mod % 100 !== 0 || mod === 0);
}

/** Loose forms with the parts as groups: only to say what is wrong with a value the strict form refused. */
const LOOSE_ZONE = '(?<zone>Z|[+-]\\d\\d:\\d\\d)?';
const LOOSE_TIME = '(?<hour>\\d\\d):(?<minute>\\d\\d):(?<second>\\d\\d)(?<fraction>\\.\\d+)?';
const LOOSE: Readonly<Partial<Record<TemporalName, RegExp>>> = {
  dateTime: new RegExp(`^(?<year>-?\\d{4,})-(?<month>\\d\\d)-(?<day>\\d\\d)T${LOOSE_TIME}${LOOSE_ZONE}$`),
  dateTimeStamp: new RegExp(
    `^(?<year>-?\\d{4,})-(?<month>\\d\\d)-(?<day>\\d\\d)T${LOOSE_TIME}(?<zone>Z|[+-]\\d\\d:\\d\\d)$`,
  ),
  date: new RegExp(`^(?<year>-?\\d{4,})-(?<month>\\d\\d)-(?<day>\\d\\d)${LOOSE_ZONE}$`),
  time: new RegExp(`^${LOOSE_TIME}${LOOSE_ZONE}$`),
  gYearMonth: new RegExp(`^(?<year>-?\\d{4,})-(?<month>\\d\\d)${LOOSE_ZONE}$`),
  gYear: new RegExp(`^(?<year>-?\\d{4,})${LOOSE_ZONE}$`),
  gMonthDay: new RegExp(`^--(?<month>\\d\\d)-(?<day>\\d\\d)${LOOSE_ZONE}$`),
  gDay: new RegExp(`^---(?<day>\\d\\d)${LOOSE_ZONE}$`),
  gMonth: new RegExp(`^--(?<month>\\d\\d)${LOOSE_ZONE}$`),
};

const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Why `text` is not of form `f`: the first part out of range, else the expected form. */
function whatIsWrong(f: TemporalForm, text: string): string {
  const expected = `expected ${f.form}`;
  if (text === '') return `empty; ${expected}`;
  const local = f.name.slice(3) as TemporalName;
  const parts = LOOSE[local]?.exec(text)?.groups;
  if (parts === undefined) {
    if (local.startsWith('dateTime') && DATE.strict.test(text)) return `a date without its time of day; ${expected}`;
    if (local === 'dateTimeStamp' && DATE_TIME.strict.test(text)) return 'the time zone (Z or (+|-)hh:mm) is missing';
    return expected;
  }
  const { year, month, day, hour, minute, second, fraction, zone } = parts;
  if (year !== undefined) {
    const digits = year.replace('-', '');
    if (digits === '0000') return 'there is no year 0000 in XSD 1.0 (1 BCE is -0001)';
    if (digits.length > 4 && digits.startsWith('0'))
      return `the year ${year} has a leading zero (four digits at least, no more with a leading zero)`;
  }
  const m = month === undefined ? undefined : Number(month);
  if (m !== undefined && (m < 1 || m > 12)) return `month ${month} is not 01-12`;
  if (day !== undefined) {
    const max =
      m === undefined ? 31 : m === 2 && year !== undefined && !isLeap(year, year.length) ? 28 : MONTH_DAYS[m - 1]!;
    if (Number(day) < 1 || Number(day) > max)
      return m === undefined
        ? `day ${day} is not 01-31`
        : `day ${day} is not in month ${month}${m === 2 && max === 28 ? ` of ${year}, not a leap year` : ''} (01-${max})`;
  }
  if (hour !== undefined) {
    const endOfDay =
      hour === '24' && minute === '00' && second === '00' && (fraction === undefined || /^\.0+$/.test(fraction));
    if (hour === '24' && !endOfDay) return '24 is an hour only in 24:00:00, the end of the day';
    if (Number(hour) > 24) return `hour ${hour} is not 00-23 (or 24:00:00)`;
    if (Number(minute) > 59) return `minute ${minute} is not 00-59`;
    if (Number(second) > 59) return `second ${second} is not 00-59`;
  }
  if (zone !== undefined && zone !== 'Z') {
    const [h, mm] = zone.slice(1).split(':').map(Number) as [number, number];
    if (mm > 59 || h > 14 || (h === 14 && mm !== 0)) return `the time zone ${zone} is not from -14:00 to +14:00`;
  }
  return expected;
}
