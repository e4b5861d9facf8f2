"""Delivers webhooks while the DNS server of four receivers' names goes silent; prints the figures as JSON.

Run by test_silent_dns.py as `unshare -rmn python silent_dns_delivery_probe.py`, in the same kind of namespace as
silent_dns_probe.py: the only name server is a UDP socket on 127.0.0.1:53 that never answers (resolv.conf says
`options timeout:5 attempts:2`, so getaddrinfo gives up only after ten seconds), and /etc/hosts is a file of the
probe's own, bind-mounted, which it edits to make names resolve or not. Everything runs inside.

1. vouchd (webhooks.timeout 15 s, so 5 s for DNS; retries every second; private networks allowed, since the receiver
   is on loopback) registers SILENT_ENDPOINTS webhooks for silent-N.example while /etc/hosts still names them.
2. The names leave /etc/hosts, so their lookups go to the silent server; a fix is created, and its fix.created event
   goes to those webhooks. The four senders each wait on one silent name.
3. While they wait, a fifth webhook is registered for receiver.example (still in /etc/hosts) and sent a test event.
4. After the first attempts are recorded, `vouch webhook deliveries` lists one silent webhook's deliveries; then the
   names come back to /etc/hosts, and the deliveries must succeed on a later retry.

Printed: the registration's and the test delivery's seconds, every attempt of the silent deliveries from the
database (number, error, duration), the CLI's lines, the resolver's counters from /metrics, the DNS queries the
silent server read, and how vouchd stopped.
"""

from __future__ import annotations

import http.server
import json
import os
import pathlib
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from conftest import launch_vouchd, stop_vouchd  # noqa: E402
from silent_dns_probe import SilentNameServer, bring_loopback_up, resolver_metrics, silence_resolv_conf  # noqa: E402

SILENT_ENDPOINTS = 4
HEALTHY_NAME = "receiver.example"
# Bounds on every wait, whatever happens.
WAIT_LIMIT = 40.0


class Receiver(http.server.ThreadingHTTPServer):
    """Answers every POST with 204 and notes when each arrived, by Host header."""

    def __init__(self) -> None:
        self.arrivals: list[tuple[str, float]] = []
        super().__init__(("127.0.0.1", 0), ReceiverHandler)
        threading.Thread(target=self.serve_forever, daemon=True).start()


class ReceiverHandler(http.server.BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 (the standard library's name)
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.server.arrivals.append((self.headers.get("Host", ""), time.monotonic()))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *arguments) -> None:
        pass


def hosts_text(names: list[str]) -> str:
    return "127.0.0.1 localhost\n::1 localhost\n" + "".join(f"127.0.0.1 {name}\n" for name in names)


def own_hosts_file(directory: pathlib.Path, names: list[str]) -> pathlib.Path:
    """Bind-mounts a file of the probe's own over /etc/hosts; writing it later changes what getaddrinfo finds."""
    replacement = directory / "hosts"
    replacement.write_text(hosts_text(names))
    subprocess.run(["mount", "--bind", str(replacement), os.path.realpath("/etc/hosts")], check=True, capture_output=True)
    return replacement


def wait_for(condition, limit: float = WAIT_LIMIT):
    """Polls `condition` every 20 ms until it returns something true, for `limit` seconds at most; returns that."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    return condition()


def attempts(state_dir: pathlib.Path, endpoint_ids: list[str]) -> dict[str, list[dict]]:
    """Every recorded attempt of those webhooks' deliveries, from the database (read-only)."""
    with sqlite3.connect(f"file:{state_dir / 'vouch.sqlite3'}?mode=ro", uri=True) as database:
        rows = database.execute(
            "SELECT d.endpoint_id, a.number, a.error, a.duration_ms FROM webhook_attempts a "
            "JOIN webhook_deliveries d ON d.id = a.delivery_id ORDER BY d.endpoint_id, a.number").fetchall()
    found: dict[str, list[dict]] = {endpoint: [] for endpoint in endpoint_ids}
    for endpoint, number, error, duration in rows:
        if endpoint in found:
            found[endpoint].append({"number": number, "error": error, "duration_ms": duration})
    return found


def deliveries(daemon, endpoint: str) -> list[dict]:
    return daemon.expect(200, "GET", f"/v1/webhooks/{endpoint}/deliveries")["deliveries"]


def main() -> dict:
    figures: dict = {"loopback": bring_loopback_up()}
    silent_names = [f"silent-{index}.example" for index in range(SILENT_ENDPOINTS)]
    with tempfile.TemporaryDirectory(prefix="vouch-silent-dns-delivery-") as directory:
        folder = pathlib.Path(directory)
        figures["resolv_conf"] = silence_resolv_conf(folder)
        hosts = own_hosts_file(folder, silent_names + [HEALTHY_NAME])
        name_server = SilentNameServer()
        receiver = Receiver()
        port = receiver.server_address[1]
        daemon = launch_vouchd(folder / "state", {"VOUCHD_WEBHOOKS_ALLOW_PRIVATE_NETWORKS": "true",
                                                  "VOUCHD_WEBHOOKS_RETRY_SCHEDULE": "1s,1s,1s,1s,1s,1s,1s,1s"})
        try:
            silent = [daemon.expect(201, "POST", "/v1/webhooks", {"url": f"http://{name}:{port}/hook", "events": ["fix.created"]})["id"]
                      for name in silent_names]
            hosts.write_text(hosts_text([HEALTHY_NAME]))
            daemon.expect(201, "POST", "/v1/fixes", {"key": "tv-channel-selector-labels", "title": "Channel logos have names",
                                                      "ui_area": "TV channel selector", "platforms": ["ios"], "wcag": ["4.1.2"]})
            event_created = time.monotonic()
            figures["senders_waiting"] = bool(wait_for(lambda: resolver_metrics(daemon).get("vouch_webhook_dns_running", 0) >= SILENT_ENDPOINTS))

            began = time.monotonic()
            healthy = daemon.call("POST", "/v1/webhooks", {"url": f"http://{HEALTHY_NAME}:{port}/hook", "events": []})
            figures["healthy_registration"] = {"status": healthy.status, "seconds": round(time.monotonic() - began, 3),
                                               "since_event_seconds": round(began - event_created, 3)}
            if healthy.status == 201:
                began = time.monotonic()
                daemon.expect(202, "POST", f"/v1/webhooks/{healthy.json()['id']}/test")
                arrival = wait_for(lambda: next((at for host, at in receiver.arrivals if host.startswith(HEALTHY_NAME)), None))
                figures["healthy_delivery_seconds"] = round(arrival - began, 3) if arrival else None

            first = wait_for(lambda: all(delivery["attempts"] >= 1 for endpoint in silent for delivery in deliveries(daemon, endpoint)))
            figures["first_attempts_recorded"] = bool(first)
            figures["first_attempts_seconds_after_event"] = round(time.monotonic() - event_created, 3)
            # What an operator reads while DNS is silent.
            listing = subprocess.run([str(pathlib.Path(os.environ["VOUCHD"]).with_name("vouch")), "--server", daemon.url, "--token",
                                      daemon.admin_token, "webhook", "deliveries", silent[0]], capture_output=True, text=True, timeout=30)
            figures["cli"] = {"status": listing.returncode, "lines": listing.stdout.splitlines(), "stderr": listing.stderr}

            hosts.write_text(hosts_text(silent_names + [HEALTHY_NAME]))
            figures["all_succeeded"] = bool(wait_for(
                lambda: all(delivery["status"] == "succeeded" for endpoint in silent for delivery in deliveries(daemon, endpoint))))
            figures["attempts"] = list(attempts(daemon.state_dir, silent).values())
            figures["metrics"] = resolver_metrics(daemon)
        finally:
            figures["exit_status"] = stop_vouchd(daemon)
            figures["logged_errors"] = [line for line in daemon.log if "level=error" in line]
            receiver.shutdown()
            name_server.stop()
            figures["dns_queries"] = name_server.queries
    return figures


if __name__ == "__main__":
    print(json.dumps(main()))
