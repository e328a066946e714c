"""Reads one message's state through every port of the StatusAPI service with Python zeep.

Usage: SMSKIT_PASSWORD=... python3 zeep_status_client.py <wsdl-url> <email> <message-id> <other-id>
Reads the WSDL from the server (?wsdl), binds each port with client.bind(service, port), calls
GetMessageStatus for <message-id> (the account's own) and <other-id> (expected to be refused), and
prints one JSON object: {"<port>/own": {"ok": {...}} | {"error": "..."}, "<port>/other": ...}.
"""
import json
import os
import sys

import zeep

PORTS = ["StatusAPISoap", "StatusAPISoap12", "StatusAPIHttpGet", "StatusAPIHttpPost"]


def as_json(status):
    return {
        "State": status.State,
        "Updated": status.Updated.isoformat(),
        "Attempts": status.Attempts,
        "ErrorCode": status.ErrorCode,
        "ErrorText": status.ErrorText,
    }


def main(wsdl_url, email, own_id, other_id):
    password = os.environ["SMSKIT_PASSWORD"]
    client = zeep.Client(wsdl_url)
    out = {}
    for port in PORTS:
        service = client.bind("StatusAPI", port)
        for key, message_id in (("own", own_id), ("other", other_id)):
            try:
                status = service.GetMessageStatus(emailAddress=email, password=password, messageId=message_id)
                out[port + "/" + key] = {"ok": as_json(status)}
            except zeep.exceptions.Fault as fault:
                # Over HTTP GET/POST zeep's fault message is the answer's body, as bytes.
                message = fault.message.decode("utf-8") if isinstance(fault.message, bytes) else fault.message
                out[port + "/" + key] = {"fault": message, "code": str(fault.code)}
            except Exception as err:  # report every failure; the test decides
                out[port + "/" + key] = {"error": type(err).__name__ + ": " + str(err)}
    print(json.dumps(out))


if __name__ == "__main__":
    main(*sys.argv[1:5])
