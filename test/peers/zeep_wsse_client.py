"""Calls SMSSend with a WS-Security UsernameToken from Python zeep (zeep.wsse.username).

Usage: ZEEP_WSSE_PASSWORD=... python3 zeep_wsse_client.py <wsdl-url> <username>
(the password comes from the environment, so it is not on a command line a failure would show)
For each SOAP port (1.1 and 1.2), with PasswordDigest (use_digest=True) and PasswordText, with
the right and a wrong password, prints one JSON object:
{"<port>/<Digest|Text>/<right|wrong>": {"ok": result} | {"fault": message, "code": ..., "subcodes": [...]}}
The password is only ever sent; nothing printed contains it.
"""
import json
import os
import sys

import zeep
from zeep.wsse.username import UsernameToken

FIELDS = {
    "keyword": "k",
    "emailAddress": "body@example.com",
    "password": "body-password",
    "smsto": "+15551234567",
    "carrierCode": "ATT",
    "smsmsg": "hello",
}
PORTS = ["ServiceAPISoap", "ServiceAPISoap12"]


def call(wsdl_url, port, token):
    client = zeep.Client(wsdl_url, wsse=token)
    service = client.bind("ServiceAPI", port)
    try:
        return {"ok": service.SMSSend(**FIELDS)}
    except zeep.exceptions.Fault as fault:
        return {
            "fault": fault.message,
            "code": str(fault.code),
            "subcodes": [str(s) for s in (fault.subcodes or [])],
        }


def main(wsdl_url, username, password):
    out = {}
    for port in PORTS:
        for kind, digest in (("Digest", True), ("Text", False)):
            for which, secret in (("right", password), ("wrong", password + "-wrong")):
                token = UsernameToken(username, secret, use_digest=digest)
                out[port + "/" + kind + "/" + which] = call(wsdl_url, port, token)
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], os.environ["ZEEP_WSSE_PASSWORD"])
