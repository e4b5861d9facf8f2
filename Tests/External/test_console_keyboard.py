"""The console with a keyboard alone: on every page, and through whole journeys.

Every page and state the crawls reach (console_fixtures.py) gets the keyboard check of console_checks.py: the first
Tab reaches the skip link and Enter moves into main; Tab reaches every element in reading order with a visible
focus indicator, Shift+Tab goes back, and Tab leaves the page at the end (no trap).

The journeys press keys only (console_keyboard.py): Tab, Shift+Tab, Enter, Space and the arrow keys. Each runs with
JavaScript on and off.
"""

from __future__ import annotations

from typing import Iterator

import pytest

import chromium
from console_browser import ConsoleBrowser
from console_checks import KEYBOARD
from console_fixtures import assert_every_page_passes


def test_every_page_and_state_works_with_the_keyboard(checked):
    assert_every_page_passes(checked, KEYBOARD)


@pytest.fixture(params=[True, False], ids=["javascript", "no-javascript"])
def javascript(request) -> bool:
    return request.param


@pytest.fixture
def fresh_browser(javascript, console_story) -> Iterator[ConsoleBrowser]:
    """A browser of its own, signed in as nobody, with JavaScript on or off."""
    browser = ConsoleBrowser(console_story.vouchd.url, javascript=javascript)
    try:
        yield browser
    finally:
        browser.close()


def test_staff_sign_in_with_the_keyboard_only(fresh_browser, console_story):
    browser, keys = fresh_browser, fresh_browser.keys
    browser.open("/console/sign-in")
    keys.fill("Your token", console_story.tokens["release_manager"])
    landed = browser.after(keys.enter, "Enter in the token field")
    assert (landed.path, landed.title) == ("/console/", "Overview – Vouch"), landed
    assert "Signed in as rita, release manager" in browser.driver.page_source

    signed_out = browser.after(lambda: keys.follow("Sign out"), "Enter on Sign out")
    assert (signed_out.path, signed_out.title) == ("/console/signed-out", "You have signed out – Vouch"), signed_out


def test_the_error_summary_takes_the_keyboard_to_the_field(fresh_browser, console_story):
    """Sending the sign-in form empty: the summary has the focus, Tab and Enter reach the field, and the token typed
    there signs in."""
    browser, keys = fresh_browser, fresh_browser.keys
    browser.open("/console/sign-in")
    keys.tab_to("Sign in")
    refused = browser.after(keys.enter, "Enter on Sign in with no token")
    assert (refused.status, refused.title) == (422, "Error: Sign in – Vouch"), refused
    assert "error-summary" in keys.focused().description, f"the focus is on {keys.focused().description}"

    link = keys.tab().focused()
    assert (link.label, link.href) == ("Enter your token", "#field-token"), link
    field = keys.enter().focused()
    assert field.id == "field-token", f"the summary's link moved the focus to {field.description}"

    keys.type(console_story.tokens["maintainer"])
    landed = browser.after(keys.enter, "Enter in the token field")
    assert (landed.path, landed.title) == ("/console/", "Overview – Vouch"), landed


def test_a_tester_reaches_her_fixes_with_the_keyboard_only(fresh_browser, console_story):
    browser, keys = fresh_browser, fresh_browser.keys
    browser.open_link(console_story.tester.link)
    home = browser.after(lambda: keys.follow("Continue to your fixes"), "Enter on Continue to your fixes")
    assert (home.path, home.title) == ("/console/", "Your fixes – Vouch"), home

    fix = keys.tab_to(console_story.fix_in_testing_title)
    assert fix.href == f"/console/testing/{console_story.fix_in_testing}", fix


# A question as the feedback pages ask it (RadioGroup's markup), sent with GET so the test can read the answer.
QUESTION = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Did it work? – Vouch</title></head><body>
<main id="main-content" tabindex="-1"><form method="get" action="/"><fieldset><legend><h1>Did the fix work?</h1></legend>
<div><input id="field-verdict" name="verdict" type="radio" value="passed"><label for="field-verdict">It worked</label></div>
<div><input id="field-verdict-2" name="verdict" type="radio" value="partial"><label for="field-verdict-2">It partly worked</label></div>
<div><input id="field-verdict-3" name="verdict" type="radio" value="failed"><label for="field-verdict-3">It did not work</label></div>
<div><input id="field-verdict-4" name="verdict" type="radio" value="unsure"><label for="field-verdict-4">I can't tell</label></div>
</fieldset><button type="submit">Continue</button></form></main></body></html>"""


def test_the_keyboard_answers_a_question_with_the_arrow_keys(javascript):
    """The journey helpers the feedback and approval journeys use: into a radio group with Tab, to an option with
    the arrow keys, then Enter on the button."""
    server = chromium.PageServer()
    browser = ConsoleBrowser(server.origin, javascript=javascript)
    try:
        browser.open(server.publish(QUESTION).removeprefix(server.origin))
        chosen = browser.keys.choose("It partly worked")
        assert (chosen.id, chosen.checked) == ("field-verdict-2", True), chosen
        browser.after(lambda: browser.keys.follow("Continue"), "Enter on Continue")
        assert browser.driver.current_url.endswith("/?verdict=partial"), browser.driver.current_url
    finally:
        browser.close()
        server.close()
