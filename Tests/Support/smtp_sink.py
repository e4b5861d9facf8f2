"""A real SMTP server for Vouch's tests: aiosmtpd on 127.0.0.1, on a port the system picks.

Usage: smtp_sink.py DIRECTORY [--refuse-first rcpt:451] [--login USER:PASSWORD]

Prints the port on its first line, then serves until stdin closes or SIGTERM. Each message accepted is written to
DIRECTORY as N.eml (the bytes as received) and N.json: the envelope, the login used, and the message as Python's own
email parser reads it (headers decoded, each part's type, charset, transfer encoding and decoded content, the parser's
defects, the longest line), so the tests check the mail with a parser that is not Vouch's.

--refuse-first STEP:CODE answers the first RCPT (rcpt) or the first end of DATA (data) with that reply code;
--login makes the server offer AUTH (in plain text: the tests run on loopback) and accept that login only.
"""

import argparse
import email
import email.policy
import json
import os
import signal
import sys
import threading

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult


class Sink:
    def __init__(self, directory, refuse_first):
        self.directory = directory
        self.refusal = refuse_first
        self.count = 0
        self.lock = threading.Lock()

    def _refuse(self, step):
        if self.refusal and self.refusal[0] == step:
            code = self.refusal[1]
            self.refusal = None
            kind = "4.3.0 Try again later" if code < 500 else "5.7.1 Refused"
            return f"{code} {kind}"
        return None

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        refusal = self._refuse("rcpt")
        if refusal:
            return refusal
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        refusal = self._refuse("data")
        if refusal:
            return refusal
        raw = envelope.original_content
        with self.lock:
            self.count += 1
            number = self.count
        login = session.auth_data.login.decode() if session.authenticated and session.auth_data else None
        summary = {"mail_from": envelope.mail_from, "rcpt_tos": envelope.rcpt_tos, "login": login}
        summary.update(describe(raw))
        write(os.path.join(self.directory, f"{number}.eml"), raw)
        write(os.path.join(self.directory, f"{number}.json"), json.dumps(summary, ensure_ascii=False).encode())
        return "250 OK"


def describe(raw):
    message = email.message_from_bytes(raw, policy=email.policy.default)
    parts = []
    for part in message.iter_parts() if message.is_multipart() else [message]:
        parts.append({
            "content_type": part.get_content_type(),
            "charset": part.get_content_charset(),
            "transfer_encoding": part.get("Content-Transfer-Encoding"),
            "content": part.get_content(),
        })
    defects = [type(defect).__name__ for part in message.walk() for defect in part.defects]
    lines = raw.split(b"\r\n")
    return {
        "headers": [[name, str(value)] for name, value in message.items()],
        "content_type": message.get_content_type(),
        "parts": parts,
        "defects": defects,
        "longest_line": max(len(line) for line in lines),
        "bare_line_feeds": sum(line.count(b"\n") for line in lines),
    }


def write(path, data):
    # Written whole and then renamed, so a reader never sees half a file.
    with open(path + ".part", "wb") as file:
        file.write(data)
    os.rename(path + ".part", path)


class PortZeroController(Controller):
    """aiosmtpd's Controller, on the port the system picked for it."""

    def _trigger_server(self):
        self.port = self.server.sockets[0].getsockname()[1]
        super()._trigger_server()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("directory")
    parser.add_argument("--refuse-first", help="rcpt:CODE or data:CODE")
    parser.add_argument("--login", help="USER:PASSWORD")
    arguments = parser.parse_args()
    refusal = None
    if arguments.refuse_first:
        step, code = arguments.refuse_first.split(":")
        refusal = (step, int(code))
    options = {}
    if arguments.login:
        expected = tuple(arguments.login.split(":", 1))

        def authenticator(server, session, envelope, mechanism, auth_data):
            given = (auth_data.login.decode(), auth_data.password.decode())
            # handled=False: aiosmtpd itself answers a refusal with 535 (by default it would answer nothing).
            return AuthResult(success=given == expected, handled=False, auth_data=auth_data)

        options = {"authenticator": authenticator, "auth_require_tls": False}
    controller = PortZeroController(Sink(arguments.directory, refusal), hostname="127.0.0.1", port=0, **options)
    controller.start()
    print(controller.port, flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True).start()
    stop.wait()
    controller.stop()


if __name__ == "__main__":
    main()
