"""The real OpenFeature Python SDK and its OFREP provider against a live vouchd.

Every evaluation goes through a fresh provider registered under its own domain, so nothing one step
resolved can be reused by the next (the provider has no cache of its own either).
"""

from __future__ import annotations

import itertools
import re

import pytest
from openfeature import api
from openfeature.contrib.provider.ofrep import OFREPProvider
from openfeature.evaluation_context import EvaluationContext
from openfeature.exception import ErrorCode
from openfeature.flag_evaluation import FlagEvaluationDetails, Reason

FLAG = "tv-channel-selector-labels"
_domains = itertools.count(1)


@pytest.fixture(autouse=True)
def _openfeature_reset():
    yield
    api.shutdown()


def evaluate(vouchd, flag: str, targeting_key: str | None, *, token: str | None, default: bool = False,
             header: str = "Authorization") -> FlagEvaluationDetails[bool]:
    """Resolves one boolean flag through a new OFREP provider, as an app would."""
    if token is None:
        headers_factory = None
    elif header == "Authorization":
        headers_factory = lambda: {"Authorization": f"Bearer {token}"}  # noqa: E731
    else:
        headers_factory = lambda: {header: token}  # noqa: E731
    provider = OFREPProvider(vouchd.url, headers_factory=headers_factory, timeout=10.0)
    domain = f"vouch-test-{next(_domains)}"
    api.set_provider_and_wait(provider, domain=domain)
    client = api.get_client(domain)
    context = EvaluationContext(targeting_key=targeting_key) if targeting_key is not None else None
    return client.get_boolean_details(flag, default, context)


@pytest.fixture
def fix_in_testing(vouchd):
    """The story's fix, started, with user-1 as its direct target; returns an sdk token for the app."""
    created = vouchd.expect(201, "POST", "/v1/fixes", {
        "key": FLAG,
        "title": "Label the channel logos",
        "ui_area": "TV channel selector",
        "platforms": ["ios"],
        "wcag": ["1.1.1", "4.1.2"],
        "expected_announcement": "NHK, button, selected",
    })
    assert created["state"] == "draft" and created["revision"] == 1 and created["author"] == "admin"
    started = vouchd.expect(200, "POST", f"/v1/fixes/{FLAG}/start")
    assert started["state"] == "testing"
    targets = vouchd.expect(200, "POST", f"/v1/fixes/{FLAG}/targets", {"add": ["user-1"]})
    assert targets == {"fix": FLAG, "targets": ["user-1"], "added": ["user-1"], "removed": []}
    return vouchd.create_token("python-app", "sdk")


def assert_evaluated(details: FlagEvaluationDetails[bool], value: bool, reason: Reason, state: str) -> None:
    assert details.error_code is None, f"unexpected error {details.error_code}: {details.error_message}"
    assert details.value is value
    assert details.reason == reason
    assert details.variant == ("on" if value else "off")
    assert details.flag_metadata == {"revision": 1, "state": state}


def test_the_targeted_user_gets_the_fix(vouchd, fix_in_testing):
    details = evaluate(vouchd, FLAG, "user-1", token=fix_in_testing)
    assert_evaluated(details, True, Reason.TARGETING_MATCH, "testing")


def test_an_untargeted_user_gets_the_default_off(vouchd, fix_in_testing):
    details = evaluate(vouchd, FLAG, "user-2", token=fix_in_testing, default=True)
    assert_evaluated(details, False, Reason.DEFAULT, "testing")


def test_pausing_turns_the_flag_off_for_the_targeted_user(vouchd, fix_in_testing):
    assert_evaluated(evaluate(vouchd, FLAG, "user-1", token=fix_in_testing), True, Reason.TARGETING_MATCH, "testing")
    paused = vouchd.expect(200, "POST", f"/v1/fixes/{FLAG}/pause")
    assert paused["state"] == "paused" and paused["paused_from"] == "testing"
    assert_evaluated(evaluate(vouchd, FLAG, "user-1", token=fix_in_testing, default=True), False, Reason.DISABLED, "paused")
    resumed = vouchd.expect(200, "POST", f"/v1/fixes/{FLAG}/resume")
    assert resumed["state"] == "testing"
    assert_evaluated(evaluate(vouchd, FLAG, "user-1", token=fix_in_testing), True, Reason.TARGETING_MATCH, "testing")


def test_the_token_may_come_as_x_api_key(vouchd, fix_in_testing):
    details = evaluate(vouchd, FLAG, "user-1", token=fix_in_testing, header="X-API-Key")
    assert_evaluated(details, True, Reason.TARGETING_MATCH, "testing")


def test_an_unknown_flag_is_flag_not_found_and_the_default_is_returned(vouchd, fix_in_testing):
    for default in (True, False):
        details = evaluate(vouchd, "no-such-flag", "user-1", token=fix_in_testing, default=default)
        assert details.error_code == ErrorCode.FLAG_NOT_FOUND
        assert details.value is default
        assert details.reason == Reason.ERROR
        assert "no-such-flag" in (details.error_message or "")


def test_a_context_without_targeting_key_is_targeting_key_missing(vouchd, fix_in_testing):
    details = evaluate(vouchd, FLAG, None, token=fix_in_testing, default=True)
    assert details.error_code == ErrorCode.TARGETING_KEY_MISSING
    assert details.value is True
    assert details.reason == Reason.ERROR


def test_without_a_token_the_provider_gets_401_and_the_default(vouchd, fix_in_testing):
    details = evaluate(vouchd, FLAG, "user-1", token=None, default=True)
    # The provider turns 401 into a GENERAL error named "unauthorized".
    assert details.error_code == ErrorCode.GENERAL
    assert details.error_message == "unauthorized"
    assert details.value is True
    assert details.reason == Reason.ERROR
    raw = vouchd.call("POST", f"/ofrep/v1/evaluate/flags/{FLAG}", {"context": {"targetingKey": "user-1"}}, token=None)
    assert raw.status == 401
    assert raw.body == b"", "OFREP's 401 has no body"
    assert raw.header("WWW-Authenticate") == 'Bearer realm="vouch"'


def test_a_revoked_token_gets_401(vouchd, fix_in_testing):
    tokens = vouchd.expect(200, "GET", "/v1/tokens")["tokens"]
    sdk = next(token for token in tokens if token["name"] == "python-app")
    revoked = vouchd.expect(200, "DELETE", f"/v1/tokens/{sdk['id']}")
    assert revoked["revoked_at"] is not None
    details = evaluate(vouchd, FLAG, "user-1", token=fix_in_testing, default=True)
    assert details.error_code == ErrorCode.GENERAL and details.error_message == "unauthorized"
    assert details.value is True


def test_the_sdk_token_may_only_evaluate(vouchd, fix_in_testing):
    for method, path, body in [("GET", "/v1/fixes", None), ("POST", f"/v1/fixes/{FLAG}/pause", None),
                               ("POST", "/v1/tokens", {"name": "x", "role": "admin"}), ("GET", "/v1/audit", None)]:
        answer = vouchd.call(method, path, body, token=fix_in_testing)
        assert answer.status == 403, f"{method} {path} with an sdk token: {answer.status}"
        assert answer.header("Content-Type") == "application/problem+json"
        problem = answer.json()
        assert problem["status"] == 403 and problem["title"] == "Forbidden" and problem["type"].startswith("https://")


def bulk(vouchd, token: str, targeting_key: str, if_none_match: str | None = None):
    headers = {"If-None-Match": if_none_match} if if_none_match else {}
    return vouchd.call("POST", "/ofrep/v1/evaluate/flags", {"context": {"targetingKey": targeting_key}}, token=token,
                       headers=headers)


def test_bulk_evaluation_answers_304_until_a_change(vouchd, fix_in_testing):
    vouchd.expect(200, "POST", f"/v1/fixes/{FLAG}/pause")
    first = bulk(vouchd, fix_in_testing, "user-1")
    assert first.status == 200
    etag = first.header("ETag")
    assert etag and re.fullmatch(r'"[^"]+"', etag), f"not a strong ETag: {etag!r}"
    answer = first.json()
    assert answer["flags"] == [{"key": FLAG, "value": False, "reason": "DISABLED", "variant": "off",
                                "metadata": {"revision": 1, "state": "paused"}}]
    # The event stream this token may listen on (OFREP ADR-0008), and nothing else beside the flags.
    assert set(answer) == {"flags", "eventStreams"}
    [stream] = answer["eventStreams"]
    assert stream["type"] == "sse" and stream["inactivityDelaySec"] == 120
    assert stream["url"].startswith(vouchd.url + "/ofrep/v1/event-stream?credential="), stream["url"]
    assert fix_in_testing not in stream["url"], "the stream's address must not carry the token"

    again = bulk(vouchd, fix_in_testing, "user-1", if_none_match=etag)
    assert again.status == 304
    assert again.body == b""
    assert again.header("ETag") == etag
    assert bulk(vouchd, fix_in_testing, "user-1", if_none_match=f"W/{etag}").status == 304
    assert bulk(vouchd, fix_in_testing, "user-1", if_none_match=f'"0000000000000000", {etag}').status == 304
    assert bulk(vouchd, fix_in_testing, "user-1", if_none_match='"0000000000000000"').status == 200

    vouchd.expect(200, "POST", f"/v1/fixes/{FLAG}/resume")
    changed = bulk(vouchd, fix_in_testing, "user-1", if_none_match=etag)
    assert changed.status == 200
    new_etag = changed.header("ETag")
    assert new_etag and new_etag != etag
    assert changed.json()["flags"] == [{"key": FLAG, "value": True, "reason": "TARGETING_MATCH", "variant": "on",
                                        "metadata": {"revision": 1, "state": "testing"}}]
    assert bulk(vouchd, fix_in_testing, "user-1", if_none_match=new_etag).status == 304


def test_bulk_evaluation_without_token_is_401_without_body(vouchd, fix_in_testing):
    answer = vouchd.call("POST", "/ofrep/v1/evaluate/flags", {"context": {"targetingKey": "user-1"}}, token=None)
    assert answer.status == 401
    assert answer.body == b""
