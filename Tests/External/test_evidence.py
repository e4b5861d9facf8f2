"""Evidence leaves Vouch in the formats auditors and buyers read (docs/evidence.md).

Every OpenACR report the tests produce is read with PyYAML, validated with PyPI `jsonschema` against OpenACR's
schema, and its chapters, criterion numbers, components and levels checked against the catalog (openacr/ here).

The EARL document of a fix is expanded by PyPI `pyld` with a document loader that refuses every fetch, so the
inline `@context` alone must carry it; the expanded graph must hold one earl:Assertion per feedback record and WCAG
criterion of the fix, each asserted by a foaf:Person, mode earl:manual, with the outcome of its verdict.
"""

from __future__ import annotations

import datetime
import json
import os
import pathlib
import re
import subprocess
import time
import urllib.parse

import jsonschema
import pytest
import yaml
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


# --- OpenACR ---------------------------------------------------------------------------------------------------------

OPENACR = pathlib.Path(__file__).resolve().parent / "openacr"
CATALOG = yaml.safe_load((OPENACR / "2.5-edition-wcag-2.2-508-eu-en.yaml").read_text(encoding="utf-8"))
SCHEMA = json.loads((OPENACR / "openacr-0.1.0.json").read_text(encoding="utf-8"))
WCAG_CHAPTERS = ("success_criteria_level_a", "success_criteria_level_aa", "success_criteria_level_aaa")
OPERATOR = {"VOUCHD_OPERATOR_NAME": "Example Media Ltd", "VOUCHD_OPERATOR_CONTACT": "accessibility@example.com"}


def catalog_criteria(chapter: str) -> dict[str, dict]:
    [found] = [entry for entry in CATALOG["chapters"] if entry["id"] == chapter]
    return {criterion["id"]: criterion for criterion in found.get("criteria", [])}


def checked_report(text: str) -> dict:
    """The report read as YAML, valid against OpenACR's schema, with only chapters and criteria of the catalog."""
    report = yaml.safe_load(text)
    jsonschema.Draft7Validator(SCHEMA).validate(report)
    assert report["catalog"] == "2.5-edition-wcag-2.2-508-eu-en"
    chapters = {entry["id"] for entry in CATALOG["chapters"]}
    terms = {term["id"] for term in CATALOG["terms"]}
    components = {component["id"] for component in CATALOG["components"]}
    for name, chapter in report["chapters"].items():
        assert name in chapters, f"chapter {name} is not in the catalog"
        known = catalog_criteria(name)
        for criterion in chapter.get("criteria", []):
            assert criterion["num"] in known, f"{criterion['num']} is not a criterion of {name} in the catalog"
            for component in criterion["components"]:
                assert component["name"] in components and component["name"] in known[criterion["num"]]["components"]
                assert component["adherence"]["level"] in terms and component["adherence"]["notes"]
    return report


def levels(report: dict) -> dict[tuple[str, str], str]:
    return {(criterion["num"], component["name"]): component["adherence"]["level"]
            for chapter in WCAG_CHAPTERS for criterion in report["chapters"][chapter]["criteria"]
            for component in criterion["components"]}


@pytest.fixture
def vouchd_environment():
    # One passing VoiceOver tester and an approval release a fix at once, for the report of a period.
    return {**OPERATOR, "VOUCHD_CRITERIA_MIN_SOAK": "0", "VOUCHD_CRITERIA_REQUIRED_ASSISTIVE_TECH": "ios:voiceover",
            "VOUCHD_CRITERIA_MIN_TESTERS_PASSED": "1"}


def test_every_criterion_anchor_is_the_catalogs(vouchd):
    numbers = [number for chapter in WCAG_CHAPTERS for number in catalog_criteria(chapter) if number != "4.1.1"]
    vouchd.expect(201, "POST", "/v1/fixes", {"key": "every-criterion", "title": "Everything", "ui_area": "Home", "platforms": ["ios"],
                                             "wcag": numbers})
    vouchd.expect(200, "POST", "/v1/fixes/every-criterion/start")
    tester = vouchd.expect(201, "POST", "/v1/testers", {"name": "Aiko", "consent": "2026-11", "assistive_tech": ["voiceover:ios"],
                                                        "targeting_keys": ["aiko-account"]})["id"]
    vouchd.expect(200, "POST", "/v1/fixes/every-criterion/enrollments", {"testers": [tester]})
    vouchd.expect(201, "POST", "/v1/fixes/every-criterion/feedback", {
        "tester": tester, "verdict": "passed", "task_outcome": "completed_independently", "severity": "none", "platform": "ios",
        "os_version": "18.2", "app_build": "1", "assistive_tech": "voiceover"})
    assertions = expanded_assertions(vouchd.expect(200, "GET", "/v1/fixes/every-criterion/evidence"))
    anchors = {node[EARL + "test"][0][DCT + "identifier"][0]["@value"]: node[EARL + "test"][0]["@id"] for node in assertions}
    catalog = {number: criterion for chapter in WCAG_CHAPTERS for number, criterion in catalog_criteria(chapter).items()}

    def anchor(criterion: dict) -> str:
        # The catalog keeps WCAG 2.0's old ids for three criteria (visual-audio-contrast-…); WCAG 2.2's anchor is the name.
        if criterion["alt_id"].startswith("visual-audio-contrast-"):
            return re.sub(r"[^a-z0-9]+", "-", criterion["handle"].lower()).strip("-")
        return criterion["alt_id"]

    assert anchors == {number: "https://www.w3.org/TR/WCAG22/#" + anchor(catalog[number]) for number in numbers}


def feedback(tester: str, verdict: str, platform: str) -> dict:
    setups = {"ios": {"assistive_tech": "voiceover", "os_version": "18.2"}, "android": {"assistive_tech": "talkback", "os_version": "15"},
              "web": {"assistive_tech": "nvda", "os_version": "Windows 11", "browser": "firefox"}}
    return {"tester": tester, "verdict": verdict, "task_outcome": "completed_independently" if verdict == "passed" else "not_completed",
            "severity": "none" if verdict == "passed" else "serious", "platform": platform, "app_build": "5.4.1", **setups[platform]}


def test_openacr_levels_follow_mixed_failing_and_missing_evidence(vouchd, tmp_path):
    maintainer = vouchd.create_token("maria", "maintainer")
    testers = [vouchd.expect(201, "POST", "/v1/testers", {"name": name, "consent": "2026-11", "assistive_tech": ["voiceover:ios"],
                                                          "targeting_keys": [f"{name.lower()}-account"]})["id"] for name in ("Aiko", "Ben", "Chloe")]
    for key, platforms, wcag, records in [
        ("checkout-labels", ["ios", "web"], ["4.1.2", "1.1.1"], [(0, "passed", "ios"), (1, "failed", "web")]),
        ("poster-alt-text", ["android"], ["1.1.1"], [(2, "failed", "android")]),
    ]:
        vouchd.expect(201, "POST", "/v1/fixes", {"key": key, "title": f"Fix {key}", "ui_area": "Checkout", "platforms": platforms, "wcag": wcag},
                      token=maintainer)
        vouchd.expect(200, "POST", f"/v1/fixes/{key}/start", token=maintainer)
        vouchd.expect(200, "POST", f"/v1/fixes/{key}/enrollments", {"testers": testers})
        for index, verdict, platform in records:
            vouchd.expect(201, "POST", f"/v1/fixes/{key}/feedback", feedback(testers[index], verdict, platform))

    answer = vouchd.call("GET", "/v1/reports/acr?fixes=checkout-labels,poster-alt-text&product_name=Example%20TV&product_version=5.4.1",
                         headers={"Accept": "application/yaml"})
    assert answer.status == 200, answer.body[:500]
    assert answer.header("Content-Type") == "application/yaml; charset=utf-8"
    report = checked_report(answer.body.decode())
    assert report["title"] == "Example TV Accessibility Conformance Report"
    assert report["product"]["version"] == "5.4.1"
    assert report["author"] == {"name": "Example Media Ltd", "company_name": "Example Media Ltd", "email": "accessibility@example.com"}
    found = levels(report)
    assert found[("4.1.2", "software")] == "supports"
    assert found[("4.1.2", "web")] == "does-not-support"
    assert found[("1.1.1", "software")] == "partially-supports"  # passed on iOS, failed on Android
    assert found[("1.1.1", "web")] == "does-not-support"
    # Nothing else has evidence, and nothing is claimed for it.
    assert {level for cell, level in found.items() if cell[0] not in ("4.1.2", "1.1.1")} == {"not-evaluated"}
    assert len(found) == 2 * 86
    [software] = [c for c in report["chapters"]["success_criteria_level_a"]["criteria"] if c["num"] == "1.1.1"]
    notes = software["components"][0]["adherence"]["notes"]
    assert "Passed: 1 tester with VoiceOver on iOS 18.2" in notes and "Failed: 1 tester with TalkBack on Android 15" in notes
    assert "VoiceOver on iOS 18.2" in report["evaluation_methods_used"]
    assert "en_301_549_web" in report["chapters"] and "en_301_549_software" in report["chapters"]
    text = answer.body.decode()
    for private in ["Aiko", "Ben", "Chloe", *testers]:
        assert private not in text

    environment = {key: value for key, value in os.environ.items() if not key.startswith("VOUCH")}
    environment.update({"VOUCH_URL": vouchd.url, "VOUCH_TOKEN": vouchd.admin_token})
    finished = subprocess.run([vouch_binary(), "evidence", "report", "--fixes", "poster-alt-text", "--product", "Example TV",
                               "--format", "openacr"], capture_output=True, text=True, env=environment, timeout=30)
    assert finished.returncode == 0 and finished.stderr == "", finished
    assert levels(checked_report(finished.stdout))[("1.1.1", "software")] == "does-not-support"

    markdown = vouchd.call("GET", "/v1/reports/acr?fixes=checkout-labels,poster-alt-text&product_name=Example%20TV&format=markdown")
    assert markdown.status == 200 and markdown.header("Content-Type") == "text/markdown; charset=utf-8"
    page = markdown.body.decode()
    assert page.startswith("# Example TV Accessibility Conformance Report\n")
    assert "| 4.1.2 Name, Role, Value | Software | Supports | Verified by assistive\\-technology users on fix checkout\\-labels" in page
    assert "| 1.1.1 Non\\-text Content | Web | Does Not Support |" in page
    assert page.count("| Criteria | Component | Conformance Level | Remarks and Explanations |") == 3
    cli = subprocess.run([vouch_binary(), "evidence", "report", "--fixes", "checkout-labels,poster-alt-text", "--product", "Example TV",
                          "--format", "markdown"], capture_output=True, text=True, env=environment, timeout=30)
    assert cli.returncode == 0 and cli.stdout.split("\n")[2:] == page.split("\n")[2:], cli

    for query, field in [("product_name=X", "fixes"), ("fixes=checkout-labels&product_name=X&format=pdf", "format"), ("fixes=checkout-labels&released_from=2026-01-01&product_name=X", "fixes"),
                         ("fixes=nope&product_name=X", "fixes[0]"), ("released_from=2026-02-30&product_name=X", "released_from"),
                         ("fixes=checkout-labels&product_name=%20", "product_name")]:
        refused = vouchd.call("GET", f"/v1/reports/acr?{query}")
        assert refused.status == 422 and field in [error["field"] for error in refused.json()["errors"]], (query, refused.body)
    assert vouchd.call("GET", "/v1/reports/acr?fixes=checkout-labels&product_name=X", token=vouchd.create_token("app", "sdk")).status == 403


def test_a_product_name_of_any_characters_comes_back_from_the_yaml_unchanged(vouchd):
    vouchd.expect(201, "POST", "/v1/fixes", {"key": "labels", "title": "Labels: \"all\" # of them", "ui_area": "Home", "platforms": ["web"]})
    name = 'Example: "TV" #1 \\ no\tテレビ \u0085 — yes'
    answer = vouchd.call("GET", "/v1/reports/acr?" + urllib.parse.urlencode({"fixes": "labels", "product_name": name}))
    report = checked_report(answer.body.decode())
    assert report["product"]["name"] == name and report["title"] == f"{name} Accessibility Conformance Report"
    assert 'labels (Labels: "all" # of them)' in report["product"]["description"]


def test_openacr_of_a_period_holds_the_fixes_released_in_it(vouchd):
    maintainer = vouchd.create_token("maria", "maintainer")
    rita = vouchd.create_token("rita", "release_manager")
    tester = vouchd.expect(201, "POST", "/v1/testers", {"name": "Aiko", "consent": "2026-11", "assistive_tech": ["voiceover:ios"],
                                                        "targeting_keys": ["aiko-account"]})["id"]
    for key in ("released-labels", "still-testing"):
        vouchd.expect(201, "POST", "/v1/fixes", {"key": key, "title": f"Fix {key}", "ui_area": "Home", "platforms": ["ios"], "wcag": ["2.4.3"]},
                      token=maintainer)
        vouchd.expect(200, "POST", f"/v1/fixes/{key}/start", token=maintainer)
        vouchd.expect(200, "POST", f"/v1/fixes/{key}/enrollments", {"testers": [tester]})
        vouchd.expect(201, "POST", f"/v1/fixes/{key}/feedback", feedback(tester, "passed", "ios"))
    vouchd.expect(201, "POST", "/v1/fixes/released-labels/approvals", {"decision": "approve"}, token=rita)
    deadline = time.monotonic() + 15
    while vouchd.expect(200, "GET", "/v1/fixes/released-labels")["state"] != "released":
        assert time.monotonic() < deadline, "the approved fix was not released within 15 s"
        time.sleep(0.1)
    today = datetime.datetime.now(datetime.timezone.utc).date()
    report = checked_report(vouchd.call("GET", f"/v1/reports/acr?released_from={today}&released_to={today}&product_name=Example%20TV").body.decode())
    assert "released-labels" in report["notes"] and "still-testing" not in report["notes"]
    assert levels(report)[("2.4.3", "software")] == "supports"
    assert "web" not in {component for _, component in levels(report)}
    yesterday = today - datetime.timedelta(days=1)
    earlier = checked_report(vouchd.call("GET", f"/v1/reports/acr?released_from={yesterday}&released_to={yesterday}&product_name=X").body.decode())
    assert "covers 0 fixes" in earlier["notes"]
    assert set(levels(earlier).values()) == {"not-evaluated"}
