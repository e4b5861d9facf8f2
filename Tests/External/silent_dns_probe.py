"""Registers webhooks whose host's DNS server never answers, while an app evaluates flags; prints the figures as JSON.

Run by test_silent_dns.py as `unshare -rmn python silent_dns_probe.py`: in a network and mount namespace of its own,
where the only name server is a UDP socket on 127.0.0.1:53 that reads every query and answers none (resolv.conf
bind-mounted over the system's one says `nameserver 127.0.0.1`, `options timeout:5 attempts:2`, so getaddrinfo itself
would give up only after ten seconds or more). Everything, vouchd and both clients, runs inside: the host cannot
reach this namespace's loopback.

REGISTRATIONS concurrent `POST /v1/webhooks` for https://never-answers.example/hook, while one app client sends OFREP
bulk evaluations back to back on one kept-alive connection. Printed: each registration's status, duration and
message; the OFREP requests answered while the registrations waited and their p50, p99 and max latency; the DNS
queries the silent server read; vouchd's resolver counters from /metrics; and how vouchd stopped.
"""

from __future__ import annotations

import fcntl
import http.client
import json
import os
import pathlib
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from conftest import launch_vouchd, stop_vouchd  # noqa: E402

REGISTRATIONS = 4
SILENT_NAME = "never-answers.example"
# Bounds on the loops, whatever happens: the registrations' clients give up after this many seconds.
REQUEST_TIMEOUT = 30.0
OFREP_TIMEOUT = 30.0
RESOLV_CONF = "nameserver 127.0.0.1\noptions timeout:5 attempts:2\n"


def bring_loopback_up() -> str:
    """`ip link set lo up`, or the same through SIOCSIFFLAGS when `ip` is missing; says which was used."""
    try:
        subprocess.run(["ip", "link", "set", "lo", "up"], check=True, capture_output=True)
        return "ip"
    except (FileNotFoundError, subprocess.CalledProcessError):
        pass
    siocgifflags, siocsifflags, iff_up = 0x8913, 0x8914, 0x1
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as control:
        request = struct.pack("16sh", b"lo", 0)
        flags = struct.unpack("16sh", fcntl.ioctl(control, siocgifflags, request))[1]
        fcntl.ioctl(control, siocsifflags, struct.pack("16sh", b"lo", flags | iff_up))
    return "ioctl"


def silence_resolv_conf(directory: pathlib.Path) -> str:
    """Bind-mounts a resolv.conf naming only 127.0.0.1 over the system's (its target, when it is a symlink)."""
    replacement = directory / "resolv.conf"
    replacement.write_text(RESOLV_CONF)
    target = os.path.realpath("/etc/resolv.conf")
    subprocess.run(["mount", "--bind", str(replacement), target], check=True, capture_output=True)
    assert pathlib.Path("/etc/resolv.conf").read_text() == RESOLV_CONF, "the bind mount did not take"
    return target


class SilentNameServer:
    """A UDP socket on 127.0.0.1:53 that reads DNS queries and never answers; counts them."""

    def __init__(self) -> None:
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.socket.bind(("127.0.0.1", 53))
        self.socket.settimeout(0.2)
        self.queries = 0
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        while not self.stopping.is_set():
            try:
                self.socket.recvfrom(4096)
                self.queries += 1
            except socket.timeout:
                continue

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(timeout=5)
        self.socket.close()


def register(port: int, token: str, results: list[dict], start: threading.Barrier) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT)
    body = json.dumps({"url": f"https://{SILENT_NAME}/hook"})
    start.wait()
    began = time.monotonic()
    try:
        connection.request("POST", "/v1/webhooks", body=body,
                           headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
        answer = connection.getresponse()
        status, payload = answer.status, answer.read()
    except OSError as error:
        status, payload = None, str(error).encode()
    ended = time.monotonic()
    try:
        errors = json.loads(payload).get("errors", [])
    except ValueError:
        errors = []
    results.append({"status": status, "began": began, "ended": ended, "seconds": round(ended - began, 3),
                    "fields": [error.get("field") for error in errors],
                    "message": errors[0].get("message") if errors else payload.decode(errors="replace")[:300]})
    connection.close()


def evaluate_until(port: int, token: str, stop: threading.Event, samples: list[tuple[float, float, int]]) -> None:
    """OFREP bulk evaluations back to back on one kept-alive connection, as an app's provider sends them."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=OFREP_TIMEOUT)
    body = json.dumps({"context": {"targetingKey": "user-1"}})
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    while not stop.is_set():
        began = time.monotonic()
        try:
            connection.request("POST", "/ofrep/v1/evaluate/flags", body=body, headers=headers)
            answer = connection.getresponse()
            answer.read()
            status = answer.status
        except OSError:
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=OFREP_TIMEOUT)
            status = 0
        samples.append((began, time.monotonic(), status))
    connection.close()


def percentile(sorted_values: list[float], fraction: float) -> float:
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, int(fraction * len(sorted_values)))]


def resolver_metrics(daemon) -> dict[str, float]:
    text = daemon.call("GET", "/metrics", token=None).body.decode()
    return {line.split(" ")[0]: float(line.split(" ")[1]) for line in text.splitlines()
            if line.startswith("vouch_webhook_dns_")}


def main() -> dict:
    figures: dict = {"loopback": bring_loopback_up()}
    with tempfile.TemporaryDirectory(prefix="vouch-silent-dns-") as directory:
        figures["resolv_conf"] = silence_resolv_conf(pathlib.Path(directory))
        name_server = SilentNameServer()
        daemon = launch_vouchd(pathlib.Path(directory) / "state", {})
        try:
            sdk_token = daemon.create_token("tv-app", "sdk")
            daemon.expect(201, "POST", "/v1/fixes", {"key": "tv-channel-selector-labels", "title": "Channel logos have names",
                                                      "ui_area": "TV channel selector", "platforms": ["ios"], "wcag": ["4.1.2"]})
            stop = threading.Event()
            samples: list[tuple[float, float, int]] = []
            port = int(daemon.url.rsplit(":", 1)[1])
            app = threading.Thread(target=evaluate_until, args=(port, sdk_token, stop, samples))
            app.start()
            time.sleep(0.3)
            results: list[dict] = []
            start = threading.Barrier(REGISTRATIONS)
            clients = [threading.Thread(target=register, args=(port, daemon.admin_token, results, start)) for _ in range(REGISTRATIONS)]
            for client in clients:
                client.start()
            for client in clients:
                client.join(timeout=REQUEST_TIMEOUT + 5)
            stop.set()
            app.join(timeout=OFREP_TIMEOUT + 5)

            waited_from = min(result["began"] for result in results)
            waited_to = max(result["ended"] for result in results)
            during = [sample for sample in samples if sample[0] < waited_to and sample[1] > waited_from]
            latencies = sorted((ended - began) * 1_000 for began, ended, _ in during)
            figures["registrations"] = [{key: result[key] for key in ("status", "seconds", "fields", "message")} for result in results]
            figures["ofrep"] = {"requests": len(during), "not_200": sum(1 for *_, status in during if status != 200),
                                "p50_ms": round(percentile(latencies, 0.50), 2), "p99_ms": round(percentile(latencies, 0.99), 2),
                                "max_ms": round(latencies[-1], 2) if latencies else None,
                                "window_seconds": round(waited_to - waited_from, 3)}
            figures["metrics"] = resolver_metrics(daemon)
        finally:
            figures["exit_status"] = stop_vouchd(daemon)
            figures["logged_errors"] = [line for line in daemon.log if "level=error" in line]
            name_server.stop()
            figures["dns_queries"] = name_server.queries
    return figures


if __name__ == "__main__":
    print(json.dumps(main()))
