#!/usr/bin/env bash
# capture.sh: records what a genuine ASMX peer (test/peers/asmx/<service>) answers, one exchange per
# file, so tests can compare smskit's wire format with the real thing.
#
#   test/peers/asmx/capture.sh echo|rich [BASE_URL] [OUT_DIR]
#
# BASE_URL is a running peer (e.g. http://127.0.0.1:41234, as `asmx-host start` prints it); without
# it (or with '') the script starts the peer itself with ../shared/asmx-host and stops it on exit.
# OUT_DIR defaults to test/fixtures/asmx/captures/<service>; its *.txt files are replaced, and the
# WSDL the peer serves is written two levels up as <service>.wsdl (test/fixtures/asmx/<service>.wsdl).
#
# For each operation it sends one representative request per binding ASMX offers for it (SOAP 1.1,
# SOAP 1.2, HTTP GET, HTTP POST; see the WSDL), some variants, and error cases. Each file is
# <Operation>.<binding>[.<variant>].txt with <binding> one of soap11, soap12, get, post:
#
#   #### request
#   <request line and headers exactly as sent, one per line>
#   <empty line>
#   <request body, exactly as sent>
#   #### response
#   <status line and headers as received, without Date>
#   <empty line>
#   <response body, exactly as received>
#
# Header lines are stored with LF (CRLF on the wire). After each body the script writes one "\n" of
# its own before the next "####" line or the end of the file. Requests carry "Host: localhost", so
# nothing depends on the port the peer got. Stack-frame assembly ids that change on every start are
# written as zeros (see exchange). A peer this script starts runs with TZ=UTC; start your own the
# same way, or DateTime answers differ.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
usage() { sed -n '5p' "$0" | sed 's/^# *//' >&2; exit 2; }

service=${1:-}
case $service in
  echo) asmx=serviceapi.asmx NS=http://smskit.dev/serviceapi/ ;;
  rich) asmx=rich.asmx NS=http://smskit.dev/rich/ ;;
  *) usage ;;
esac
base=${2:-}
out=${3:-$ROOT/test/fixtures/asmx/captures/$service}
tmp=$(mktemp -d)
cleanup() {
  if [ -n "${work:-}" ]; then "$ROOT/../shared/asmx-host/asmx-host" stop --work "$work" || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
if [ -z "$base" ]; then
  # ASMX writes a DateTime it parsed from an offset as local time: fix the zone for stable files.
  export TZ=UTC
  work=$tmp/peer
  started=$("$ROOT/../shared/asmx-host/asmx-host" start --site "$HERE/$service" --work "$work")
  base=${started#* }
fi
base=${base%/}
mkdir -p "$out"
rm -f "$out"/*.txt

# ---- encoding helpers ----

# Percent-encodes one value as a browser does for a form (UTF-8 bytes, space as +).
urlencode() {
  local LC_ALL=C
  local s=$1 encoded='' c i
  for ((i = 0; i < ${#s}; i++)); do
    c=${s:i:1}
    case $c in
      [a-zA-Z0-9.~_-]) encoded+=$c ;;
      ' ') encoded+=+ ;;
      *) printf -v c '%%%02X' "'$c"; encoded+=$c ;;
    esac
  done
  printf '%s' "$encoded"
}

# form 'name=value' ... -> name=value&... with each name and value percent-encoded.
form() {
  local pair joined=''
  for pair; do
    joined+=${joined:+&}$(urlencode "${pair%%=*}")=$(urlencode "${pair#*=}")
  done
  printf '%s' "$joined"
}

# envelope 11|12 BODY_XML [HEADER_XML]: the envelope ASMX's own help page shows. In HEADER_XML,
# "ENV:" stands for the envelope prefix (for soap:mustUnderstand / soap12:mustUnderstand).
envelope() {
  local prefix=soap ns=http://schemas.xmlsoap.org/soap/envelope/ header=${3:-}
  if [ "$1" = 12 ]; then prefix=soap12 ns=http://www.w3.org/2003/05/soap-envelope; fi
  printf '<?xml version="1.0" encoding="utf-8"?>\n'
  printf '<%s:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:%s="%s">\n' "$prefix" "$prefix" "$ns"
  if [ -n "$header" ]; then printf '  <%s:Header>\n    %s\n  </%s:Header>\n' "$prefix" "${header//ENV:/$prefix:}" "$prefix"; fi
  printf '  <%s:Body>\n    %s\n  </%s:Body>\n</%s:Envelope>\n' "$prefix" "$2" "$prefix" "$prefix"
}

# ---- one exchange ----

# exchange FILE_STEM METHOD TARGET BODY [HEADER...]: sends one request and writes the file.
exchange() {
  local stem=$1 method=$2 target=$3 body=$4
  shift 4
  local args=(-sS -v --http1.1 -o "$tmp/body" -D "$tmp/head"
    -H 'Host: localhost' -H 'User-Agent:' -H 'Accept:' -H 'Expect:')
  local h
  for h; do args+=(-H "$h"); done
  if [ "$method" = POST ]; then
    printf '%s' "$body" >"$tmp/req"
    args+=(--data-binary "@$tmp/req")
  fi
  if ! curl "${args[@]}" "$base$target" 2>"$tmp/trace"; then
    echo "capture: $stem: curl failed" >&2
    cat "$tmp/trace" >&2
    return 1
  fi
  {
    printf '#### request\n'
    # curl -v shows the request line and headers as sent, prefixed with "> ", CRLF-terminated.
    sed -n 's/^> //p' "$tmp/trace" | tr -d '\r' | sed '/^$/d'
    printf '\n'
    if [ "$method" = POST ]; then cat "$tmp/req"; fi
    printf '\n#### response\n'
    tr -d '\r' <"$tmp/head" | grep -v '^Date: '
    # Stack frames name their assembly by its build id: stable for Mono's own assemblies, new on
    # every start for the site and for the serializers ASMX generates. Those become zeros (same
    # length, so Content-Length still holds).
    sed -E "/ at (Microsoft\.Xml\.Serialization\.GeneratedAssembly|Peers)\./ s/(&lt;|<)[0-9a-f]{32}(&gt;|>)/\1$ZERO_ID\2/g" "$tmp/body"
    printf '\n'
  } >"$out/$stem.txt"
  printf '%-55s %s\n' "$stem" "$(head -1 "$tmp/head" | tr -d '\r')"
}

# soap11/soap12 OPERATION VARIANT BODY_XML [HEADER_XML]: one SOAP call. OPERATION is the message
# name (AddDoubles, not Add): it names the SOAPAction and the file.
soap11() {
  exchange "$1.soap11${2:+.$2}" POST "/$asmx" "$(envelope 11 "$3" "${4:-}")" \
    'Content-Type: text/xml; charset=utf-8' "SOAPAction: \"$NS$1\""
}
soap12() {
  exchange "$1.soap12${2:+.$2}" POST "/$asmx" "$(envelope 12 "$3" "${4:-}")" \
    "Content-Type: application/soap+xml; charset=utf-8; action=\"$NS$1\""
}
soap() { soap11 "$@"; soap12 "$@"; }

# get/post OPERATION VARIANT 'name=value'...: one HTTP GET or HTTP POST call.
get() {
  local op=$1 variant=$2
  shift 2
  local query
  query=$(form "$@")
  exchange "$op.get${variant:+.$variant}" GET "/$asmx/$op${query:+?$query}" ''
}
post() {
  local op=$1 variant=$2
  shift 2
  exchange "$op.post${variant:+.$variant}" POST "/$asmx/$op" "$(form "$@")" \
    'Content-Type: application/x-www-form-urlencoded'
}
http() { get "$@"; post "$@"; }

ZERO_ID=00000000000000000000000000000000

# Text with non-ASCII characters (2-, 3- and 4-byte UTF-8) and the XML special characters.
TEXT="Grüße 你好 📱 <&>\"'"
TEXT_XML="Grüße 你好 📱 &lt;&amp;&gt;\"'"

# ---- the echo peer: this project's own contract ----

capture_echo() {
  local fields
  fields='<keyword>kw</keyword>
      <emailAddress>user@example.com</emailAddress>
      <password>p4ss</password>
      <smsto>+15551234567</smsto>
      <carrierCode>ATT</carrierCode>'
  soap SMSSend '' "<SMSSend xmlns=\"$NS\">
      $fields
      <smsmsg>$TEXT_XML</smsmsg>
    </SMSSend>"
  http SMSSend '' keyword=kw emailAddress=user@example.com password=p4ss smsto=+15551234567 carrierCode=ATT "smsmsg=$TEXT"

  # carrierCode left out (arrives as null) and smsto empty (arrives as "").
  soap SMSSendToPort '' "<SMSSendToPort xmlns=\"$NS\">
      <keyword>kw</keyword>
      <emailAddress>user@example.com</emailAddress>
      <password>p4ss</password>
      <smsto />
      <smsmsg>hello</smsmsg>
      <port>8080</port>
    </SMSSendToPort>"
  http SMSSendToPort '' keyword=kw emailAddress=user@example.com password=p4ss smsto= carrierCode=ATT smsmsg=hello port=8080

  # Leniency: elements in reverse order, an unknown element, SOAP 1.2 without the action parameter.
  soap11 SMSSend reordered "<SMSSend xmlns=\"$NS\">
      <smsmsg>hi</smsmsg>
      <carrierCode>ATT</carrierCode>
      <smsto>+15551234567</smsto>
      <password>p4ss</password>
      <emailAddress>user@example.com</emailAddress>
      <keyword>kw</keyword>
    </SMSSend>"
  soap11 SMSSend unknown-element "<SMSSend xmlns=\"$NS\">
      $fields
      <smsmsg>hi</smsmsg>
      <extra>ignored?</extra>
    </SMSSend>"
  exchange SMSSend.soap12.no-action POST "/$asmx" "$(envelope 12 "<SMSSend xmlns=\"$NS\">$fields<smsmsg>hi</smsmsg></SMSSend>")" \
    'Content-Type: application/soap+xml; charset=utf-8'

  # Errors: a SoapException (Client), an unhandled exception (Server), on every binding.
  soap SMSSend error-fault "<SMSSend xmlns=\"$NS\">$fields<smsmsg>fault</smsmsg></SMSSend>"
  http SMSSend error-fault keyword=kw emailAddress=user@example.com password=p4ss smsto=+15551234567 carrierCode=ATT smsmsg=fault
  soap SMSSend error-crash "<SMSSend xmlns=\"$NS\">$fields<smsmsg>crash</smsmsg></SMSSend>"
  http SMSSend error-crash keyword=kw emailAddress=user@example.com password=p4ss smsto=+15551234567 carrierCode=ATT smsmsg=crash
  # A missing HTTP parameter (smsmsg).
  http SMSSend error-missing-parameter keyword=kw emailAddress=user@example.com password=p4ss smsto=+15551234567 carrierCode=ATT
  # smsmsg named without '=': ASP.NET files such a segment under no name.
  local given
  given=$(form keyword=kw emailAddress=user@example.com password=p4ss smsto=+15551234567 carrierCode=ATT)
  exchange SMSSend.get.error-bare-name GET "/$asmx/SMSSend?$given&smsmsg" ''
  exchange SMSSend.post.error-bare-name POST "/$asmx/SMSSend" "$given&smsmsg" 'Content-Type: application/x-www-form-urlencoded'
  # Parameter names in another case: ASP.NET's collection matches them without regard to case.
  http SMSSend upper-case-names KEYWORD=kw EMAILADDRESS=user@example.com PASSWORD=p4ss SMSTO=+15551234567 CarrierCode=ATT SmsMsg=hi
  # An unknown header the receiver must understand.
  soap SMSSend error-must-understand "<SMSSend xmlns=\"$NS\">$fields<smsmsg>hi</smsmsg></SMSSend>" \
    '<x:Unknown xmlns:x="urn:example:unknown" ENV:mustUnderstand="1">value</x:Unknown>'
  # Routing errors: an unknown SOAPAction, malformed XML, an unknown HTTP method name.
  exchange SMSSend.soap11.error-unknown-action POST "/$asmx" "$(envelope 11 "<SMSSend xmlns=\"$NS\">$fields<smsmsg>hi</smsmsg></SMSSend>")" \
    'Content-Type: text/xml; charset=utf-8' "SOAPAction: \"${NS}Nope\""
  exchange SMSSend.soap11.error-malformed-xml POST "/$asmx" "$(envelope 11 "<SMSSend xmlns=\"$NS\"><smsmsg>hi</SMSSend>")" \
    'Content-Type: text/xml; charset=utf-8' "SOAPAction: \"${NS}SMSSend\""
  get Nope error-unknown-operation
  # Forms clients send: an unquoted SOAPAction, no SOAPAction at all, a Content-Type without
  # charset, '+', %20 and a %u escape in a query, a parameter given twice, a form body's charset.
  local body
  body=$(envelope 11 "<SMSSend xmlns=\"$NS\">$fields<smsmsg>hi</smsmsg></SMSSend>")
  exchange SMSSend.soap11.unquoted-action POST "/$asmx" "$body" 'Content-Type: text/xml; charset=utf-8' "SOAPAction: ${NS}SMSSend"
  exchange SMSSend.soap11.no-action POST "/$asmx" "$body" 'Content-Type: text/xml; charset=utf-8'
  exchange SMSSend.soap11.no-charset POST "/$asmx" "$body" 'Content-Type: text/xml' "SOAPAction: \"${NS}SMSSend\""
  exchange SMSSend.get.escapes GET "/$asmx/SMSSend?$given&smsmsg=big+hello%20w%u00F6rld" ''
  exchange SMSSend.get.repeated GET "/$asmx/SMSSend?$given&smsmsg=a&smsmsg=b" ''
  exchange SMSSend.post.charset POST "/$asmx/SMSSend" "$given&smsmsg=hi" 'Content-Type: application/x-www-form-urlencoded; charset=utf-8'
  # Envelopes in the other version's media type, a byte-order mark, an empty body, a DOCTYPE.
  local body12
  body12=$(envelope 12 "<SMSSend xmlns=\"$NS\">$fields<smsmsg>hi</smsmsg></SMSSend>")
  exchange SMSSend.soap11.error-as-soap12-type POST "/$asmx" "$body" "Content-Type: application/soap+xml; charset=utf-8; action=\"${NS}SMSSend\""
  exchange SMSSend.soap12.as-soap11-type POST "/$asmx" "$body12" 'Content-Type: text/xml; charset=utf-8' "SOAPAction: \"${NS}SMSSend\""
  exchange SMSSend.soap11.bom POST "/$asmx" $'\xef\xbb\xbf'"$body" 'Content-Type: text/xml; charset=utf-8' "SOAPAction: \"${NS}SMSSend\""
  exchange SMSSend.soap11.error-empty-body POST "/$asmx" '' 'Content-Type: text/xml; charset=utf-8' "SOAPAction: \"${NS}SMSSend\""
  exchange SMSSend.soap11.error-doctype POST "/$asmx" "<!DOCTYPE x [<!ENTITY e \"boo\">]>${body#*?>}" 'Content-Type: text/xml; charset=utf-8' "SOAPAction: \"${NS}SMSSend\""
}

# ---- the rich peer: types and features real ASMX services use ----

# Shapes of each derived type (xsi:type resolves against the default namespace, the service's).
SHAPES='<Shape xsi:type="Circle"><Label>c</Label><Radius>1</Radius></Shape>
        <Shape xsi:type="Rectangle"><Label>r</Label><Width>2</Width><Height>3</Height></Shape>
        <Shape xsi:type="Square"><Label>s</Label><Width>2</Width><Height>2</Height><Rotated>true</Rotated></Shape>'

ORDER_HEAD='<Customer>
          <Name>Zoë O'"'"'Brien &amp; Co</Name>
          <Email>zoe@example.com</Email>
          <Address><Street>1 Rue de l'"'"'Église</Street><City>Zürich</City><PostalCode>8001</PostalCode><Country>CH</Country></Address>
        </Customer>
        <Lines>
          <OrderLine><Sku>SKU-1</Sku><Quantity>2</Quantity><UnitPrice>9.99</UnitPrice><Color xsi:nil="true" /><Shape xsi:type="Circle"><Label>c</Label><Radius>1.5</Radius></Shape></OrderLine>
          <OrderLine><Sku>SKU-2</Sku><Quantity>1</Quantity><UnitPrice>100.0</UnitPrice><Color>Blue</Color><Shape xsi:type="Square"><Label>sq</Label><Width>2</Width><Height>2</Height><Rotated>false</Rotated></Shape></OrderLine>
          <OrderLine xsi:nil="true" />
        </Lines>'
ORDER_TAIL='<Created>2024-02-29T12:34:56.789Z</Created>
        <Reference>6f9619ff-8b86-d011-b42d-00c04fc964ff</Reference>
        <Attachment>SGVsbG8sIEFTTVgh</Attachment>
        <Flag>88</Flag>
        <Total>119.98</Total>
        <Sequence>9007199254740993</Sequence>
        <Tags><string>new</string><string xsi:nil="true" /><string /></Tags>
        <Colors><Color>Red</Color><Color>Green</Color></Colors>
        <Access>Read Delete</Access>
        <Comment>first</Comment>
        <Comment>second</Comment>'

capture_rich() {
  # Arrays of simple types: repeated parameters over HTTP.
  soap SumValues '' "<SumValues xmlns=\"$NS\"><values><int>1</int><int>2</int><int>3</int><int>-40</int></values></SumValues>"
  http SumValues '' values=1 values=2 values=3 values=-40
  soap SumValues empty-array "<SumValues xmlns=\"$NS\"><values /></SumValues>"
  soap SumValues error-not-a-number "<SumValues xmlns=\"$NS\"><values><int>1</int><int>two</int></values></SumValues>"
  http SumValues error-missing-parameter
  http SumValues error-not-a-number values=1 values=two

  soap EchoStrings '' "<EchoStrings xmlns=\"$NS\"><items><string>a</string><string xsi:nil=\"true\" /><string /><string>$TEXT_XML</string></items></EchoStrings>"
  http EchoStrings '' items=a items= "items=$TEXT"
  soap EchoStrings empty-array "<EchoStrings xmlns=\"$NS\"><items /></EchoStrings>"
  soap EchoStrings null-array "<EchoStrings xmlns=\"$NS\" />"
  # One empty value: the nearest HTTP gets to an empty array.
  http EchoStrings one-empty-value items=

  soap EchoLongs '' "<EchoLongs xmlns=\"$NS\"><values><long>9223372036854775807</long><long>-9223372036854775808</long><long>0</long></values></EchoLongs>"
  http EchoLongs '' values=9223372036854775807 values=-9223372036854775808 values=0

  # Arrays of complex types: SOAP only (ASMX leaves the method out of HTTP GET/POST).
  soap EchoLines '' "<EchoLines xmlns=\"$NS\"><lines>
        <OrderLine><Sku>A</Sku><Quantity>1</Quantity><UnitPrice>0.10</UnitPrice><Color>Red</Color><Shape xsi:type=\"Circle\"><Label>c</Label><Radius>2</Radius></Shape></OrderLine>
        <OrderLine xsi:nil=\"true\" />
        <OrderLine><Sku>B</Sku><Quantity>0</Quantity><UnitPrice>-1</UnitPrice><Color xsi:nil=\"true\" /></OrderLine>
      </lines></EchoLines>"
  get EchoLines error-not-offered

  # Enums.
  soap EchoColor '' "<EchoColor xmlns=\"$NS\"><color>Green</color></EchoColor>"
  http EchoColor '' color=Green
  get EchoColor numeric-value color=2
  soap EchoColor error-unknown-enum "<EchoColor xmlns=\"$NS\"><color>Purple</color></EchoColor>"
  http EchoColor error-unknown-enum color=Purple
  soap EchoColors '' "<EchoColors xmlns=\"$NS\"><colors><Color>Red</Color><Color>Blue</Color><Color>Red</Color></colors></EchoColors>"
  http EchoColors '' colors=Red colors=Blue colors=Red
  soap EchoAccess '' "<EchoAccess xmlns=\"$NS\"><access>Read Write</access></EchoAccess>"
  # Over HTTP a [Flags] value is read with Enum.Parse: comma-separated names, or a number.
  http EchoAccess '' access=Read,Write
  get EchoAccess space-separated 'access=Read Write'
  soap EchoAccess none "<EchoAccess xmlns=\"$NS\"><access /></EchoAccess>"

  # Nested complex types: a null nullable (Priority), absent optionals (Note, Discount).
  soap EchoOrder '' "<EchoOrder xmlns=\"$NS\">
      <order Id=\"A-1 &amp;&lt;&gt;\" Version=\"3\">
        $ORDER_HEAD
        <Priority xsi:nil=\"true\" />
        $ORDER_TAIL
      </order>
    </EchoOrder>"
  soap11 EchoOrder optionals-present "<EchoOrder xmlns=\"$NS\">
      <order Id=\"A-2\" Version=\"4\">
        <Priority>5</Priority>
        <Note>$TEXT_XML</Note>
        <Discount>0.5</Discount>
        <Created>2024-02-29T12:34:56</Created>
        <Reference>6F9619FF-8B86-D011-B42D-00C04FC964FF</Reference>
        <Flag>233</Flag>
        <Total>1</Total>
        <Sequence>1</Sequence>
        <Access>None</Access>
      </order>
    </EchoOrder>"
  # Nothing but the required attribute: the defaults ASMX writes for value types.
  soap11 EchoOrder sparse "<EchoOrder xmlns=\"$NS\"><order Version=\"1\" /></EchoOrder>"
  # Members out of schema order.
  soap11 EchoOrder reordered "<EchoOrder xmlns=\"$NS\"><order Version=\"1\"><Total>2</Total><Priority>1</Priority><Customer><Name>n</Name></Customer></order></EchoOrder>"
  soap NoOrder '' "<NoOrder xmlns=\"$NS\" />"
  http NoOrder ''

  # Polymorphism.
  soap EchoShapes '' "<EchoShapes xmlns=\"$NS\"><shapes>
        $SHAPES
        <Shape xsi:nil=\"true\" />
      </shapes></EchoShapes>"
  soap11 EchoShapes prefixed-type "<EchoShapes xmlns=\"$NS\"><shapes><Shape xmlns:r=\"$NS\" xsi:type=\"r:Circle\"><Radius>3</Radius></Shape></shapes></EchoShapes>"
  soap MakeShape '' "<MakeShape xmlns=\"$NS\"><kind>circle</kind><size>1.5</size></MakeShape>"
  get MakeShape '' kind=square size=2
  post MakeShape '' kind=rectangle size=3
  soap11 MakeShape unknown-kind "<MakeShape xmlns=\"$NS\"><kind>blob</kind><size>1</size></MakeShape>"
  get MakeShape unknown-kind kind=blob size=1
  soap TotalArea '' "<TotalArea xmlns=\"$NS\"><shapes>$SHAPES</shapes></TotalArea>"
  soap TotalArea error-abstract-without-xsi-type "<TotalArea xmlns=\"$NS\"><shapes><Shape><Label>what am I?</Label></Shape></shapes></TotalArea>"
  soap11 TotalArea error-unknown-xsi-type "<TotalArea xmlns=\"$NS\"><shapes><Shape xsi:type=\"Triangle\"><Label>t</Label></Shape></shapes></TotalArea>"

  # Scalars: extremes and the special types.
  soap EchoScalars '' "<EchoScalars xmlns=\"$NS\"><s>
        <Bool>true</Bool><Byte>255</Byte><SByte>-128</SByte><Int16>-32768</Int16><UInt16>65535</UInt16>
        <Int32>-2147483648</Int32><UInt32>4294967295</UInt32><Int64>9223372036854775807</Int64><UInt64>18446744073709551615</UInt64>
        <Single>-INF</Single><Double>0.1</Double><Decimal>-79228162514264337593543950335</Decimal>
        <Char>233</Char><Guid>6f9619ff-8b86-d011-b42d-00c04fc964ff</Guid><DateTime>2024-02-29T23:59:59.1234567+05:30</DateTime>
        <String>  $TEXT_XML&#x9;</String><Bytes>AAEC/w==</Bytes>
      </s></EchoScalars>"
  soap11 EchoScalars lexical-variants "<EchoScalars xmlns=\"$NS\"><s>
        <Bool>1</Bool><Byte> 7 </Byte><SByte>+1</SByte><Int16>0</Int16><UInt16>0</UInt16>
        <Int32>0</Int32><UInt32>0</UInt32><Int64>0</Int64><UInt64>0</UInt64>
        <Single>NaN</Single><Double>1E+300</Double><Decimal>1.50</Decimal>
        <Char>0</Char><Guid>00000000-0000-0000-0000-000000000000</Guid><DateTime>2024-02-29</DateTime>
        <String /><Bytes />
      </s></EchoScalars>"
  soap DescribeScalars '' "<DescribeScalars xmlns=\"$NS\"><id>6f9619ff-8b86-d011-b42d-00c04fc964ff</id><flag>65</flag><amount>12.50</amount><count>-9007199254740993</count><when>2024-02-29T23:59:59.5+05:30</when><yes>true</yes><ratio>0.1</ratio><small>255</small><s16>-32768</s16><f32>3.4028235E+38</f32><big>18446744073709551615</big></DescribeScalars>"
  soap DescribeHttpScalars '' "<DescribeHttpScalars xmlns=\"$NS\"><flag>65</flag><amount>12.50</amount><count>-9007199254740993</count><when>2024-02-29T23:59:59.5+05:30</when><yes>true</yes><ratio>0.1</ratio><small>255</small><s16>-32768</s16><f32>3.4028235E+38</f32><big>18446744073709551615</big></DescribeHttpScalars>"
  # Over HTTP a char is the character itself, not its number; DateTime and numbers are parsed with
  # the invariant culture.
  http DescribeHttpScalars '' flag=é amount=12.50 count=-9007199254740993 'when=2024-02-29T23:59:59.5+05:30' yes=True ratio=0.1 small=255 s16=-32768 f32=3.4028235E+38 big=18446744073709551615
  get DescribeHttpScalars error-char-as-number flag=65 amount=1 count=1 when=2024-02-29 yes=true ratio=1 small=1 s16=1 f32=1 big=1
  get DescribeScalars error-not-offered

  soap EchoBytes '' "<EchoBytes xmlns=\"$NS\"><data>AAEC/w==</data></EchoBytes>"
  # Over HTTP byte[] is an array of numbers, one parameter per byte (not base64).
  http EchoBytes '' data=0 data=1 data=2 data=255
  get EchoBytes error-base64 data=AAEC/w==
  soap11 EchoBytes empty "<EchoBytes xmlns=\"$NS\"><data /></EchoBytes>"

  # Nullable value types (SOAP only: ASMX's HTTP parameter reader has no Nullable<T>).
  soap EchoNullableInt '' "<EchoNullableInt xmlns=\"$NS\"><value xsi:nil=\"true\" /></EchoNullableInt>"
  soap11 EchoNullableInt value "<EchoNullableInt xmlns=\"$NS\"><value>42</value></EchoNullableInt>"
  soap11 EchoNullableInt absent "<EchoNullableInt xmlns=\"$NS\" />"
  http EchoNullableInt error-not-offered value=
  soap NextDate '' "<NextDate xmlns=\"$NS\"><after>2024-02-28T10:00:00</after></NextDate>"
  soap11 NextDate null "<NextDate xmlns=\"$NS\"><after xsi:nil=\"true\" /></NextDate>"

  # SOAP headers: In (AuthHeader), InOut (SessionHeader, mustUnderstand), Out (TraceHeader).
  soap WhoAmI '' "<WhoAmI xmlns=\"$NS\" />" \
    "<AuthHeader xmlns=\"$NS\"><User>zoë &lt;admin&gt;</User><Token>s3cret</Token></AuthHeader>
    <SessionHeader xmlns=\"$NS\" ENV:mustUnderstand=\"1\"><SessionId>S-1</SessionId><Counter>41</Counter></SessionHeader>"
  soap11 WhoAmI no-headers "<WhoAmI xmlns=\"$NS\" />"
  soap WhoAmI error-must-understand "<WhoAmI xmlns=\"$NS\" />" \
    '<x:Unknown xmlns:x="urn:example:unknown" ENV:mustUnderstand="1">value</x:Unknown>'
  soap11 WhoAmI unknown-optional-header "<WhoAmI xmlns=\"$NS\" />" \
    '<x:Unknown xmlns:x="urn:example:unknown">value</x:Unknown>'
  http WhoAmI ''

  # MessageName overload: Add and AddDoubles (both wsdl:operation name="Add").
  soap Add '' "<Add xmlns=\"$NS\"><a>2</a><b>40</b></Add>"
  http Add '' a=2 b=40
  soap AddDoubles '' "<AddDoubles xmlns=\"$NS\"><a>0.1</a><b>0.2</b></AddDoubles>"
  http AddDoubles '' a=0.1 b=0.2
  soap Add error-not-a-number "<Add xmlns=\"$NS\"><a>x</a><b>40</b></Add>"
  http Add error-not-a-number a=x b=40
  http Add error-missing-parameter a=2
  soap11 Add missing-element "<Add xmlns=\"$NS\"><a>2</a></Add>"
  get Add error-overflow a=2147483648 b=0
  # Lexical forms: whitespace, a sign and leading zeros in an int; an exponent and -INF in a double.
  soap11 Add lexical "<Add xmlns=\"$NS\"><a> +02 </a><b>40</b></Add>"
  get Add lexical 'a=+02' 'b= 40'
  soap11 AddDoubles lexical "<AddDoubles xmlns=\"$NS\"><a>1e2</a><b>-INF</b></AddDoubles>"
  get AddDoubles lexical a=1e2 b=-0.5

  # Void methods.
  soap Ping '' "<Ping xmlns=\"$NS\" />"
  http Ping ''
  soap Record '' "<Record xmlns=\"$NS\"><note>$TEXT_XML</note></Record>"
  http Record '' "note=$TEXT"

  # Empty and null answers.
  soap EmptyList '' "<EmptyList xmlns=\"$NS\" />"
  http EmptyList ''
  soap NullList '' "<NullList xmlns=\"$NS\" />"
  http NullList ''
  soap NullString '' "<NullString xmlns=\"$NS\" />"
  http NullString ''
}

# The WSDL, asked for with "Host: localhost"; the peer still writes its own port into the
# addresses, which become http://localhost/<name>.asmx: what the committed fixture holds (a test
# rewrites the peer's real address the same way). It goes beside the captures' folder
# (test/fixtures/asmx/<service>.wsdl for the default OUT_DIR).
wsdl_out=$(dirname "$(dirname "$out")")/$service.wsdl
curl -sS -f -H 'Host: localhost' "$base/$asmx?WSDL" | sed -E 's#//localhost:[0-9]+/#//localhost/#g' >"$wsdl_out"
echo "capture: wrote $wsdl_out"

"capture_$service"
echo "capture: wrote $(ls "$out"/*.txt | wc -l) files to $out"
