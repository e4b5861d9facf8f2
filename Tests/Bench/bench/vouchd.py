"""vouchd for a measurement: started on a state directory, its admin API called, an OFREP fix and token prepared."""

import http.client
import os
import re
import subprocess
import time
from dataclasses import dataclass

from bench.report import BenchFailure, show

LISTENING = re.compile(r'msg=listening.*http\.port="?([0-9]{1,5})')
# The fix every OFREP part evaluates, and the context it is evaluated for (a targeted key).
FLAG = "ios.channel-selector.labels"
REQUEST_BODY = '{"context":{"targetingKey":"user-1"}}'


def listening_port(log: str) -> str:
    """The port in vouchd's `msg=listening` line, or "" before it is logged."""
    for line in log.splitlines():
        found = LISTENING.search(line)
        if found:
            return found.group(1)
    return ""


def request(port: str, method: str, path: str, token: str, body: str | None = None) -> tuple[int, bytes]:
    """One HTTP request to a server on the loopback address; the status and the answer's bytes."""
    connection = http.client.HTTPConnection("127.0.0.1", int(port), timeout=60)
    try:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        connection.request(method, path, body=body.encode() if body is not None else None, headers=headers)
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        connection.close()


@dataclass
class Vouchd:
    process: subprocess.Popen
    port: str
    state: str
    admin_token: str = ""

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def read_admin_token(self, state: str | None = None) -> str:
        with open(os.path.join(state or self.state, "admin.token")) as file:
            self.admin_token = file.read().replace("\n", "")
        return self.admin_token

    def api(self, method: str, path: str, body: str | None = None) -> str:
        """A JSON request to the admin API; fails on a non-2xx answer."""
        status, answer = request(self.port, method, path, self.admin_token, body)
        text = answer.decode(errors="replace")
        if not 200 <= status < 300:
            show(text)
            raise BenchFailure(f"{method} {path} answered {status}")
        return text

    def prepare_ofrep(self, token_name: str) -> tuple[str, bytes]:
        """Through the API: the fix FLAG in testing with user-1 targeted and an sdk token; then checks the OFREP
        answer (200, TARGETING_MATCH). Returns the token and the answer's bytes."""
        self.api("POST", "/v1/fixes", f'{{"key":"{FLAG}","title":"Label the channel logos",'
                                      '"ui_area":"TV channel selector","platforms":["ios"]}')
        self.api("POST", f"/v1/fixes/{FLAG}/start")
        self.api("POST", f"/v1/fixes/{FLAG}/targets", '{"add":["user-1"]}')
        answer = self.api("POST", "/v1/tokens", f'{{"name":"{token_name}","role":"sdk"}}')
        found = re.search(r'"token" *: *"([^"]*)"', answer)
        if not found or not found.group(1):
            raise BenchFailure("no sdk token in the answer of POST /v1/tokens")
        token = found.group(1)
        status, body = request(self.port, "POST", f"/ofrep/v1/evaluate/flags/{FLAG}", token, REQUEST_BODY)
        if status != 200:
            show(body.decode(errors="replace"))
            raise BenchFailure(f"vouchd answered {status} to the OFREP request; no result reported")
        if b'"reason":"TARGETING_MATCH"' not in body:
            raise BenchFailure(f"unexpected OFREP answer: {body.decode(errors='replace')}")
        return token, body


def start(session, binary: str, state: str, log: str, settings: list[str] = (), wrapper: list[str] = (),
          wait_seconds: int = 15) -> Vouchd:
    """vouchd on a state directory, with the VAR=value settings given, run by `wrapper` when one is given (valgrind);
    returns once it logs the port it listens on."""
    environment = dict(os.environ)
    # No request lines, as nginx runs with access_log off: both servers do the same work per request.
    environment["VOUCHD_LOG_REQUESTS"] = "false"
    for setting in settings:
        name, _, value = setting.partition("=")
        environment[name] = value
    log_file = open(log, "w")
    process = session.start([*wrapper, binary, "--state-dir", state, "--listen", "127.0.0.1:0"], stdout=None,
                            stderr=log_file, environment=environment)
    log_file.close()
    for _ in range(wait_seconds * 20):
        with open(log) as file:
            port = listening_port(file.read())
        if port:
            return Vouchd(process, port, state)
        if process.poll() is not None:
            show(open(log).read())
            raise BenchFailure("vouchd exited at start")
        time.sleep(0.05)
    show(open(log).read())
    raise BenchFailure(f"vouchd did not log msg=listening within {wait_seconds} s")
