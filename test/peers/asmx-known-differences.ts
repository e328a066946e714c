/**
 * Where smskit's server answers differently from genuine ASMX on purpose, by capture
 * (test/fixtures/asmx/captures), with the reason. The differential test (server-vs-asmx) holds
 * each to still differ, and the replay proof (test/migrate/asmx-proof) expects exactly these.
 */
const NOT_A_METHOD =
  'ASMX answers a path that names no method of the binding (an unknown name, or a method it leaves out of HTTP GET/POST) ' +
  'with 500 text/plain "Web Service method name is not valid"; smskit answers 404 "Not found.", as for any path it does not serve.';
const MISSING_REQUIRED =
  'ASMX fills a missing minOccurs="1" element with the .NET default (0, null, DateTime.MinValue...); ' +
  'smskit refuses it with a Client fault naming the path, rather than invent a value.';

/** Captures where smskit differs from ASMX on purpose, with the reason. */
export const KNOWN: Readonly<Record<string, string>> = {
  'echo/Nope.get.error-unknown-operation': NOT_A_METHOD,
  'rich/DescribeScalars.get.error-not-offered': NOT_A_METHOD,
  'rich/EchoLines.get.error-not-offered': NOT_A_METHOD,
  'rich/EchoNullableInt.get.error-not-offered': NOT_A_METHOD,
  'rich/EchoNullableInt.post.error-not-offered': NOT_A_METHOD,
  'echo/SMSSend.soap11.error-malformed-xml':
    'ASMX answers malformed XML with 400 and an empty body; smskit with a Client fault (500), which a SOAP client can read.',
  'echo/SMSSend.soap11.unknown-element':
    'ASMX skips an undeclared child element; smskit refuses it with a Client fault naming the path, so a misspelt field is never dropped silently.',
  'rich/Add.soap11.missing-element': MISSING_REQUIRED,
  'rich/EchoNullableInt.soap11.absent': MISSING_REQUIRED,
  'rich/EchoOrder.soap11.sparse': MISSING_REQUIRED,
  'rich/EchoOrder.soap11.reordered': `${MISSING_REQUIRED} (The order of the elements itself is accepted by both.)`,
  'rich/EchoColor.get.numeric-value':
    "ASMX also reads an enum parameter given as the .NET member's number; the WSDL carries only the names, so smskit cannot.",
};
