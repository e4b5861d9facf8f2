"""Evidence leaves Vouch in the formats auditors and buyers read (docs/evidence.md).

The EARL document of a fix is expanded by PyPI `pyld` with a document loader that refuses every fetch, so the
inline `@context` alone must carry it; the expanded graph must hold one earl:Assertion per feedback record and WCAG
criterion of the fix, each asserted by a foaf:Person, mode earl:manual, with the outcome of its verdict.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess

import pytest
from pyld import jsonld

from conftest import REPOSITORY

EARL = "http://www.w3.org/ns/earl#"
FOAF = "http://xmlns.com/foaf/0.1/"
DCT = "http://purl.org/dc/terms/"
VOUCH = "urn:vouch:ns#"
FIX = "tv-channel-selector-labels"


def vouch_binary() -> str:
    binary = os.environ.get("VOUCH")
    if not binary and os.environ.get("VOUCHD"):
        binary = str(pathlib.Path(os.environ["VOUCHD"]).with_name("vouch"))
    return binary or str(REPOSITORY / ".build" / "debug" / "vouch")


def refuse_network(url, options=None):
    raise AssertionError(f"the EARL document made the JSON-LD processor fetch {url}; its context must be inline")


def seed_feedback(vouchd) -> dict[str, str]:
    """Three testers, three verdicts: passed on iOS, failed on the web (with a browser), cant_tell on Android by a
    tester who then withdraws. Returns the verdict of each feedback id."""
    vouchd.expect(201, "POST", "/v1/fixes", {"key": FIX, "title": "TV channel selector labels", "ui_area": "TV channel selector",
                                             "platforms": ["ios", "android", "web"], "wcag": ["1.1.1", "4.1.2"]})
    vouchd.expect(200, "POST", f"/v1/fixes/{FIX}/start")
    testers = [vouchd.expect(201, "POST", "/v1/testers", {"name": name, "consent": "2026-11", "assistive_tech": [technology],
                                                       "targeting_keys": [f"{name.lower()}-account"]})["id"]
               for name, technology in [("Aiko", "voiceover:ios:18.2"), ("Ben", "nvda:web"), ("Chloe", "talkback:android")]]
    vouchd.expect(200, "POST", f"/v1/fixes/{FIX}/enrollments", {"testers": testers})
    records = [
        {"tester": testers[0], "verdict": "passed", "task_outcome": "completed_independently", "severity": "none", "platform": "ios",
         "os_version": "18.2", "app_build": "5.4.1 (412)", "assistive_tech": "voiceover", "at_version": "18.2", "heard": "NHK, button, selected"},
        {"tester": testers[1], "verdict": "failed", "task_outcome": "completed_with_workaround", "severity": "serious", "platform": "web",
         "os_version": "Windows 11", "app_build": "2026.12.1", "assistive_tech": "nvda", "at_version": "2025.3", "browser": "firefox",
         "browser_version": "140"},
        {"tester": testers[2], "verdict": "cant_tell", "task_outcome": "not_completed", "severity": "moderate", "platform": "android",
         "os_version": "15", "app_build": "5.4.1 (412)", "assistive_tech": "talkback", "heard": "Button", "comment": "Private words"},
    ]
    verdicts = {}
    for record in records:
        stored = vouchd.expect(201, "POST", f"/v1/fixes/{FIX}/feedback", record)
        verdicts[stored["id"]] = record["verdict"]
    vouchd.expect(200, "POST", f"/v1/testers/{testers[2]}/withdraw", {})
    return verdicts


def expanded_assertions(document: dict) -> list[dict]:
    """The assertions of the document's default graph, expanded with no network at all."""
    expanded = jsonld.expand(document, {"documentLoader": refuse_network})
    return [node for node in expanded if EARL + "Assertion" in node.get("@type", [])]


def test_earl_expands_offline_to_one_assertion_per_feedback_and_criterion(vouchd):
    verdicts = seed_feedback(vouchd)
    answer = vouchd.call("GET", f"/v1/fixes/{FIX}/evidence", headers={"Accept": "application/ld+json"})
    assert answer.status == 200, answer.body[:500]
    assert answer.header("Content-Type") == "application/ld+json"
    document = answer.json()
    assertions = expanded_assertions(document)
    assert len(assertions) == len(verdicts) * 2

    outcome_iri = {"passed": EARL + "passed", "failed": EARL + "failed", "cant_tell": EARL + "cantTell"}
    seen = set()
    for node in assertions:
        feedback_id = node["@id"].split(":")[3]
        criterion = node["@id"].rsplit(":", 1)[1]
        seen.add((feedback_id, criterion))
        assert node[EARL + "mode"] == [{"@id": EARL + "manual"}]
        person = node[EARL + "assertedBy"][0]
        assert FOAF + "Person" in person["@type"] and EARL + "Assertor" in person["@type"]
        software = person[VOUCH + "assistiveTechnology"][0]
        assert EARL + "Software" in software["@type"]
        result = node[EARL + "result"][0]
        assert result[EARL + "outcome"] == [{"@id": outcome_iri[verdicts[feedback_id]]}]
        assert result[DCT + "date"][0]["@type"] == "http://www.w3.org/2001/XMLSchema#dateTime"
        test = node[EARL + "test"][0]
        assert test["@id"] in ("https://www.w3.org/TR/WCAG22/#non-text-content", "https://www.w3.org/TR/WCAG22/#name-role-value")
        assert test[DCT + "identifier"][0]["@value"] == criterion
        assert node[EARL + "subject"][0][VOUCH + "fix"][0]["@value"] == FIX
        nick = person[FOAF + "nick"][0]["@value"]
        if verdicts[feedback_id] == "cant_tell":
            # She withdrew: a pseudonym no more, and nothing her withdrawal erased comes back.
            assert nick == "withdrawn"
            assert DCT + "description" not in result
            assert VOUCH + "osVersion" not in node[EARL + "subject"][0]
        else:
            assert nick.startswith("t_")
        if verdicts[feedback_id] == "failed":
            assert person[VOUCH + "browser"][0]["http://usefulinc.com/ns/doap#name"][0]["@value"] == "Firefox"
            assert result[VOUCH + "workaround"][0]["@value"] is True
            assert result[VOUCH + "severity"][0]["@value"] == "serious"
    assert seen == {(feedback_id, criterion) for feedback_id in verdicts for criterion in ("1.1.1", "4.1.2")}
    body = answer.body.decode()
    for private in ("Aiko", "Ben", "Chloe", "Private words"):
        assert private not in body


def test_earl_by_revision_and_through_the_cli(vouchd, tmp_path):
    verdicts = seed_feedback(vouchd)
    vouchd.expect(200, "POST", f"/v1/fixes/{FIX}/revise", {"note": "New labels"})
    # The new revision has no feedback yet; the first keeps all of it.
    assert vouchd.expect(200, "GET", f"/v1/fixes/{FIX}/evidence")["@graph"] == []
    assert len(vouchd.expect(200, "GET", f"/v1/fixes/{FIX}/evidence?revision=1")["@graph"]) == len(verdicts) * 2
    refused = vouchd.call("GET", f"/v1/fixes/{FIX}/evidence?revision=3")
    assert refused.status == 422 and "revision" in refused.body.decode()
    sdk = vouchd.create_token("app", "sdk")
    assert vouchd.call("GET", f"/v1/fixes/{FIX}/evidence", token=sdk).status == 403

    environment = {key: value for key, value in os.environ.items() if not key.startswith("VOUCH")}
    environment.update({"VOUCH_URL": vouchd.url, "VOUCH_TOKEN": vouchd.admin_token})
    finished = subprocess.run([vouch_binary(), "evidence", "export", FIX, "--format", "earl", "--revision", "1"],
                              capture_output=True, text=True, env=environment, timeout=30)
    assert finished.returncode == 0 and finished.stderr == "", finished
    assert len(expanded_assertions(json.loads(finished.stdout))) == len(verdicts) * 2
    wrong = subprocess.run([vouch_binary(), "evidence", "export", FIX, "--format", "pdf"], capture_output=True, text=True,
                           env=environment, timeout=30)
    assert wrong.returncode == 64 and "earl" in wrong.stderr
