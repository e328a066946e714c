/**
 * Where smskit's server answers differently from genuine ASMX on purpose, by capture
 * (test/fixtures/asmx/captures), with the reason. The differential test (server-vs-asmx) holds
 * each to still differ, and the replay proof (test/migrate/asmx-proof) expects exactly these.
 */
import type { FuzzFinding } from '../../fuzz/index.js';

const NOT_A_METHOD =
  'ASMX answers a path that names no method of the binding (an unknown name, or a method it leaves out of HTTP GET/POST) ' +
  'with 500 text/plain "Web Service method name is not valid"; smskit answers 404 "Not found.", as for any path it does not serve.';
const MISSING_REQUIRED =
  'ASMX fills a missing minOccurs="1" element with the .NET default (0, null, DateTime.MinValue...); ' +
  'smskit refuses it with a Client fault naming the path, rather than invent a value.';

const UNREADABLE_XML =
  'ASMX answers a body it cannot read as XML (malformed, empty, with a DOCTYPE) with 400 and an empty body; smskit with a ' +
  'Client fault (500), which a SOAP client can read.';

/** Captures where smskit differs from ASMX on purpose, with the reason. */
export const KNOWN: Readonly<Record<string, string>> = {
  'echo/Nope.get.error-unknown-operation': NOT_A_METHOD,
  'rich/DescribeScalars.get.error-not-offered': NOT_A_METHOD,
  'rich/EchoLines.get.error-not-offered': NOT_A_METHOD,
  'rich/EchoNullableInt.get.error-not-offered': NOT_A_METHOD,
  'rich/EchoNullableInt.post.error-not-offered': NOT_A_METHOD,
  'echo/SMSSend.soap11.error-malformed-xml': UNREADABLE_XML,
  'echo/SMSSend.soap11.error-empty-body': UNREADABLE_XML,
  'echo/SMSSend.soap11.error-doctype': UNREADABLE_XML,
  'echo/SMSSend.soap11.error-as-soap12-type':
    "Mono's ASMX refuses a SOAP 1.1 envelope sent as application/soap+xml (415, no body); smskit serves both versions at the " +
    "address, lets the envelope's namespace decide (the media type only hints) and answers in SOAP 1.1.",
  'echo/SMSSend.soap11.unknown-element':
    'ASMX skips an undeclared child element; smskit refuses it with a Client fault naming the path, so a misspelt field is never dropped silently.',
  'rich/Add.soap11.missing-element': MISSING_REQUIRED,
  'rich/EchoNullableInt.soap11.absent': MISSING_REQUIRED,
  'rich/EchoOrder.soap11.sparse': MISSING_REQUIRED,
  'rich/EchoOrder.soap11.reordered': `${MISSING_REQUIRED} (The order of the elements itself is accepted by both.)`,
  'echo/SMSSend.post.error-bare-name':
    "Mono's form reader takes a name without '=' as that name with an empty value, so this peer answers 200; .NET Framework's " +
    '(HttpValueCollection.FillFromEncodedBytes, as FillFromString for a query) files the segment under no name, and ASMX answers ' +
    '"Missing parameter: smsmsg.", as smskit does on both bindings (Mono answers so for HTTP GET).',
  'echo/SMSSend.get.escapes':
    "Mono's query reader leaves a %u escape as text (w%u00F6rld); .NET Framework's HttpUtility.UrlDecode reads it (wörld), as " +
    'smskit does: .NET clients (HttpGetClientProtocol) send non-ASCII characters so.',
  'echo/SMSSend.get.repeated':
    'ASMX reads a parameter given twice as its values joined by a comma (NameValueCollection: "a,b"), a value no client sent; ' +
    'smskit refuses it ("It is given more than once."), as the SOAP bindings refuse a second element.',
  'rich/EchoColor.get.numeric-value':
    "ASMX also reads an enum parameter given as the .NET member's number; the WSDL carries only the names, so smskit cannot.",
};

/** A `smskit fuzz --reference` finding, as the list below judges it (smskit the target, ASMX the reference). */
export type ReferenceFinding = Pick<FuzzFinding, 'operation' | 'binding' | 'value' | 'differences'>;

/**
 * A difference `fuzz --reference` finds between smskit's rich server and genuine ASMX, whose it
 * is and why, with the rule that recognises it: `text` for a leaf (or one `|`-separated token of
 * a leaf) whose texts differ, ASMX's first; `line` for an element's attributes; `refused` for an input ASMX refused and smskit answered.
 */
export interface KnownReferenceDifference {
  readonly id: string;
  readonly reason: string;
  readonly text?: (asmx: string, smskit: string, finding: ReferenceFinding) => boolean;
  readonly refused?: (finding: ReferenceFinding) => boolean;
  /** A whole outline line that differs (an element with attributes), ASMX's first. */
  readonly line?: (asmx: string, smskit: string) => boolean;
}

const isHttp = (f: ReferenceFinding): boolean => f.binding === 'http-get' || f.binding === 'http-post';
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const SMALLEST_NORMAL = 2.2250738585072014e-308;

/** Every string and number of an input's value tree. */
function leaves(value: unknown): unknown[] {
  if (Array.isArray(value)) return value.flatMap(leaves);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(leaves);
  return [value];
}

/** How many representable doubles apart two doubles are (0 when equal). */
function ulpsApart(a: number, b: number): bigint {
  const bits = new BigInt64Array(new Float64Array([a, b]).buffer);
  const d = bits[0]! - bits[1]!;
  return d < 0n ? -d : d;
}

const significantDigits = (text: string): number =>
  text
    .replace(/[eE].*$/, '')
    .replace(/\D/g, '')
    .replace(/^0+/, '').length;

/** A date-time text whose year is outside 0001-9999 (how smskit's comparison writes it). */
const yearOutOfRange = (text: string): boolean => /^(0000-|[+-]\d)/.test(text);
const DOTNET_LIMIT = /^(0001-01-01T|9999-12-31T)/;

export const FUZZ_REFERENCE_KNOWN: readonly KnownReferenceDifference[] = [
  {
    id: 'whitespace-written-literally',
    reason:
      'ASMX reads a carriage return sent as &#xD; (or a tab or line feed in an attribute, sent as &#x9; or &#xA;) and writes ' +
      'it back as the character itself, which every XML processor must read as a line feed (XML 1.0 §2.11) or, in an ' +
      "attribute, a space (§3.3.3); smskit writes the character reference and keeps it. ASMX's (XmlSerializer's writer).",
    text: (asmx, smskit) => smskit.includes('\r') && asmx === smskit.replace(/\r\n?/g, '\n'),
    // An element's attributes, as the outline writes them: @{ns}name="JSON text" each.
    line: (asmx, smskit) => smskit.includes(' @') && asmx === smskit.replace(/\\r\\n|\\[tnr]/g, ' '),
  },
  {
    id: 'double-parse-inexact',
    reason:
      "Mono's double reader (XmlConvert.ToDouble, Double.Parse) is not correctly rounded: a subnormal is cut toward zero " +
      '(6.4e-323 read as 5.93e-323) and some normal values land one unit in the last place off (IEEE 754-2008 §5.12.2 ' +
      'requires the nearest double; XSD 1.1 Part 2 §3.3.5.2). A result computed from such a value is a few units off ' +
      "(an area from a radius), or further when the value was subnormal. Mono's.",
    text: (asmx, smskit, f) =>
      NUMBER.test(asmx) &&
      NUMBER.test(smskit) &&
      Number(asmx) !== Number(smskit) &&
      (ulpsApart(Number(asmx), Number(smskit)) <= 4n ||
        leaves(f.value).some((v) => typeof v === 'number' && v !== 0 && Math.abs(v) < SMALLEST_NORMAL)),
  },
  {
    id: 'round-trip-17-digits',
    reason:
      '.NET\'s ToString("R") writes 15 digits when they read back as the same double, else 17; Mono checks the 15 digits with ' +
      'its inexact reader (above), so it writes 17 for values 15 represent (2.4703282292062327E-323 for 2.47032822920623E-323, ' +
      "one double). The mirror of the C# (test/peers/dotnet-format.ts) follows .NET's rule. Mono's.",
    text: (asmx, smskit) =>
      NUMBER.test(asmx) &&
      NUMBER.test(smskit) &&
      Number(asmx) === Number(smskit) &&
      significantDigits(asmx) === 17 &&
      significantDigits(smskit) <= 15,
  },
  {
    id: 'date-time-clamped',
    reason:
      'A date-time whose offset takes it before 0001-01-01T00:00:00Z (or past 9999-12-31T23:59:59Z) is a valid xs:dateTime ' +
      "(XSD 1.0 Part 2 §3.2.7) that .NET's DateTime cannot hold: XmlSerializer clamps it to DateTime.MinValue/MaxValue, Mono's " +
      "DateTime.Parse (HTTP GET/POST) moves the low ones a day on and refuses the high ones. smskit keeps the value. .NET's.",
    text: (asmx, smskit) => DOTNET_LIMIT.test(asmx) && yearOutOfRange(smskit),
    refused: (f) =>
      isHttp(f) && leaves(f.value).some((v) => typeof v === 'string' && /^9999-12-31T.*-\d\d:\d\d$/.test(v)),
  },
  {
    id: 'flags-empty-http',
    reason:
      'An empty [Flags] value is a list of no names, valid when the list type has no minLength (XSD 1.0 Part 2 §2.5.1.2, ' +
      "§4.3.2): ASMX's SOAP reader takes it as None, its HTTP GET/POST reader (Enum.Parse) refuses it. ASMX's.",
    refused: (f) =>
      isHttp(f) && f.operation === 'EchoAccess' && String((f.value as { access?: unknown }).access).trim() === '',
  },
  {
    id: 'inf-http',
    reason:
      "INF and -INF are xs:double's lexical infinities (XSD 1.0 Part 2 §3.2.5); ASMX's HTTP GET/POST reader (Double.Parse) " +
      'accepts only "Infinity" and refuses them, where its SOAP reader accepts them. ASMX\'s.',
    refused: (f) => isHttp(f) && leaves(f.value).some((v) => v === 'INF' || v === '-INF'),
  },
  {
    id: 'request-validation',
    reason:
      'ASP.NET request validation refuses query and form text that looks like markup ("<" or a full-width "＜" then a ' +
      'letter, "!" or a control character such as a tab; "&#"), which the ' +
      "schema allows (xs:string, XSD 1.0 Part 2 §3.2.1); smskit reads parameters by the schema alone. ASP.NET's, on purpose.",
    refused: (f) =>
      isHttp(f) && leaves(f.value).some((v) => typeof v === 'string' && /[<\uff1c][\t\n\r!a-zA-Z]|&#/.test(v)),
  },
  {
    id: 'bidi-dropped-get',
    reason:
      'ASMX over HTTP GET drops the bidi formatting characters U+200E, U+200F and U+202A-U+202E from a query parameter ' +
      "(Mono's System.Uri strips them, as RFC 3987 §4.1 asks of IRIs); a percent-encoded query carries any characters " +
      "(RFC 3986 §2.1, §3.4), and HTTP POST keeps them. Mono's.",
    text: (asmx, smskit, f) =>
      f.binding === 'http-get' && asmx !== smskit && asmx === smskit.replace(/[\u200e\u200f\u202a-\u202e]/g, ''),
  },
];

/** A leaf difference's side, `{ns}local = "text"`, as its name and text. */
function leafOf(side: string | undefined): { name: string; text: string } | undefined {
  const m = side === undefined ? null : /^(\{[^}]*\}\S+) = (".*")$/s.exec(side);
  return m === null ? undefined : { name: m[1]!, text: JSON.parse(m[2]!) as string };
}

function textKnown(asmx: string, smskit: string, f: ReferenceFinding): boolean {
  return FUZZ_REFERENCE_KNOWN.some((k) => k.text?.(asmx, smskit, f) === true);
}

/**
 * The differences of a `--reference` finding that no known difference explains, as text. A leaf
 * is explained as a whole or token by token (`|`-separated `name=value`, as DescribeScalars writes).
 */
export function unexplainedDifferences(f: ReferenceFinding): string[] {
  return f.differences
    .filter((d) => {
      if (d.path === 'outcome')
        return !(d.want?.startsWith('refused') && FUZZ_REFERENCE_KNOWN.some((k) => k.refused?.(f) === true));
      if (FUZZ_REFERENCE_KNOWN.some((k) => k.line?.(d.want ?? '', d.got ?? '') === true)) return false;
      const [asmx, smskit] = [leafOf(d.want), leafOf(d.got)];
      if (asmx === undefined || smskit === undefined || asmx.name !== smskit.name) return true;
      if (textKnown(asmx.text, smskit.text, f)) return false;
      const [a, s] = [asmx.text.split('|'), smskit.text.split('|')];
      if (a.length !== s.length) return true;
      return a.some((token, i) => {
        const [ka, va = ''] = token.split(/=(.*)/s);
        const [ks, vs = ''] = s[i]!.split(/=(.*)/s);
        return token !== s[i] && (ka !== ks || !textKnown(va, vs, f));
      });
    })
    .map((d) => `${f.operation}/${f.binding} ${d.path}: ASMX ${d.want ?? '(none)'}, smskit ${d.got ?? '(none)'}`);
}
