"""Starts a real vouchd for each test and gives the test a small urllib client for its HTTP API.

The daemon is the binary named by $VOUCHD (scripts/test passes .build/debug/vouchd), run in a fresh state
directory on 127.0.0.1 with port 0; the port comes from its `msg=listening` log line and the admin token from
<state-dir>/admin.token. After the test it gets SIGTERM and must exit with status 0 without logging an error.

A test module that needs other settings overrides the `vouchd_environment` fixture: its `VOUCHD_*` variables are
added to the daemon's environment (everything `VOUCHD_*` from the caller's environment is dropped first).
A script that cannot use the fixture (one run inside another network namespace) calls `launch_vouchd` and
`stop_vouchd` itself.
"""

from __future__ import annotations

import json
import os
import pathlib
import queue
import re
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from email.message import Message
from typing import Any

import pytest

# The console's story, its crawls and their fixtures, shared by the test_console_* modules; three vouchd on one
# PostgreSQL database and the figures they print, for test_cluster.py; the time of each journey Orca read aloud.
pytest_plugins = ("console_fixtures", "cluster_fixtures", "speech_journey")

START_TIMEOUT = 20.0
STOP_TIMEOUT = 15.0
REQUEST_TIMEOUT = 10.0
REPOSITORY = pathlib.Path(__file__).resolve().parents[2]

# The admin token unless a test says otherwise; `token=None` sends no credentials at all.
ADMIN = object()


@dataclass
class Answer:
    status: int
    headers: Message
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    def header(self, name: str) -> str | None:
        return self.headers.get(name)


class Vouchd:
    """One running vouchd and what a test needs to talk to it."""

    def __init__(self, process: subprocess.Popen[str], url: str, admin_token: str, state_dir: pathlib.Path,
                 log: list[str]):
        self.process = process
        self.url = url
        self.admin_token = admin_token
        self.state_dir = state_dir
        self.log = log
        # The thread that copies the daemon's standard error into `log`.
        self.log_reader: threading.Thread | None = None
        # No proxy from the environment may stand between the tests and 127.0.0.1.
        self._opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))

    def call(self, method: str, path: str, body: Any = None, *, token: Any = ADMIN,
             headers: dict[str, str] | None = None) -> Answer:
        """Sends one request; `body` is encoded as JSON unless it is bytes. Any status is returned, never raised."""
        request_headers = dict(headers or {})
        data: bytes | None = None
        if body is not None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            request_headers.setdefault("Content-Type", "application/json")
        if token is ADMIN:
            token = self.admin_token
        if token is not None:
            request_headers["Authorization"] = f"Bearer {token}"
        request = urllib.request.Request(self.url + path, data=data, method=method, headers=request_headers)
        try:
            with self._opener.open(request, timeout=REQUEST_TIMEOUT) as response:
                return Answer(response.status, response.headers, response.read())
        except urllib.error.HTTPError as error:
            with error:
                return Answer(error.code, error.headers, error.read())

    def expect(self, status: int, method: str, path: str, body: Any = None, **options: Any) -> Any:
        """Sends a request that must answer `status`; returns the parsed JSON body (None when empty)."""
        answer = self.call(method, path, body, **options)
        assert answer.status == status, f"{method} {path}: expected {status}, got {answer.status}: {answer.body[:500]!r}"
        return answer.json() if answer.body else None

    def create_token(self, name: str, role: str) -> str:
        created = self.expect(201, "POST", "/v1/tokens", {"name": name, "role": role})
        assert created["role"] == role and created["token"].startswith("vch_")
        return created["token"]


def _vouchd_binary() -> str:
    binary = os.environ.get("VOUCHD") or str(REPOSITORY / ".build" / "debug" / "vouchd")
    if not os.access(binary, os.X_OK):
        pytest.fail(f"no vouchd at {binary}: build it (swift build) or set VOUCHD=/abs/path/to/vouchd", pytrace=False)
    return binary


def _drain(stream, lines: queue.Queue[str | None], log: list[str]) -> None:
    for line in stream:
        log.append(line.rstrip("\n"))
        lines.put(line)
    lines.put(None)


@pytest.fixture
def vouchd_environment() -> dict[str, str]:
    """Extra environment for the daemon (`VOUCHD_*` settings); none by default. Override it in a test module."""
    return {}


def launch_vouchd(state_dir: pathlib.Path, extra_environment: dict[str, str], *,
                  admin_token_from: pathlib.Path | None = None, listen: str = "127.0.0.1:0") -> Vouchd:
    """Starts vouchd in `state_dir` on 127.0.0.1 port 0 and waits until it listens; `extra_environment` adds settings.

    Also for scripts that run a daemon where the fixture cannot, such as inside another network namespace.
    `admin_token_from` names the admin.token of another vouchd on the same database: only the first to start on an
    empty database writes one, so this one must not. `listen` names a port chosen beforehand, for a setting that
    must name vouchd's own address before it starts (the identity provider's redirect address).
    """
    environment = {key: value for key, value in os.environ.items()
                   if not key.startswith("VOUCHD_") and key.lower() not in ("no_proxy", "http_proxy", "https_proxy", "all_proxy")}
    # Any libcurl request that honours proxy variables goes to a closed local port unless it is for this machine.
    # Webhook deliveries ignore proxy variables (a proxy would connect elsewhere than the address the policy checked):
    # they reach the tests' receivers on 127.0.0.1 directly, and no test registers a receiver anywhere else.
    dead_end = "http://127.0.0.1:9"
    environment.update({"http_proxy": dead_end, "https_proxy": dead_end, "HTTPS_PROXY": dead_end, "all_proxy": dead_end,
                        "ALL_PROXY": dead_end, "no_proxy": "127.0.0.1,localhost,::1", "NO_PROXY": "127.0.0.1,localhost,::1"})
    environment.update(extra_environment)
    process = subprocess.Popen(
        [_vouchd_binary(), "--state-dir", str(state_dir), "--listen", listen],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=environment)
    log: list[str] = []
    lines: queue.Queue[str | None] = queue.Queue()
    reader = threading.Thread(target=_drain, args=(process.stderr, lines, log), daemon=True)
    reader.start()
    try:
        port = None
        deadline = time.monotonic() + START_TIMEOUT
        while port is None:
            remaining = deadline - time.monotonic()
            assert remaining > 0, "vouchd did not log msg=listening in time:\n" + "\n".join(log)
            try:
                line = lines.get(timeout=remaining)
            except queue.Empty:
                continue
            assert line is not None, f"vouchd exited ({process.wait()}) before listening:\n" + "\n".join(log)
            if "msg=listening" in line:
                match = re.search(r"\bhttp\.port=(\d+)", line)
                assert match, f"no http.port in {line!r}"
                port = int(match.group(1))
        if admin_token_from is None:
            token_file = state_dir / "admin.token"
        else:
            token_file = admin_token_from
            assert not (state_dir / "admin.token").exists(), \
                f"vouchd wrote {state_dir / 'admin.token'} though the database it shares already had an admin token"
        admin_token = token_file.read_text().strip()
        assert re.fullmatch(r"vch_[a-z0-9]{40}", admin_token), f"{token_file} does not hold a vch_ token"
        assert token_file.stat().st_mode & 0o077 == 0, f"{token_file} must be readable by its owner only"
        daemon = Vouchd(process, f"http://127.0.0.1:{port}", admin_token, state_dir, log)
        daemon.log_reader = reader
        return daemon
    except BaseException:
        process.kill()
        process.wait()
        raise


def stop_vouchd(daemon: Vouchd) -> int | None:
    """Sends SIGTERM and waits; the exit status, or None when vouchd had to be killed after STOP_TIMEOUT."""
    daemon.process.send_signal(signal.SIGTERM)
    try:
        status = daemon.process.wait(timeout=STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        daemon.process.kill()
        daemon.process.wait()
        return None
    if daemon.log_reader is not None:
        daemon.log_reader.join(timeout=5)
    return status


def assert_stopped_cleanly(daemon: Vouchd, status: int | None, *, secrets: list[str] | tuple[str, ...] = (),
                           expected_errors: re.Pattern[str] | None = None, name: str = "vouchd") -> None:
    """`status` (from stop_vouchd) is 0, and the log holds no error (but those `expected_errors` matches), no admin
    token and none of `secrets`."""
    log = daemon.log
    if status is None:
        pytest.fail(f"{name} did not stop within {STOP_TIMEOUT:.0f} s of SIGTERM:\n" + "\n".join(log), pytrace=False)
    assert status == 0, f"{name} exited with {status} after SIGTERM:\n" + "\n".join(log)
    errors = [line for line in log if "level=error" in line and not (expected_errors and expected_errors.search(line))]
    assert not errors, f"{name} logged errors:\n" + "\n".join(errors)
    text = "\n".join(log)
    assert daemon.admin_token not in text, f"{name} logged the admin token"
    leaked = [secret[:8] + "…" for secret in secrets if secret in text]
    assert not leaked, f"{name} logged secrets or tokens: {leaked}"


@pytest.fixture
def vouchd(tmp_path: pathlib.Path, vouchd_environment: dict[str, str]):
    daemon = launch_vouchd(tmp_path / "state", vouchd_environment)

    yield daemon

    assert_stopped_cleanly(daemon, stop_vouchd(daemon))


@pytest.fixture
def refusing_port():
    """A port on 127.0.0.1 that is bound but never listens: every connection to it is refused at once."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]
