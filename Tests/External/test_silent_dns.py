"""Webhook registrations whose DNS server never answers: each is refused after webhooks.dns_timeout, and flag
evaluation goes on meanwhile.

The probe (silent_dns_probe.py) runs under `unshare -rmn`, in a network namespace whose only name server is a local
UDP socket that never answers, with its own vouchd and clients; it prints its figures as JSON, which this test prints
and checks. Skipped only when this machine does not permit `unshare -rmn`.
"""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest

from conftest import _vouchd_binary

PROBE = pathlib.Path(__file__).resolve().parent / "silent_dns_probe.py"
# webhooks.dns_timeout's default, which the probe's vouchd runs with.
DNS_TIMEOUT = 2.0
# The probe waits at most about 30 s per request; this bounds the whole run.
PROBE_TIMEOUT = 120


def namespaces_permitted() -> str | None:
    """None when `unshare -rmn` works here, else why not."""
    try:
        trial = subprocess.run(["unshare", "-rmn", "true"], capture_output=True, text=True, timeout=30)
    except FileNotFoundError:
        return "unshare is not installed"
    if trial.returncode != 0:
        return f"unshare -rmn is not permitted here: {trial.stderr.strip()}"
    return None


def test_registrations_with_a_silent_dns_server_are_refused_in_time_and_ofrep_goes_on():
    reason = namespaces_permitted()
    if reason:
        pytest.skip(reason)
    run = subprocess.run(["unshare", "-rmn", sys.executable, str(PROBE)], capture_output=True, text=True,
                         timeout=PROBE_TIMEOUT, env={"VOUCHD": _vouchd_binary(), "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"})
    assert run.returncode == 0, f"the probe failed ({run.returncode}):\n{run.stdout}\n{run.stderr}"
    figures = json.loads(run.stdout.strip().splitlines()[-1])
    print(json.dumps(figures, indent=1))

    assert figures["dns_queries"] > 0, "the lookups never reached the silent name server"
    registrations = figures["registrations"]
    assert len(registrations) == 4
    for registration in registrations:
        assert registration["status"] == 422 and registration["fields"] == ["url"], registration
        assert registration["message"].startswith(
            f"the host name 'never-answers.example' did not resolve within {DNS_TIMEOUT:g}s"), registration
        # About the timeout: not less, and not a second resolver timeout (5 s) or a wait behind another request.
        assert DNS_TIMEOUT - 0.1 <= registration["seconds"] <= DNS_TIMEOUT + 1.5, registration
    metrics = figures["metrics"]
    assert metrics["vouch_webhook_dns_timeouts_total"] == 4
    assert metrics["vouch_webhook_dns_lookups_total"] == 1, "the four registrations share one lookup of the one name"

    ofrep = figures["ofrep"]
    assert ofrep["requests"] > 0 and ofrep["not_200"] == 0, ofrep
    assert ofrep["p99_ms"] < 50, f"OFREP stalled while the registrations waited: {ofrep}"

    assert figures["exit_status"] == 0 and not figures["logged_errors"], figures
