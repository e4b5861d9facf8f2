"""Three vouchd on one PostgreSQL database, for test_cluster.py (a pytest plugin: conftest loads it).

`cluster` makes a fresh database in the cluster named by VOUCH_TEST_POSTGRES_URL (postgres_cluster.py) and starts
nodes A, B and C on it, each in its own state directory on 127.0.0.1 port 0: A first, which finds the database
empty and writes admin.token; then B and C, which find a token exists and use A's. After the test every node
still running gets SIGTERM and must exit 0; no node's log may hold an error the test did not expect, the admin
token, or a secret the test handed to the cluster; then the database is dropped.

Also here: a persistent HTTP connection to a node, a webhook receiver that holds its first request open, which
node's process sent a request (through /proc), and the figures the tests print (shown in pytest's summary).
"""

from __future__ import annotations

import http.client
import json
import os
import pathlib
import re
import signal
import threading
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any, Callable, Iterator

import pytest
from standardwebhooks import Webhook

from conftest import Vouchd, assert_stopped_cleanly, launch_vouchd, stop_vouchd
from loopback_server import LoopbackServer
from postgres_cluster import fresh_database, postgres_url

NODE_NAMES = ("A", "B", "C")
# Short enough for tests: a delivery whose sender died is taken over after LEASE_SECONDS; the lease must outlast
# an attempt (webhooks.timeout plus webhooks.dns_timeout), which vouchd checks when it starts.
LEASE_SECONDS = 4
NODE_ENVIRONMENT = {
    "VOUCHD_DATABASE_LEASE": f"{LEASE_SECONDS}s",
    "VOUCHD_WEBHOOKS_TIMEOUT": "1s",
    "VOUCHD_WEBHOOKS_DNS_TIMEOUT": "1s",
    "VOUCHD_WEBHOOKS_ALLOW_PRIVATE_NETWORKS": "true",
    "VOUCHD_WEBHOOKS_RETRY_SCHEDULE": "1s,1s,1s,1s,1s",
    # The load balancer's address, as README says ("Running several vouchd"): every node then writes the same
    # event-stream address into bulk answers, which so get the same ETag on every node.
    "VOUCHD_OFREP_PUBLIC_URL": "https://flags.example.org",
}
REQUEST_TIMEOUT = 10.0
# How soon a token made through one node must work on every other: a NOTIFY wakes the others at once, and their
# look at the configuration revision every second catches one that was missed.
TOKEN_SPREAD_LIMIT = 2.0


# --- waiting -------------------------------------------------------------------------------------------------------

def wait_until(condition: Callable[[], Any], timeout: float, describe: Callable[[], str], every: float = 0.05) -> Any:
    """Polls `condition` until it returns something truthy, which it returns; fails with `describe()` after `timeout`."""
    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if result:
            return result
        if time.monotonic() >= deadline:
            pytest.fail(f"after {timeout:.1f} s: {describe()}", pytrace=False)
        time.sleep(every)


# --- one persistent connection ---------------------------------------------------------------------------------------

@dataclass
class Reply:
    status: int
    headers: dict[str, str]  # names in lower case
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


class Connection:
    """One persistent HTTP/1.1 connection to a node (http.client) with a token; opened again after a failure."""

    def __init__(self, url: str, token: str | None, timeout: float = REQUEST_TIMEOUT):
        parts = urllib.parse.urlsplit(url)
        self.host, self.port = parts.hostname, parts.port
        self.token = token
        self.timeout = timeout
        self._connection: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> Reply:
        """Any status is returned; a failure to connect, send or read is raised (OSError or HTTPException)."""
        all_headers = dict(headers or {})
        if self.token is not None:
            all_headers["Authorization"] = f"Bearer {self.token}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            all_headers["Content-Type"] = "application/json"
        if self._connection is None:
            self._connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        try:
            self._connection.request(method, path, body=data, headers=all_headers)
            response = self._connection.getresponse()
            payload = response.read()
        except (OSError, http.client.HTTPException):
            self.close()
            raise
        return Reply(response.status, {name.lower(): value for name, value in response.getheaders()}, payload)

    def expect(self, status: int, method: str, path: str, body: Any = None) -> Any:
        reply = self.request(method, path, body)
        assert reply.status == status, \
            f"{method} {path} on :{self.port}: expected {status}, got {reply.status}: {reply.body[:300]!r}"
        return reply.json() if reply.body else None

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None


# --- the cluster -------------------------------------------------------------------------------------------------------

@dataclass
class Cluster:
    database: str
    database_url: str
    nodes: dict[str, Vouchd]
    # Tokens and webhook secrets the test made: no node may log them.
    secrets: list[str] = field(default_factory=list)
    # Nodes the test killed: not stopped at the end, only their logs checked.
    killed: set[str] = field(default_factory=set)
    # Per node: the error lines the test expects it to log (the database went away, a lease was lost).
    expected_errors: dict[str, re.Pattern[str]] = field(default_factory=dict)
    # Per token made: how long until every node accepted it.
    token_spreads: list[float] = field(default_factory=list)

    @property
    def admin_token(self) -> str:
        return self.nodes["A"].admin_token

    def connect(self, name: str, token: str | None = None) -> Connection:
        return Connection(self.nodes[name].url, self.admin_token if token is None else token)

    def name_of(self, pid: int) -> str:
        [name] = [name for name, node in self.nodes.items() if node.process.pid == pid]
        return name

    def alive(self) -> list[str]:
        return [name for name in NODE_NAMES if name not in self.killed]

    def kill(self, name: str) -> None:
        process = self.nodes[name].process
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
        self.killed.add(name)

    def create_token(self, name: str, role: str) -> str:
        """A new token, made through node A and known to every node (each hears of it within about a second)."""
        token = self.connect("A").expect(201, "POST", "/v1/tokens", {"name": name, "role": role})["token"]
        made = time.monotonic()
        self.secrets.append(token)
        for node in NODE_NAMES[1:]:
            # Any answer but 401 (a 403 for a role that may not list fixes) means the node knows the token. Every
            # 150 ms, so the 401s until then stay below auth.max_failures (20 a minute per address and node).
            connection = self.connect(node, token)
            wait_until(lambda: connection.request("GET", "/v1/fixes?limit=1").status != 401, TOKEN_SPREAD_LIMIT,
                       lambda: f"node {node} still answers 401 to the token {name!r} made through node A", every=0.15)
        self.token_spreads.append(time.monotonic() - made)
        return token

    def logged(self, name: str, pattern: str) -> list[str]:
        return [line for line in self.nodes[name].log if re.search(pattern, line)]


@pytest.fixture
def cluster(tmp_path: pathlib.Path) -> Iterator[Cluster]:
    with fresh_database(postgres_url(), "vouch_cluster") as (database, database_url):
        environment = {"VOUCHD_DATABASE_URL": database_url, **NODE_ENVIRONMENT}
        running = Cluster(database, database_url, {})
        try:
            running.nodes["A"] = launch_vouchd(tmp_path / "node-A", environment)
            for name in NODE_NAMES[1:]:
                running.nodes[name] = launch_vouchd(tmp_path / f"node-{name}", environment,
                                                    admin_token_from=tmp_path / "node-A" / "admin.token")
            yield running
        finally:
            _stop(running)


def _stop(cluster: Cluster) -> None:
    """SIGTERM to every node still running, all at once; then each must have stopped cleanly."""
    running = [name for name in cluster.nodes if name not in cluster.killed]
    for name in running:
        # A node the test stopped with SIGSTOP and that failed before SIGCONT would never see SIGTERM.
        cluster.nodes[name].process.send_signal(signal.SIGCONT)
    with ThreadPoolExecutor(len(NODE_NAMES)) as pool:
        statuses = dict(zip(running, pool.map(lambda name: stop_vouchd(cluster.nodes[name]), running)))
    for name, node in cluster.nodes.items():
        if name in statuses:
            assert_stopped_cleanly(node, statuses[name], secrets=cluster.secrets,
                                   expected_errors=cluster.expected_errors.get(name), name=f"node {name}")
        else:
            text = "\n".join(node.log)
            assert node.admin_token not in text and not any(secret in text for secret in cluster.secrets), \
                f"node {name} logged a token or a secret before it was killed"


# --- which node sent a request ---------------------------------------------------------------------------------------

def _socket_inodes(local_port: int, remote_port: int) -> set[str]:
    """The inodes of the TCP sockets from `local_port` to `remote_port`, from /proc/net/tcp and tcp6."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = pathlib.Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            local, remote, inode = fields[1], fields[2], fields[9]
            if int(local.rsplit(":", 1)[1], 16) == local_port and int(remote.rsplit(":", 1)[1], 16) == remote_port:
                inodes.add(f"socket:[{inode}]")
    return inodes


def process_with_socket(client_port: int, server_port: int, pids: list[int]) -> int | None:
    """Which of `pids` holds the connection from `client_port` to `server_port` (its socket among /proc/PID/fd)."""
    inodes = _socket_inodes(client_port, server_port)
    for pid in pids:
        try:
            descriptors = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for descriptor in descriptors:
            try:
                if os.readlink(f"/proc/{pid}/fd/{descriptor}") in inodes:
                    return pid
            except OSError:
                continue
    return None


# --- a webhook receiver that holds its first request ------------------------------------------------------------------

@dataclass(frozen=True)
class Arrival:
    number: int
    webhook_id: str
    type: str | None
    client_port: int
    at: float  # time.monotonic()
    problem: str | None  # why it did not verify, if it did not


class HoldingReceiver:
    """A webhook receiver on 127.0.0.1 (port 0) that holds its first request open without answering until
    `release()` (or HOLD_LIMIT), answers every later one 200, and records every request, verified with the endpoint's
    secret by the official Standard Webhooks library."""

    PATH = "/hooks/cluster"
    HOLD_LIMIT = 60.0

    def __init__(self) -> None:
        self.secret: str | None = None
        self.arrivals: list[Arrival] = []
        self._released = threading.Event()
        self._changed = threading.Condition()
        self._server = LoopbackServer(self._handle, "holding-receiver")
        self.port = self._server.port
        self.url = f"http://127.0.0.1:{self.port}{self.PATH}"

    def _handle(self, request: BaseHTTPRequestHandler) -> None:
        arrived = time.monotonic()
        body = request.rfile.read(int(request.headers.get("Content-Length") or 0))
        headers = dict(request.headers.items())
        problem, event_type = None, None
        try:
            payload = Webhook(self.secret or "").verify(body, headers)
            event_type = payload.get("type") if isinstance(payload, dict) else None
        except Exception as error:  # WebhookVerificationError, or headers too malformed to be read
            problem = f"{type(error).__name__}: {error}"
        with self._changed:
            arrival = Arrival(len(self.arrivals) + 1, headers.get("webhook-id", ""), event_type,
                              request.client_address[1], arrived, problem)
            self.arrivals.append(arrival)
            self._changed.notify_all()
        if arrival.number == 1:
            self._released.wait(self.HOLD_LIMIT)
        try:
            request.send_response(200 if problem is None else 400)
            request.send_header("Content-Length", "0")
            request.end_headers()
        except OSError:
            pass  # the sender is gone (killed while we held its request)

    def wait_for(self, count: int, timeout: float) -> list[Arrival]:
        """The first `count` requests, waiting for them up to `timeout`."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while len(self.arrivals) < count:
                remaining = deadline - time.monotonic()
                assert remaining > 0, (f"the receiver got {len(self.arrivals)} requests within {timeout:.1f} s, "
                                       f"expected {count}: {self.arrivals}")
                self._changed.wait(remaining)
            return self.arrivals[:count]

    def release(self) -> None:
        """Answers the held first request (200), if its sender still listens."""
        self._released.set()

    def shutdown(self) -> None:
        self.release()
        self._server.shutdown()


@pytest.fixture
def holding_receiver() -> Iterator[HoldingReceiver]:
    receiver = HoldingReceiver()
    yield receiver
    receiver.shutdown()


# --- figures --------------------------------------------------------------------------------------------------------

_FIGURES: list[str] = []


def report(line: str) -> None:
    """A figure for pytest's summary (and for `pytest -s`)."""
    print(line)
    _FIGURES.append(line)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def pytest_terminal_summary(terminalreporter) -> None:
    if not _FIGURES:
        return
    terminalreporter.section("three vouchd on one PostgreSQL database")
    for line in _FIGURES:
        terminalreporter.write_line(line)
