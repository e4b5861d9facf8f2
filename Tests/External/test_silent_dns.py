"""A DNS server that never answers. Webhook registrations are refused after webhooks.dns_timeout, and flag evaluation
goes on meanwhile; deliveries fail their attempt after a third of webhooks.timeout, are retried, succeed once the
names resolve again, and do not hold up a delivery to another webhook for longer than that.

Each probe (silent_dns_probe.py, silent_dns_delivery_probe.py) runs under `unshare -rmn`, in a network namespace whose
only name server is a local UDP socket that never answers, with its own vouchd and clients; it prints its figures as
JSON, which these tests print and check. Skipped only when this machine does not permit `unshare -rmn`.
"""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest

from conftest import _vouchd_binary

PROBES = pathlib.Path(__file__).resolve().parent
# webhooks.dns_timeout's default, which the probes' vouchd runs with.
DNS_TIMEOUT = 2.0
# A third of webhooks.timeout's default (15 s): how long a delivery attempt waits for DNS.
DELIVERY_DNS_DEADLINE = 5.0
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


def run_probe(name: str) -> dict:
    """Runs the probe in a namespace of its own and returns its figures, printed too; skips when namespaces are refused."""
    reason = namespaces_permitted()
    if reason:
        pytest.skip(reason)
    run = subprocess.run(["unshare", "-rmn", sys.executable, str(PROBES / name)], capture_output=True, text=True,
                         timeout=PROBE_TIMEOUT, env={"VOUCHD": _vouchd_binary(), "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"})
    assert run.returncode == 0, f"the probe failed ({run.returncode}):\n{run.stdout}\n{run.stderr}"
    figures = json.loads(run.stdout.strip().splitlines()[-1])
    print(json.dumps(figures, indent=1))
    return figures


def test_registrations_with_a_silent_dns_server_are_refused_in_time_and_ofrep_goes_on():
    figures = run_probe("silent_dns_probe.py")

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


def test_deliveries_to_names_dns_does_not_answer_for_are_retried_and_hold_up_no_other_webhook():
    figures = run_probe("silent_dns_delivery_probe.py")
    assert figures["dns_queries"] > 0 and figures["senders_waiting"], figures

    # Registered and delivered while every sender waited on a silent name: the registration at once, the delivery
    # as soon as a sender was free, which is the DNS deadline at most.
    assert figures["healthy_registration"]["status"] == 201, figures["healthy_registration"]
    assert figures["healthy_registration"]["seconds"] < DNS_TIMEOUT, figures["healthy_registration"]
    assert figures["healthy_delivery_seconds"] is not None
    assert figures["healthy_delivery_seconds"] <= DELIVERY_DNS_DEADLINE + 1.5, figures["healthy_delivery_seconds"]

    # Each silent delivery: a first attempt that ended at the deadline, in words an operator understands, then
    # retries until the name resolved again, and success.
    assert figures["first_attempts_recorded"] and figures["all_succeeded"], figures
    for index, attempts in enumerate(figures["attempts"]):
        first, last = attempts[0], attempts[-1]
        assert first["error"] == f"DNS for host 'silent-{index}.example' did not answer within {DELIVERY_DNS_DEADLINE:g}s", attempts
        assert DELIVERY_DNS_DEADLINE * 1_000 - 100 <= first["duration_ms"] <= DELIVERY_DNS_DEADLINE * 1_000 + 1_500, attempts
        assert all(attempt["error"].startswith(f"DNS for host 'silent-{index}.example' ") for attempt in attempts[:-1]), attempts
        assert last["error"] is None and len(attempts) >= 2, attempts
    cli = figures["cli"]
    assert cli["status"] == 0 and any("pending, 1 attempt, last error: DNS for host 'silent-0.example' did not answer within 5s"
                                      in line for line in cli["lines"]), cli

    assert figures["metrics"]["vouch_webhook_dns_timeouts_total"] >= 4
    assert figures["exit_status"] == 0 and not figures["logged_errors"], figures
