"""Schemathesis against a live vouchd, driven by the document the daemon itself serves at /v1/openapi.json.

Checks: no 5xx (not_a_server_error) and every answer matches the document (response_schema_conformance).
Bounded: at most 20 examples per operation, one worker and a fixed seed, so a run takes seconds and repeats.
"""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

import pytest

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]

CHECKS = "not_a_server_error,response_schema_conformance"
HTTP_METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}
# DELETE /v1/tokens/{id} is fuzzed on its own, without the stateful phase: that phase lists the tokens and
# would revoke the admin token the run itself uses, leaving every later request a 401.
REVOKE = "revokeToken"


def documented_operations(document: dict) -> list[tuple[str, str, str]]:
    return [(method.upper(), path, operation.get("operationId", ""))
            for path, item in document["paths"].items()
            for method, operation in item.items() if method in HTTP_METHODS]


def run_schemathesis(vouchd, work: pathlib.Path, name: str, *options: str) -> ElementTree.Element:
    """Runs the schemathesis CLI; fails the test with its output unless it exits 0. Returns the JUnit report."""
    report = work / f"{name}.xml"
    command = [
        sys.executable, "-m", "schemathesis.cli", "run", f"{vouchd.url}/v1/openapi.json", "--no-color",
        "--header", f"Authorization: Bearer {vouchd.admin_token}",
        # The token above is the one credential; generated Authorization values would only test 401s.
        "--generation-with-security-parameters", "false",
        "--checks", CHECKS, "--max-examples", "20", "--seed", "20250301", "--workers", "1",
        "--request-timeout", "10", "--generation-database", "none",
        "--report", "junit", "--report-junit-path", str(report),
        *options,
    ]
    try:
        finished = subprocess.run(command, cwd=work, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired as timeout:
        pytest.fail(f"schemathesis ({name}) ran longer than 120 s:\n{timeout.stdout or ''}", pytrace=False)
    output = (finished.stdout + finished.stderr).replace(vouchd.admin_token, "[admin token]")
    assert finished.returncode == 0, f"schemathesis ({name}) found problems (exit {finished.returncode}):\n{output}"
    assert report.exists(), f"schemathesis ({name}) wrote no report:\n{output}"
    suites = ElementTree.parse(report).getroot()
    assert suites.get("failures") == "0" and suites.get("errors") == "0", output
    return suites


def operations_in(report: ElementTree.Element) -> set[str]:
    return {case.get("name") for case in report.iter("testcase") if case.find("skipped") is None}


def test_the_served_document_is_the_repository_file(vouchd):
    answer = vouchd.call("GET", "/v1/openapi.json", token=None)
    assert answer.status == 200
    assert answer.header("Content-Type") == "application/json"
    text = (REPOSITORY / "openapi" / "vouch.openapi.json").read_text(encoding="utf-8")
    # scripts/embed-openapi drops the file's final line feed; a difference means a stale build or a missed embed.
    assert answer.body.decode("utf-8") + "\n" == text, "vouchd serves another document: run scripts/embed-openapi and rebuild"


def test_every_operation_keeps_to_the_document(vouchd, tmp_path):
    document = json.loads(vouchd.call("GET", "/v1/openapi.json", token=None).body)
    operations = documented_operations(document)
    assert len(operations) >= 17
    assert any(operation_id == REVOKE for _, _, operation_id in operations)

    everything_else = run_schemathesis(vouchd, tmp_path, "operations", "--exclude-operation-id", REVOKE)
    # Schemathesis leaves out the operation that serves the document it loaded; the test above covers that one.
    expected = {f"{method} {path}" for method, path, operation_id in operations
                if operation_id != REVOKE and path != "/v1/openapi.json"}
    tested = operations_in(everything_else)
    assert expected <= tested, f"schemathesis did not test {sorted(expected - tested)}"
    assert "Stateful tests" in tested

    revoke = run_schemathesis(vouchd, tmp_path, "revoke", "--include-operation-id", REVOKE,
                              "--phases", "examples,coverage,fuzzing")
    assert operations_in(revoke) == {"DELETE /v1/tokens/{id}"}

    # The runs above used the admin token throughout; it must still work, and vouchd must have answered every request.
    assert vouchd.call("GET", "/v1/tokens?limit=1").status == 200
