"""Schemathesis against a live vouchd, driven by the document the daemon itself serves at /v1/openapi.json.

Checks on every answer: no 5xx (not_a_server_error), the status code is documented for the operation
(status_code_conformance), the Content-Type is the documented one (content_type_conformance), the documented
required headers are there (response_headers_conformance) and the body matches the schema
(response_schema_conformance). Everything goes with the admin token.

Before the run the daemon gets real data (fixes in several states, testers, enrollments, webhook receivers, dead
deliveries, a tester's personal links, panels, spare tokens), and schemathesis draws path parameters and a few body fields
from dictionaries of those identifiers part of the time (the rest stays random), so every operation is exercised
past its 404 and reaches a success answer, not only its error paths. The test asserts both: the set of operations
tested equals the documented set, and each operation got at least one 2xx answer. It prints, per operation, how many
answers of each status it got (undocumented methods, which schemathesis also tries, answer 405).

Two runs: every operation but the destructive ones with all phases (examples, coverage, fuzzing, stateful), then
the destructive ones. Bounded: 20 examples per operation (40 for two that need a seeded identifier and a matching
state at once), one worker and a fixed seed, so the test takes under a minute and repeats.
"""

from __future__ import annotations

import collections
import json
import pathlib
import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, field

import pytest

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]

CHECKS = ",".join([
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_headers_conformance",
    "response_schema_conformance",
])
HTTP_METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}
SEED = "20250301"
MAX_EXAMPLES = "20"
# Operations that destroy what they touch (abandon a fix, withdraw a tester, delete a receiver, revoke a token) run
# in a second run after the first, so they cannot starve the others of the seeded data. That run has no stateful
# phase: it would list the tokens and revoke the admin token the run itself uses, leaving every later request a 401.
DESTRUCTIVE = ["actOnFix", "withdrawTester", "unenrollTester", "deleteWebhook", "revokeToken"]
# How often a parameter bound to a dictionary takes one of the seeded identifiers instead of a generated value.
KNOWN = 0.7

# Operations whose success needs a seeded identifier and a matching state at once get this many examples instead.
# A feedback record needs a seeded tester and fields that agree with each other (no browser but on the web).
MORE_EXAMPLES = {"actOnFix", "redeliver", "submitFeedback"}
MORE_EXAMPLES_COUNT = 40

FIX = "tv-channel-selector-labels"


@pytest.fixture
def vouchd_environment():
    # Receivers on 127.0.0.1 are allowed (the seeded ones point at a port that refuses connections), and a failed
    # delivery is retried once after 1 s, then dead: that gives POST /v1/deliveries/{id}/redeliver something to resend.
    # Invitations wait for the operator who runs the programme to be named; a conformance report without a
    # product_name (optional since report.product_name) is of the configured product.
    return {"VOUCHD_WEBHOOKS_ALLOW_PRIVATE_NETWORKS": "true", "VOUCHD_WEBHOOKS_RETRY_SCHEDULE": "1s",
            "VOUCHD_OPERATOR_NAME": "Example Media Ltd", "VOUCHD_OPERATOR_CONTACT": "privacy@example.com",
            "VOUCHD_REPORT_PRODUCT_NAME": "Example TV"}


@dataclass
class Seeded:
    """Identifiers of what the daemon holds before schemathesis starts, by what they may be used for."""
    fixes: list[str] = field(default_factory=list)  # fixes in testing, with every tester enrolled: all but actions
    lifecycle_fixes: list[str] = field(default_factory=list)  # more fixes, in each state an action starts from
    testers: list[str] = field(default_factory=list)  # active testers, enrolled in every fix of `fixes`
    withdrawable_testers: list[str] = field(default_factory=list)  # enrolled too; withdrawn and unenrolled last
    webhooks: list[str] = field(default_factory=list)  # enabled receivers, kept enabled
    changeable_webhooks: list[str] = field(default_factory=list)  # PATCH may disable them
    deletable_webhooks: list[str] = field(default_factory=list)
    deliveries: list[str] = field(default_factory=list)  # dead ones
    revocable_tokens: list[str] = field(default_factory=list)
    link_testers: list[str] = field(default_factory=list)  # the one tester whose personal links are seeded
    links: list[str] = field(default_factory=list)  # her links, which DELETE may revoke
    invitations: list[str] = field(default_factory=list)  # kept open, for GET
    revocable_invitations: list[str] = field(default_factory=list)  # which DELETE may revoke
    panels: list[str] = field(default_factory=list)  # panels of the active testers, kept
    removable_panels: list[str] = field(default_factory=list)  # every tester in them, for DELETE of a member
    deletable_panels: list[str] = field(default_factory=list)
    receiver_urls: list[str] = field(default_factory=list)


def seed(vouchd, receiver_url: str) -> Seeded:
    seeded = Seeded(receiver_urls=[receiver_url, receiver_url + "/hooks/vouch"])
    # Fixes are written and targeted by a maintainer, so the admin token schemathesis uses has not shaped them and may
    # approve (docs/decisions.md, "Who may not approve").
    maintainer = vouchd.create_token("seed-maintainer", "maintainer")

    def make_fix(key: str, *actions: str) -> str:
        vouchd.expect(201, "POST", "/v1/fixes", {"key": key, "title": f"Fix {key}", "ui_area": "TV channel selector",
                                                 "platforms": ["ios", "android"], "wcag": ["1.1.1", "4.1.2"]},
                      token=maintainer)
        for action in actions:
            vouchd.expect(200, "POST", f"/v1/fixes/{key}/{action}")
        return key

    seeded.fixes = [make_fix(FIX, "start"), make_fix("epg-grid-focus-order", "start"), make_fix("player-captions", "start")]
    # Two of each state an action can start from by hand (promote and rollback need evidence and webhooks first).
    seeded.lifecycle_fixes = [make_fix(f"life-{state}-{n}", *actions) for n in (1, 2) for state, actions in
                              [("draft", ()), ("testing", ("start",)), ("paused", ("start", "pause")),
                               ("abandoned", ("abandon",))]]
    vouchd.expect(200, "POST", f"/v1/fixes/{FIX}/targets", {"add": ["user-1", "qa-iphone"]}, token=maintainer)

    def make_tester(name: str) -> str:
        return vouchd.expect(201, "POST", "/v1/testers", {
            "name": name, "consent": "2026-11", "assistive_tech": ["voiceover:ios:18.2", "talkback:android"],
            "targeting_keys": [f"{name.lower()}-account"]})["id"]

    seeded.testers = [make_tester("Aiko"), make_tester("Ben")]
    seeded.withdrawable_testers = [make_tester("Chloe"), make_tester("Dara")]
    for fix in seeded.fixes:
        vouchd.expect(200, "POST", f"/v1/fixes/{fix}/enrollments", {"testers": seeded.testers + seeded.withdrawable_testers})
    vouchd.expect(201, "POST", f"/v1/fixes/{FIX}/feedback", {
        "tester": seeded.testers[0], "verdict": "passed", "task_outcome": "completed_with_workaround",
        "severity": "minor", "platform": "ios", "os_version": "18.2", "app_build": "5.4.1 (412)",
        "assistive_tech": "voiceover", "heard": "NHK, button, selected", "comment": "Some issues, but usable"})

    def make_webhook(**fields) -> str:
        return vouchd.expect(201, "POST", "/v1/webhooks", {"url": receiver_url, **fields})["id"]

    seeded.webhooks = [make_webhook(), make_webhook(events=["fix.paused", "fix.resumed"], required=True)]
    seeded.changeable_webhooks = [make_webhook(), make_webhook(enabled=False)]
    seeded.deletable_webhooks = [make_webhook(), make_webhook()]
    # Two test events per receiver that stays enabled; each delivery is refused, retried once after 1 s, then dead.
    for webhook in seeded.webhooks:
        for _ in range(2):
            vouchd.expect(202, "POST", f"/v1/webhooks/{webhook}/test")
    deadline = time.monotonic() + 15
    while True:
        deliveries = vouchd.expect(200, "GET", "/v1/deliveries?limit=500")["deliveries"]
        dead = [delivery["id"] for delivery in deliveries
                if delivery["status"] == "dead" and delivery["webhook"] in seeded.webhooks]
        if len(dead) >= 4:
            break
        assert time.monotonic() < deadline, f"the seeded deliveries did not die within 15 s: {deliveries}"
        time.sleep(0.2)
    seeded.deliveries = dead
    seeded.link_testers = seeded.testers[:1]
    seeded.links = [vouchd.expect(201, "POST", f"/v1/testers/{seeded.testers[0]}/links", {"valid_for": "1d"})["id"]
                    for _ in range(3)]

    def make_panel(name: str, testers: list[str]) -> str:
        panel = vouchd.expect(201, "POST", "/v1/panels", {"name": name, "description": "Seeded"})["id"]
        vouchd.expect(200, "POST", f"/v1/panels/{panel}/members", {"testers": testers})
        return panel

    seeded.panels = [make_panel("VoiceOver on iOS", seeded.testers), make_panel("TalkBack on Android", seeded.testers[:1])]
    seeded.removable_panels = [make_panel("Switch Control", seeded.testers + seeded.withdrawable_testers)]
    seeded.deletable_panels = [make_panel(f"Spare panel {n}", seeded.testers) for n in range(3)]

    def make_invitation() -> str:
        return vouchd.expect(201, "POST", "/v1/invitations", {"fixes": [FIX], "panels": seeded.panels[:1], "language": "ja"})["id"]

    seeded.invitations = [make_invitation(), make_invitation()]
    seeded.revocable_invitations = [make_invitation(), make_invitation()]
    seeded.revocable_tokens = [vouchd.expect(201, "POST", "/v1/tokens", {"name": f"spare-{n}", "role": "sdk"})["id"]
                               for n in range(3)]
    return seeded


def toml_string(value: str) -> str:
    # A JSON string is a valid TOML basic string for the characters used here.
    return json.dumps(value)


def write_config(path: pathlib.Path, seeded: Seeded) -> None:
    """The schemathesis.toml that binds parameters to the seeded identifiers, part of the time."""
    dictionaries = {
        "fixes": seeded.fixes, "lifecycle_fixes": seeded.lifecycle_fixes, "testers": seeded.testers,
        "withdrawable_testers": seeded.withdrawable_testers, "webhooks": seeded.webhooks,
        "changeable_webhooks": seeded.changeable_webhooks, "deletable_webhooks": seeded.deletable_webhooks,
        "deliveries": seeded.deliveries, "tokens": seeded.revocable_tokens, "receiver_urls": seeded.receiver_urls,
        "link_testers": seeded.link_testers, "links": seeded.links,
        "invitations": seeded.invitations, "revocable_invitations": seeded.revocable_invitations,
        "panels": seeded.panels, "removable_panels": seeded.removable_panels, "deletable_panels": seeded.deletable_panels,
        # The consent text built in; any other version is a 404.
        "consent_versions": ["2026-12"],
        # The actions run last (DESTRUCTIVE), so they may move the shared fixes too.
        "all_fixes": seeded.fixes + seeded.lifecycle_fixes,
    }
    lines = []
    for name, values in dictionaries.items():
        lines += [f"[dictionaries.{name}]", "values = [" + ", ".join(toml_string(value) for value in values) + "]", ""]

    def binding(dictionary: str) -> str:
        return f'{{ dictionary = "{dictionary}", probability = {KNOWN} }}'

    # Parameters every operation shares by name: the fix key in paths, a tester in bodies and queries.
    lines += ["[parameters]",
              f'"path.key" = {binding("fixes")}',
              f'"query.fix" = {binding("fixes")}',
              f'"query.tester" = {binding("testers")}',
              f'"query.webhook" = {binding("webhooks")}',
              f'"body.tester" = {binding("testers")}',
              f'"body.testers[*]" = {binding("testers")}',
              f'"body.fixes[*]" = {binding("fixes")}',
              f'"body.panels[*]" = {binding("panels")}',
              f'"body.url" = {binding("receiver_urls")}',
              ""]
    # Identifiers by operation: what one operation changes (disables, withdraws) must not starve another.
    per_operation = [
        (["actOnFix"], {"path.key": "all_fixes"}),
        # A whole valid report at once (a seeded fix in testing, an enrolled tester, answers that agree) is a rare draw.
        (["submitFeedback"], {"path.key": "fixes"}),
        (["getTester", "updateTester", "exportTester", "createTesterLink", "listTesterLinks"], {"path.id": "testers"}),
        (["revokeTesterLink"], {"path.id": "link_testers", "path.link": "links"}),
        (["submitFeedback"], {"body.tester": "testers"}),
        (["withdrawTester"], {"path.id": "withdrawable_testers"}),
        (["unenrollTester"], {"path.tester": "withdrawable_testers"}),
        (["getWebhook", "testWebhook", "listWebhookDeliveries"], {"path.id": "webhooks"}),
        (["updateWebhook"], {"path.id": "changeable_webhooks"}),
        (["deleteWebhook"], {"path.id": "deletable_webhooks"}),
        (["redeliver"], {"path.id": "deliveries"}),
        (["revokeToken"], {"path.id": "tokens"}),
        (["getInvitation"], {"path.id": "invitations"}),
        (["revokeInvitation"], {"path.id": "revocable_invitations"}),
        (["getPanel", "addPanelMembers"], {"path.id": "panels"}),
        (["removePanelMember"], {"path.id": "removable_panels", "path.tester": "testers"}),
        (["deletePanel"], {"path.id": "deletable_panels"}),
        (["getConsentText"], {"path.version": "consent_versions"}),
        (["acrReport"], {"query.fixes": "fixes"}),
    ]
    for operation_ids, parameters in per_operation:
        lines += ["[[operations]]",
                  "include-operation-id = [" + ", ".join(toml_string(name) for name in operation_ids) + "]",
                  "parameters = { " + ", ".join(f'"{name}" = {binding(dictionary)}'
                                                for name, dictionary in parameters.items()) + " }"]
        if set(operation_ids) & MORE_EXAMPLES:
            lines += [f"generation = {{ max-examples = {MORE_EXAMPLES_COUNT} }}"]
        lines += [""]
    path.write_text("\n".join(lines), encoding="utf-8")


def documented_operations(document: dict) -> list[tuple[str, str, str]]:
    return [(method.upper(), path, operation.get("operationId", ""))
            for path, item in document["paths"].items()
            for method, operation in item.items() if method in HTTP_METHODS]


@dataclass
class Run:
    """What one schemathesis run did, from its JUnit and NDJSON reports."""
    name: str
    tested: set[str]  # JUnit test case names: "METHOD /path" and "Stateful tests"
    statuses: dict[str, collections.Counter]  # "METHOD /path" -> answers by status code
    requests: int
    problems: str | None  # the output when schemathesis found anything, else None


def run_schemathesis(vouchd, work: pathlib.Path, config: pathlib.Path, name: str, *options: str) -> Run:
    """Runs the schemathesis CLI and reads its reports; `problems` holds its output unless it found nothing."""
    junit = work / f"{name}.xml"
    events = work / f"{name}.ndjson"
    # The document is loaded from a file (the one the daemon served, saved) rather than from its URL: schemathesis
    # leaves out the operation that serves the document it loaded, and GET /v1/openapi.json must be tested too.
    document = work / "served-openapi.json"
    document.write_bytes(vouchd.call("GET", "/v1/openapi.json", token=None).body)
    command = [
        sys.executable, "-m", "schemathesis.cli", "--config-file", str(config), "--no-color",
        "run", str(document), "--url", vouchd.url,
        "--header", f"Authorization: Bearer {vouchd.admin_token}",
        # The token above is the one credential; generated Authorization values would only test 401s.
        "--generation-with-security-parameters", "false",
        "--checks", CHECKS, "--max-examples", MAX_EXAMPLES, "--seed", SEED, "--workers", "1",
        "--request-timeout", "10", "--generation-database", "none",
        "--report", "junit,ndjson", "--report-junit-path", str(junit), "--report-ndjson-path", str(events),
        *options,
    ]
    try:
        finished = subprocess.run(command, cwd=work, capture_output=True, text=True, timeout=150)
    except subprocess.TimeoutExpired as timeout:
        pytest.fail(f"schemathesis ({name}) ran longer than 150 s:\n{timeout.stdout or ''}", pytrace=False)
    output = (finished.stdout + finished.stderr).replace(vouchd.admin_token, "[admin token]")
    assert junit.exists() and events.exists(), f"schemathesis ({name}) wrote no report (exit {finished.returncode}):\n{output}"
    suites = ElementTree.parse(junit).getroot()
    clean = finished.returncode == 0 and suites.get("failures") == "0" and suites.get("errors") == "0"
    tested = {case.get("name") for case in suites.iter("testcase") if case.find("skipped") is None}
    statuses: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    answered: set[str] = set()
    with events.open(encoding="utf-8") as lines:
        for line in lines:
            event = json.loads(line)
            recorder = event.get("ScenarioFinished", {}).get("recorder", {})
            for case_id, interaction in recorder.get("interactions", {}).items():
                # A scenario may be reported more than once (while shrinking); each case counts once.
                response = interaction.get("response")
                if response is None or case_id in answered:
                    continue
                answered.add(case_id)
                case = recorder["cases"][case_id]["value"]
                statuses[f"{case['method']} {case['path']}"][response["status_code"]] += 1
    return Run(name=name, tested=tested, statuses=dict(statuses), requests=len(answered),
               problems=None if clean else f"schemathesis ({name}) found problems (exit {finished.returncode}):\n{output}")


def print_figures(name: str, run: Run) -> None:
    print(f"\nschemathesis run: {name}")
    print(f"operations tested: {len(run.tested - {'Stateful tests'})}")
    print(f"requests answered: {run.requests}")
    for operation in sorted(run.statuses):
        counts = ", ".join(f"{status}: {count}" for status, count in sorted(run.statuses[operation].items()))
        print(f"operation {operation}: {counts}")


def test_the_served_document_is_the_repository_file(vouchd):
    answer = vouchd.call("GET", "/v1/openapi.json", token=None)
    assert answer.status == 200
    assert answer.header("Content-Type") == "application/json"
    text = (REPOSITORY / "openapi" / "vouch.openapi.json").read_text(encoding="utf-8")
    # The build compiles the file in (Plugins/EmbedOpenAPIDocument); a difference means a stale vouchd.
    assert answer.body.decode("utf-8") == text, "vouchd serves another document than openapi/vouch.openapi.json: rebuild it"


def test_every_operation_keeps_to_the_document(vouchd, tmp_path, refusing_port):
    document = json.loads(vouchd.call("GET", "/v1/openapi.json", token=None).body)
    operations = documented_operations(document)
    assert len(operations) >= 43
    operation_ids = {operation_id for _, _, operation_id in operations}
    assert set(DESTRUCTIVE) <= operation_ids, f"not documented: {set(DESTRUCTIVE) - operation_ids}"
    seeded = seed(vouchd, f"http://127.0.0.1:{refusing_port}")
    config = tmp_path / "schemathesis.toml"
    write_config(config, seeded)

    exclude = [option for operation_id in DESTRUCTIVE for option in ("--exclude-operation-id", operation_id)]
    include = [option for operation_id in DESTRUCTIVE for option in ("--include-operation-id", operation_id)]
    everything_else = run_schemathesis(vouchd, tmp_path, config, "operations", *exclude)
    destructive = run_schemathesis(vouchd, tmp_path, config, "destructive", *include,
                                   "--phases", "examples,coverage,fuzzing")
    print_figures("every operation but the destructive ones, all phases", everything_else)
    print_figures("the destructive operations, without the stateful phase", destructive)
    print(f"operations documented: {len(operations)}")
    print(f"requests answered in all: {everything_else.requests + destructive.requests}")
    for run in (everything_else, destructive):
        assert run.problems is None, run.problems

    documented = {f"{method} {path}" for method, path, _ in operations}
    destroying = {f"{method} {path}" for method, path, operation_id in operations if operation_id in DESTRUCTIVE}
    assert everything_else.tested == (documented - destroying) | {"Stateful tests"}, (
        f"not tested: {sorted(documented - destroying - everything_else.tested)}; "
        f"not documented: {sorted(everything_else.tested - documented - {'Stateful tests'})}")
    assert destructive.tested == destroying

    # Each operation reached its success path at least once, not only its 404s and 422s.
    statuses = collections.defaultdict(collections.Counter)
    for run in (everything_else, destructive):
        for operation, counts in run.statuses.items():
            statuses[operation].update(counts)
    # The event stream's 2xx is a body that never ends, which a request-and-answer tool cannot read; its refusals
    # are checked here, its stream by EventStreamTests and the Chromium test (test_browser_cors.py).
    streaming = {"GET /ofrep/v1/event-stream"}
    without_success = sorted(operation for operation in documented - streaming
                             if not any(200 <= status < 300 for status in statuses[operation]))
    assert not without_success, f"operations that never answered 2xx: {without_success}"

    # The runs above used the admin token throughout; it must still work, and vouchd must have answered every request.
    assert vouchd.call("GET", "/v1/tokens?limit=1").status == 200
