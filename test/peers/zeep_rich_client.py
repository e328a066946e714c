"""Calls the rich peer service (test/peers/asmx/rich) through every port with Python zeep.

Usage: python3 zeep_rich_client.py <wsdl-url>
Reads the WSDL from the server (?wsdl), binds each port with client.bind("RichService", port),
makes the same calls on each and prints one JSON object:
{"<port>/<call>": {"ok": value} | {"error": "<exception class>: <message>"}}.
Values are plain JSON: a zeep object becomes a dict with "$type" (its XSD type's local name)
and its members; bytes become a list of numbers; integers beyond 2**53 become strings. The test decides what is right.
"""
import json
import sys

import zeep
from zeep.transports import Transport

SPECIAL = "Grüße 你好 📱 <&>\"'"
PORTS = ["RichServiceSoap", "RichServiceSoap12", "RichServiceHttpGet", "RichServiceHttpPost"]

# The WSDL's AbstractTypes schema (ASMX's arrays for HTTP GET/POST) imports the SOAP encoding
# namespace without a location; zeep then fetches its URL. Serve the two declarations it needs,
# so the script never depends on the network.
SOAPENC_URL = "http://schemas.xmlsoap.org/soap/encoding/"
SOAPENC = b"""<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="http://schemas.xmlsoap.org/soap/encoding/"
    targetNamespace="http://schemas.xmlsoap.org/soap/encoding/">
  <xs:attribute name="arrayType" type="xs:string"/>
  <xs:attribute name="offset" type="xs:string"/>
  <xs:complexType name="Array">
    <xs:sequence><xs:any namespace="##any" minOccurs="0" maxOccurs="unbounded" processContents="lax"/></xs:sequence>
    <xs:attribute ref="tns:arrayType"/>
    <xs:attribute ref="tns:offset"/>
  </xs:complexType>
</xs:schema>"""


class OfflineTransport(Transport):
    def load(self, url):
        if url.rstrip("/") == SOAPENC_URL.rstrip("/"):
            return SOAPENC
        return super().load(url)


def plain(value):
    """A zeep result as JSON-able data, keeping the XSD type name of complex values."""
    if hasattr(value, "_xsd_type") and hasattr(value, "__values__"):
        out = {"$type": value._xsd_type.name}
        for key, item in value.__values__.items():
            if not key.startswith("_"):
                out[key] = plain(item)
        return out
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items() if not k.startswith("_")}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, bytes):
        return list(value)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2**53:
        return str(value)  # JSON numbers beyond 2**53 would lose digits in JavaScript
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)  # Decimal, datetime: their text


def order(client):
    return {
        "Id": "O-1", "Version": 3,
        "Customer": {"Name": SPECIAL, "Email": "z@example.com", "Address": {"City": "Köln", "Country": "DE"}},
        "Lines": {"OrderLine": [{"Sku": "A-1", "Quantity": 2, "UnitPrice": "9.90", "Color": "Red",
                                 "Shape": client.get_type("ns0:Circle")(Label="c", Radius=1.5)}]},
        "Priority": None, "Note": "note", "Created": "2024-02-29T12:34:56Z",
        "Reference": "0f8fad5b-d9cb-469f-a165-70867728950e", "Attachment": bytes([0, 1, 255]), "Flag": 65,
        "Total": "19.80", "Sequence": -9223372036854775808, "Tags": {"string": ["x", SPECIAL]},
        "Colors": {"Color": ["Blue", "Red"]}, "Access": ["Read", "Write"], "Comment": ["c1", "c2"],
    }


def soap_calls(client, service):
    circle, rectangle, square = (client.get_type("ns0:" + name) for name in ("Circle", "Rectangle", "Square"))
    shapes = [circle(Label="c", Radius=1.0), rectangle(Label=SPECIAL, Width=2.0, Height=3.0),
              square(Label="s", Width=2.0, Height=2.0, Rotated=True)]
    headers = {"AuthHeader": {"User": SPECIAL, "Token": "s3cret"}, "SessionHeader": {"SessionId": "S-1", "Counter": 41}}
    return {
        "SumValues": lambda: service.SumValues({"int": [1, 2, 3, -40]}),
        "EchoStrings": lambda: service.EchoStrings({"string": ["a", SPECIAL, "b"]}),
        "EchoOrder": lambda: service.EchoOrder(order(client)),
        "EchoShapes": lambda: service.EchoShapes({"Shape": shapes}),
        "WhoAmI": lambda: service.WhoAmI(_soapheaders=headers),
        "EchoNullableInt(None)": lambda: service.EchoNullableInt(None),
        "EchoNullableInt(0)": lambda: service.EchoNullableInt(0),
    }


def http_calls(service, port):
    # zeep writes a list into an HTTP POST form as its Python text ("[1, 2]"), so a POST sends
    # one value, which ASMX reads as a one-item array; HTTP GET sends one pair per item.
    post = port.endswith("HttpPost")
    return {
        "SumValues": lambda: service.SumValues(7 if post else [1, 2, 3, -40]),
        "EchoStrings": lambda: service.EchoStrings(SPECIAL if post else ["a", SPECIAL, "b"]),
        "WhoAmI": lambda: service.WhoAmI(),
    }


def main(wsdl_url):
    client = zeep.Client(wsdl_url, transport=OfflineTransport())
    out = {}
    for port in PORTS:
        service = client.bind("RichService", port)
        calls = {
            "MakeShape(circle)": lambda: service.MakeShape("circle", 1.25),
            "MakeShape(square)": lambda: service.MakeShape("square", 3.0),
            "MakeShape(blob)": lambda: service.MakeShape("blob", 1.0),
            "Ping": lambda: service.Ping(),
            "EmptyList": lambda: service.EmptyList(),
            "NullList": lambda: service.NullList(),
        }
        calls.update(http_calls(service, port) if "Http" in port else soap_calls(client, service))
        for name, call in calls.items():
            try:
                out[port + "/" + name] = {"ok": plain(call())}
            except Exception as err:  # report every failure; the test decides
                out[port + "/" + name] = {"error": type(err).__name__ + ": " + str(err)[:300]}
    print(json.dumps(out, ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1])
