"""A real SMTP server for the e-mail route's tests, built on aiosmtpd (Debian's python3-aiosmtpd).

Listens on 127.0.0.1 at an ephemeral port and prints it as the first stdout line: {"port": N}.
Each mail that arrives is parsed with Python's own e-mail parser (not ours) and printed as one
JSON line: envelope sender and recipients, the To/From/Subject/Message-ID headers, the content
type, charset and transfer encoding, and the decoded body.

Replies a test can ask for by the recipient's local part: ending in 0450 -> "450 4.2.1 mailbox
busy", ending in 0550 -> "550 5.1.1 no such user". Options:
  --tls CERT KEY    offer STARTTLS with this certificate, and require it before MAIL
  --auth USER PASS  require AUTH (PLAIN/LOGIN) with these credentials (only over TLS)
"""
import argparse
import asyncio
import json
import ssl
import sys
from email import policy
from email.parser import BytesParser

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword


class Sink:
    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        local = address.split("@", 1)[0]
        if local.endswith("0450"):
            return "450 4.2.1 mailbox busy, try later"
        if local.endswith("0550"):
            return "550 5.1.1 no such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        raw = envelope.original_content or envelope.content
        mail = BytesParser(policy=policy.default).parsebytes(raw)
        part = mail.get_body(preferencelist=("plain",)) or mail
        print(
            json.dumps(
                {
                    "mailFrom": envelope.mail_from,
                    "rcptTos": envelope.rcpt_tos,
                    "to": str(mail["To"]),
                    "from": str(mail["From"]),
                    "subject": None if mail["Subject"] is None else str(mail["Subject"]),
                    "messageId": str(mail["Message-ID"]),
                    "contentType": part.get_content_type(),
                    "charset": part.get_content_charset(),
                    "transferEncoding": part.get("Content-Transfer-Encoding"),
                    "body": part.get_content(),
                    "tls": session.ssl is not None,
                    "authenticated": bool(session.authenticated),
                }
            ),
            flush=True,
        )
        return "250 2.0.0 Ok: queued as Q%d" % (id(envelope) % 100000)


def authenticator(user, password):
    def check(server, session, envelope, mechanism, auth_data):
        ok = isinstance(auth_data, LoginPassword) and auth_data.login == user.encode() and auth_data.password == password.encode()
        return AuthResult(success=ok, handled=False)

    return check


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    parser.add_argument("--auth", nargs=2, metavar=("USER", "PASS"))
    args = parser.parse_args()
    context = None
    if args.tls:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(args.tls[0], args.tls[1])
    options = {"decode_data": False, "enable_SMTPUTF8": True}
    if context is not None:
        options.update(tls_context=context, require_starttls=True)
    if args.auth:
        options.update(authenticator=authenticator(*args.auth), auth_required=True, auth_require_tls=context is not None)
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: SMTP(Sink(), **options), "127.0.0.1", 0)
    print(json.dumps({"port": server.sockets[0].getsockname()[1]}), flush=True)
    # Stops when the test closes our stdin (or kills us).
    await loop.run_in_executor(None, sys.stdin.read)
    server.close()


asyncio.run(main())
