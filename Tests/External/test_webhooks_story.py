"""The product's story end to end over the HTTP API, watched by webhook receivers written in Python.

Each receiver is an http.server on 127.0.0.1 (port 0) in a background thread. It checks EVERY request it gets
with the official Standard Webhooks library (PyPI `standardwebhooks`: `Webhook(secret).verify(body, headers)`)
and records the deliveries that verify; a request that does not verify is recorded as a problem, answered 400,
and fails the test (at the next wait, and in any case when the receivers are shut down).

The daemon runs with loopback receivers allowed, retries after 1 s, no soak time, VoiceOver on iOS as the only
required assistive technology and two passing testers (see `vouchd_environment`).
"""

from __future__ import annotations

import base64
import collections
import itertools
import re
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from typing import Any, Callable

import pytest
from openfeature import api
from openfeature.contrib.provider.ofrep import OFREPProvider
from openfeature.evaluation_context import EvaluationContext
from openfeature.flag_evaluation import Reason
from standardwebhooks import Webhook

from loopback_server import LoopbackServer

FIX = "tv-channel-selector-labels"
# The longest any step waits for the daemon (a delivery, a state change).
WAIT = 10.0
_domains = itertools.count(1)

# What a receiver answers to its n-th request (1 for the first): status and extra headers.
Answerer = Callable[[int], "tuple[int, dict[str, str]]"]


def always(status: int) -> Answerer:
    return lambda number: (status, {})


@dataclass(frozen=True)
class Delivery:
    """One request that verified."""
    id: str
    timestamp: int
    type: str
    body: bytes
    payload: dict[str, Any]
    arrived: float  # time.monotonic() when it arrived


class Receiver:
    """A webhook receiver on 127.0.0.1 that verifies every request with `standardwebhooks`."""

    PATH = "/hooks/vouch"

    def __init__(self, answer: Answerer):
        # Set from the creation answer of POST /v1/webhooks, the only time the daemon shows it.
        self.secret: str | None = None
        self.verified: list[Delivery] = []
        self.problems: list[str] = []
        self.requests = 0
        self._answer = answer
        self._changed = threading.Condition()
        self._server = LoopbackServer(self._handle, "webhook-receiver")
        self.url = f"http://127.0.0.1:{self._server.port}{self.PATH}"

    def _handle(self, request: BaseHTTPRequestHandler) -> None:
        arrived = time.monotonic()
        body = request.rfile.read(int(request.headers.get("Content-Length") or 0))
        headers = dict(request.headers.items())
        with self._changed:
            self.requests += 1
            number = self.requests
            secret = self.secret
        problem = None
        payload: Any = None
        if request.command != "POST" or request.path != self.PATH:
            problem = f"expected POST {self.PATH}"
        elif (request.headers.get("Content-Type") or "").split(";")[0].strip() != "application/json":
            problem = f"Content-Type is {request.headers.get('Content-Type')!r}, not application/json"
        elif secret is None:
            problem = "arrived before the endpoint (and so its secret) was created"
        else:
            try:
                payload = Webhook(secret).verify(body, headers)
            except Exception as error:  # WebhookVerificationError, or headers too malformed to be read
                problem = f"does not verify: {type(error).__name__}: {error}"
        if problem is None and not (isinstance(payload, dict) and isinstance(payload.get("type"), str)):
            problem = "the body is not an event object with a type"
        status, extra = (400, {}) if problem else self._answer(number)
        with self._changed:
            if problem:
                self.problems.append(f"request {number} ({request.command} {request.path}, webhook-id "
                                     f"{headers.get('webhook-id')!r}): {problem}; body {body[:300]!r}")
            else:
                self.verified.append(Delivery(id=headers["webhook-id"], timestamp=int(headers["webhook-timestamp"]),
                                              type=payload["type"], body=body, payload=payload, arrived=arrived))
            self._changed.notify_all()
        request.send_response(status)
        for name, value in extra.items():
            request.send_header(name, value)
        request.send_header("Content-Length", "0")
        request.end_headers()

    def assert_all_verified(self) -> None:
        assert not self.problems, "unverifiable webhook deliveries:\n" + "\n".join(self.problems)

    def wait_until(self, condition: Callable[[list[Delivery]], Any], description: str, timeout: float = WAIT) -> Any:
        """Waits until `condition(verified deliveries)` is truthy and returns it; fails on any unverifiable delivery."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                self.assert_all_verified()
                result = condition(list(self.verified))
                if result:
                    return result
                remaining = deadline - time.monotonic()
                assert remaining > 0, (f"no {description} within {timeout:.0f} s; verified so far: "
                                       f"{[delivery.type for delivery in self.verified]}")
                self._changed.wait(remaining)

    def wait_for(self, event_type: str, count: int = 1, timeout: float = WAIT) -> list[Delivery]:
        """The first `count` verified deliveries of `event_type`, waiting for them up to `timeout`."""
        def arrived(verified: list[Delivery]) -> list[Delivery] | None:
            of_type = [delivery for delivery in verified if delivery.type == event_type]
            return of_type[:count] if len(of_type) >= count else None

        return self.wait_until(arrived, f"{count} verified {event_type}", timeout)

    def shutdown(self) -> None:
        self._server.shutdown()


@pytest.fixture
def receivers():
    """Starts receivers on demand (`receivers(answer)`); shuts them down and fails on any unverifiable delivery."""
    started: list[Receiver] = []

    def start(answer: Answerer = always(200)) -> Receiver:
        receiver = Receiver(answer)
        started.append(receiver)
        return receiver

    yield start
    for receiver in started:
        receiver.shutdown()
    for receiver in started:
        receiver.assert_all_verified()


@pytest.fixture
def vouchd_environment(receivers):
    # Asking for `receivers` here makes pytest start the receivers' fixture before vouchd and tear it down after
    # vouchd has stopped, so no delivery still in flight meets a closed port.
    return {
        "VOUCHD_WEBHOOKS_ALLOW_PRIVATE_NETWORKS": "true",
        "VOUCHD_WEBHOOKS_RETRY_SCHEDULE": "1s,1s,1s",
        "VOUCHD_CRITERIA_MIN_SOAK": "0",
        "VOUCHD_CRITERIA_REQUIRED_ASSISTIVE_TECH": "ios:voiceover",
        "VOUCHD_CRITERIA_MIN_TESTERS_PASSED": "2",
    }


@pytest.fixture(autouse=True)
def _openfeature_reset():
    yield
    api.shutdown()


def register(vouchd, receiver: Receiver, **fields: Any) -> dict[str, Any]:
    """POST /v1/webhooks for the receiver; hands it the secret, which only the creation answer shows."""
    created = vouchd.expect(201, "POST", "/v1/webhooks", {"url": receiver.url, **fields})
    secret = created["secret"]
    assert re.fullmatch(r"whsec_[A-Za-z0-9+/]{43}=", secret), f"not a whsec_ secret of 32 bytes: {secret!r}"
    assert len(base64.b64decode(secret.removeprefix("whsec_"))) == 32
    receiver.secret = secret
    assert created["url"] == receiver.url and created["enabled"] is True
    shown = vouchd.expect(200, "GET", f"/v1/webhooks/{created['id']}")
    assert "secret" not in shown, "the secret is shown only once, when the endpoint is created"
    return created


def create_fix(vouchd) -> dict[str, Any]:
    created = vouchd.expect(201, "POST", "/v1/fixes", {
        "key": FIX, "title": "Label the channel logos", "ui_area": "TV channel selector", "platforms": ["ios"]})
    assert created["state"] == "draft" and created["revision"] == 1 and created["author"] == "admin"
    return created


def fix_state(vouchd) -> str:
    return vouchd.expect(200, "GET", f"/v1/fixes/{FIX}")["state"]


def wait_for_state(vouchd, state: str, timeout: float = WAIT) -> None:
    deadline = time.monotonic() + timeout
    while (current := fix_state(vouchd)) != state:
        assert time.monotonic() < deadline, f"fix {FIX} is still {current!r} after {timeout:.0f} s, expected {state!r}"
        time.sleep(0.05)


def evaluate(vouchd, targeting_key: str, *, token: str, default: bool):
    """Resolves the fix's flag through a new OFREP provider of the real OpenFeature SDK, as an app would."""
    provider = OFREPProvider(vouchd.url, headers_factory=lambda: {"Authorization": f"Bearer {token}"}, timeout=10.0)
    domain = f"vouch-webhooks-{next(_domains)}"
    api.set_provider_and_wait(provider, domain=domain)
    return api.get_client(domain).get_boolean_details(FIX, default, EvaluationContext(targeting_key=targeting_key))


def assert_flag(vouchd, targeting_key: str, *, token: str, value: bool, reason: Reason, state: str) -> None:
    details = evaluate(vouchd, targeting_key, token=token, default=not value)
    assert details.error_code is None, f"{targeting_key}: unexpected error {details.error_code}: {details.error_message}"
    assert (details.value, details.reason, details.variant) == (value, reason, "on" if value else "off"), \
        f"{targeting_key}: {details.value!r} {details.reason!r} {details.variant!r}"
    assert details.flag_metadata == {"revision": 1, "state": state}


def feedback(tester_id: str) -> dict[str, Any]:
    return {"tester": tester_id, "verdict": "passed", "task_outcome": "completed_independently", "severity": "none",
            "platform": "ios", "os_version": "18.2", "app_build": "4.12.0 (881)", "assistive_tech": "voiceover"}


def keys_in(value: Any) -> set[str]:
    """Every object member name anywhere in a JSON value."""
    if isinstance(value, dict):
        return set(value) | set().union(*(keys_in(member) for member in value.values()))
    if isinstance(value, list):
        return set().union(*(keys_in(element) for element in value))
    return set()


def assert_fix_event(delivery: Delivery, event_type: str, state: str) -> None:
    payload = delivery.payload
    assert payload["type"] == event_type
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z", payload["timestamp"]), payload["timestamp"]
    data = payload["data"]
    assert (data["fix"], data["revision"], data["state"]) == (FIX, 1, state), f"{event_type}: {data}"
    assert data["evidence"]["testers_passed"] == 2, f"{event_type}: {data['evidence']}"
    assert data["evidence"]["blocking"] == 0, f"{event_type}: {data['evidence']}"
    assert data["evidence"]["technologies_covered"] == ["ios:voiceover"], f"{event_type}: {data['evidence']}"
    assert re.fullmatch(r"msg_[A-Za-z0-9]+", delivery.id), delivery.id


TESTERS = [
    {"name": "Aiko Watanabe-Storytest", "contact": "aiko.storytest@example.org"},
    {"name": "Ben Okafor-Storytest", "contact": "ben.storytest@example.org"},
]


def test_the_story_from_testing_to_release_and_rollback_is_signed_end_to_end(vouchd, receivers):
    receiver = receivers()
    endpoint = register(vouchd, receiver, required=True)
    assert endpoint["required"] is True

    create_fix(vouchd)
    assert vouchd.expect(200, "POST", f"/v1/fixes/{FIX}/start")["state"] == "testing"
    tester_ids = []
    for person in TESTERS:
        tester = vouchd.expect(201, "POST", "/v1/testers", {**person, "assistive_tech": ["voiceover:ios:18.2"],
                                                             "targeting_keys": ["user-1"], "consent": "2026-11"})
        assert re.fullmatch(r"t_\w+", tester["id"]), tester["id"]
        tester_ids.append(tester["id"])
    enrolled = vouchd.call("POST", f"/v1/fixes/{FIX}/enrollments", {"testers": tester_ids})
    assert enrolled.status in (200, 201), f"enrollment: {enrolled.status} {enrolled.body[:500]!r}"
    for tester_id in tester_ids:
        submitted = vouchd.call("POST", f"/v1/fixes/{FIX}/feedback", feedback(tester_id))
        assert submitted.status == 201, f"feedback: {submitted.status} {submitted.body[:500]!r}"

    status = vouchd.expect(200, "GET", f"/v1/fixes/{FIX}/status")
    unmet = [criterion["name"] for criterion in status["criteria"] if not criterion["met"]]
    assert unmet == ["approvals_required"], f"unmet criteria: {unmet}: {status['missing']}"
    assert status["criteria_met"] is False and status["ready_to_promote"] is False and len(status["missing"]) == 1
    assert status["state"] == "testing"

    sdk = vouchd.create_token("tv-app", "sdk")
    # Before release the flag is on only for the testers' key.
    assert_flag(vouchd, "user-1", token=sdk, value=True, reason=Reason.TARGETING_MATCH, state="testing")
    assert_flag(vouchd, "someone-else", token=sdk, value=False, reason=Reason.DEFAULT, state="testing")

    # The admin token's principal wrote the fix, so it may not approve it.
    refused = vouchd.call("POST", f"/v1/fixes/{FIX}/approvals", {"decision": "approve"})
    assert refused.status == 403, f"the author's approval: {refused.status} {refused.body[:500]!r}"
    assert refused.header("Content-Type") == "application/problem+json"
    assert "having shaped it (created the fix)" in refused.json()["detail"]
    assert fix_state(vouchd) == "testing"
    assert vouchd.expect(200, "GET", f"/v1/fixes/{FIX}/approvals")["approvals"] == []

    rita = vouchd.create_token("rita", "release_manager")
    approval = vouchd.expect(201, "POST", f"/v1/fixes/{FIX}/approvals", {"decision": "approve"}, token=rita)
    assert approval["principal"] == "rita" and approval["decision"] == "approve" and approval["valid"] is True
    assert approval["revision"] == 1 and approval["evidence_hash"] == status["evidence_hash"]

    # With the approval every criterion is met: the daemon promotes on its own and releases once the required
    # endpoint has answered 2xx to fix.promoted.
    [promoted] = receiver.wait_for("fix.promoted")
    assert_fix_event(promoted, "fix.promoted", "promoting")
    wait_for_state(vouchd, "released")
    [released] = receiver.wait_for("fix.released")
    assert_fix_event(released, "fix.released", "released")
    assert promoted.arrived < released.arrived
    deliveries = vouchd.expect(200, "GET", f"/v1/webhooks/{endpoint['id']}/deliveries?limit=100")["deliveries"]
    [promoted_delivery] = [delivery for delivery in deliveries if delivery["type"] == "fix.promoted"]
    assert (promoted_delivery["event"], promoted_delivery["status"], promoted_delivery["attempts"],
            promoted_delivery["required"]) == (promoted.id, "succeeded", 1, True)

    for key in ("user-1", "someone-else", "any-other-user-42"):
        assert_flag(vouchd, key, token=sdk, value=True, reason=Reason.STATIC, state="released")

    rolled_back = vouchd.expect(200, "POST", f"/v1/fixes/{FIX}/rollback",
                                {"reason": "VoiceOver reads the channel numbers twice on iPad"}, token=rita)
    assert rolled_back["state"] == "rolled_back"
    for key in ("user-1", "someone-else", "any-other-user-42"):
        assert_flag(vouchd, key, token=sdk, value=False, reason=Reason.DISABLED, state="rolled_back")
    [rollback] = receiver.wait_for("fix.rolled_back")
    assert_fix_event(rollback, "fix.rolled_back", "rolled_back")

    # Every event of the story arrived once and verified; the refused approval emitted nothing.
    expected = collections.Counter({"fix.created": 1, "fix.testing_started": 1, "feedback.received": 2,
                                    "approval.recorded": 1, "fix.promoted": 1, "fix.released": 1, "fix.rolled_back": 1})
    receiver.wait_until(lambda verified: collections.Counter(d.type for d in verified) >= expected,
                        "complete set of the story's events")
    verified = list(receiver.verified)
    assert collections.Counter(d.type for d in verified) == expected
    assert len({delivery.id for delivery in verified}) == len(verified), "each event has its own webhook-id"
    [recorded] = [d for d in verified if d.type == "approval.recorded"]
    assert recorded.payload["data"]["principal"] == "rita"

    # No payload carries a tester's name, contact or assistive-technology profile.
    for delivery in verified:
        for person in TESTERS:
            for datum in person.values():
                assert datum.encode() not in delivery.body, f"{delivery.type} carries {datum!r}: {delivery.body!r}"
        leaked = keys_in(delivery.payload) & {"name", "contact", "assistive_tech", "targeting_keys", "consent"}
        assert not leaked, f"{delivery.type} carries tester fields {leaked}: {delivery.body!r}"


@pytest.mark.parametrize("retry_after", [1, 3])
def test_a_receiver_answering_503_with_retry_after_gets_the_same_event_again_after_the_wait(vouchd, receivers, retry_after):
    # With the retry schedule at 1 s, Retry-After: 3 shows that the daemon waits as long as the receiver asked.
    receiver = receivers(lambda number: (503, {"Retry-After": str(retry_after)}) if number == 1 else (200, {}))
    endpoint = register(vouchd, receiver)
    create_fix(vouchd)

    first, second = receiver.wait_for("fix.created", count=2, timeout=retry_after + 5)
    assert second.id == first.id, "a retry carries the event's webhook-id"
    assert second.body == first.body, "a retry resends the stored bytes unchanged"
    gap = second.arrived - first.arrived
    assert retry_after - 0.1 <= gap <= retry_after + 2, f"retried {gap:.3f} s after the 503 with Retry-After: {retry_after}"
    assert second.timestamp >= first.timestamp
    assert first.payload["data"] == {"fix": FIX, "revision": 1, "state": "draft"}

    def settled():
        deliveries = vouchd.expect(200, "GET", f"/v1/webhooks/{endpoint['id']}/deliveries")["deliveries"]
        return deliveries if deliveries and deliveries[0]["status"] != "pending" else None

    deadline = time.monotonic() + WAIT
    while (deliveries := settled()) is None:
        assert time.monotonic() < deadline, "the delivery was not recorded as settled"
        time.sleep(0.05)
    [delivery] = deliveries
    assert (delivery["event"], delivery["status"], delivery["attempts"], delivery["last_status_code"]) == \
        (first.id, "succeeded", 2, 200)
    assert receiver.requests == 2, "a delivery that succeeded is not sent again"


def test_a_receiver_answering_410_gone_disables_its_endpoint(vouchd, receivers):
    receiver = receivers(always(410))
    endpoint = register(vouchd, receiver)
    create_fix(vouchd)

    [gone] = receiver.wait_for("fix.created")
    deadline = time.monotonic() + WAIT
    while (shown := vouchd.expect(200, "GET", f"/v1/webhooks/{endpoint['id']}"))["enabled"]:
        assert time.monotonic() < deadline, f"the endpoint is still enabled after its receiver answered 410: {shown}"
        time.sleep(0.05)
    assert "410" in (shown["disabled_reason"] or ""), shown
    [delivery] = vouchd.expect(200, "GET", f"/v1/webhooks/{endpoint['id']}/deliveries")["deliveries"]
    assert (delivery["event"], delivery["status"], delivery["attempts"], delivery["last_status_code"]) == \
        (gone.id, "dead", 1, 410)

    # Nothing more goes to it: a new event makes no delivery, and a test ping is refused.
    assert vouchd.expect(200, "POST", f"/v1/fixes/{FIX}/start")["state"] == "testing"
    assert len(vouchd.expect(200, "GET", f"/v1/webhooks/{endpoint['id']}/deliveries")["deliveries"]) == 1
    assert vouchd.call("POST", f"/v1/webhooks/{endpoint['id']}/test").status == 409
    assert receiver.requests == 1
