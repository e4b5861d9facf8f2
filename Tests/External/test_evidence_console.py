"""The Accessibility Conformance Report page in a real Chromium (docs/evidence.md, "The report in the console").

A daemon with the operator and `report.product_name` set holds three testers' verdicts on a fix (test_evidence.py's
story); a release manager opens the report page in English and in Japanese, and each page, its empty form and its
error state for a bad day pass every check of console_checks.py: axe-core 4.10.2 with 0 violations, the
accessibility tree, headings and landmarks, reflow, text at 200 %, the keyboard's lap and skip link, and GOV.UK's
error pattern. Then the whole journey by keyboard alone: from the navigation to the form, the fix's key typed, Enter,
and Tab through the report's tables.
"""

from __future__ import annotations

import os
import subprocess
from typing import Iterator

import pytest
import yaml
from selenium.webdriver.common.by import By

from console_browser import ConsoleBrowser
from console_checks import axe_engine, check_page
from test_evidence import FIX, seed_feedback, vouch_binary

PRODUCT = "Example TV"


@pytest.fixture
def vouchd_environment() -> dict[str, str]:
    return {"VOUCHD_OPERATOR_NAME": "Example Media Ltd", "VOUCHD_OPERATOR_CONTACT": "privacy@example.com",
            "VOUCHD_REPORT_PRODUCT_NAME": PRODUCT}


@pytest.fixture(params=[True, False], ids=["javascript", "no-javascript"])
def javascript(request) -> bool:
    return request.param


@pytest.fixture
def release_manager(vouchd, javascript) -> Iterator[ConsoleBrowser]:
    seed_feedback(vouchd)
    token = vouchd.create_token("rita", "release_manager")
    browser = ConsoleBrowser(vouchd.url, javascript=javascript)
    try:
        browser.sign_in(token)
        yield browser
    finally:
        browser.close()


def problems_of(browser: ConsoleBrowser, *, axe: str | None) -> dict[str, list[str]]:
    return {check: found for check, found in check_page(browser.driver, signed_in=True, axe=axe).items() if found}


@pytest.mark.parametrize("language,title,caption", [
    ("en", f"{PRODUCT}: Accessibility Conformance Report – Vouch", "Table 1: Success criteria, Level A"),
    ("ja", f"{PRODUCT} のアクセシビリティ適合性レポート – Vouch", "表 1：達成基準（レベル A）"),
])
def test_the_report_page_passes_every_check_in_both_languages(release_manager, javascript, language, title, caption):
    browser = release_manager
    axe = axe_engine() if javascript else None
    for path, expected_title, status in [
        (f"/console/reports/acr?fixes={FIX}&lang={language}", title, 200),
        (f"/console/reports/acr?lang={language}", None, 200),
        (f"/console/reports/acr?fixes=&released_from=2026-02-30&released_to=&lang={language}", None, 422),
    ]:
        landed = browser.open(path)
        assert landed.status == status, f"{path} answered {landed.status} ({landed.title!r})"
        if expected_title:
            assert landed.title == expected_title
            captions = [element.text for element in browser.driver.find_elements(By.TAG_NAME, "caption")]
            assert captions[0] == caption and len(captions) == 3, captions
            assert browser.driver.find_elements(By.CSS_SELECTOR, "tbody th[scope=row]"), "each row headed by its criterion"
        found = problems_of(browser, axe=axe)
        assert not found, f"{path}:\n" + "\n".join(f"  {check}: {problem}" for check, items in found.items() for problem in items)


def test_a_release_manager_reads_the_report_by_keyboard_alone(release_manager):
    browser, keys = release_manager, release_manager.keys
    browser.open("/console/")
    opened = browser.after(lambda: keys.follow("Conformance report"), "Enter on the navigation's report link")
    assert opened.path == "/console/reports/acr" and opened.title == "Accessibility Conformance Report – Vouch", opened
    keys.fill("Fix keys", FIX)
    shown = browser.after(lambda: keys.follow("Show the report"), "Enter on Show the report")
    assert shown.status == 200 and shown.path.startswith(f"/console/reports/acr?fixes={FIX}"), shown
    assert shown.title == f"{PRODUCT}: Accessibility Conformance Report – Vouch"
    # Tab reaches the links after the tables: every table was passed through, with nothing taking the focus in them.
    focus = keys.tab_to("OpenACR (YAML)", limit=60)
    assert focus.tag == "a" and focus.in_main
    # Back to the fix the report covers: its page links to the report, and Enter opens it again.
    browser.open(f"/console/fixes/{FIX}")
    again = browser.after(lambda: keys.follow("Accessibility Conformance Report of this fix"), "Enter on the fix's report link")
    assert again.status == 200 and again.path == f"/console/reports/acr?fixes={FIX}", again
    text = browser.driver.find_element(By.TAG_NAME, "main").text
    # Levels said in words, the withdrawn tester's verdict counted without her.
    assert "Partially supports" in text and "Not evaluated" in text
    assert "Could not tell: 1 tester with TalkBack on Android" in text, text[:3000]
    for name in ("Aiko", "Ben", "Chloe"):
        assert name not in text


def test_the_cli_reports_on_the_configured_product_without_a_flag(vouchd):
    """`report.product_name` stands in for `--product`; the flag, when given, still names the product."""
    seed_feedback(vouchd)
    environment = {key: value for key, value in os.environ.items() if not key.startswith("VOUCH")}
    environment.update({"VOUCH_URL": vouchd.url, "VOUCH_TOKEN": vouchd.admin_token})
    for flags, product in [([], PRODUCT), (["--product", "Example Radio"], "Example Radio")]:
        finished = subprocess.run([vouch_binary(), "evidence", "report", "--fixes", FIX, "--format", "openacr", *flags],
                                  capture_output=True, text=True, env=environment, timeout=30)
        assert finished.returncode == 0 and finished.stderr == "", finished
        assert yaml.safe_load(finished.stdout)["product"]["name"] == product
