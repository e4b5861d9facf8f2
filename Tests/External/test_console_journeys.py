"""Whole journeys in the console with the keyboard alone (Tab, Shift+Tab, Enter, Space, the arrow keys), each with
JavaScript on and off, on a daemon of their own so the crawls of the other modules see the story as told:

- a tester opens her personal link and gives feedback, one question per page, checks her answers and sends them;
- a release manager reads the fix page and approves the fix after the confirmation page.

Every page a journey passes through gets every check of console_checks.py (axe-core with JavaScript on), so the
states only a journey reaches (check your answers, the confirmation, the approval's confirmation) are checked too.
With VOUCH_SCREENSHOTS=1 the journey with JavaScript on writes the README's screenshots of those pages.
"""

from __future__ import annotations

import os
from typing import Iterator

import pytest

from conftest import REPOSITORY
from console_browser import ConsoleBrowser
from console_checks import check_page
from console_fixtures import Story, _daemon


@pytest.fixture(scope="module")
def journey_story(tmp_path_factory) -> Iterator[Story]:
    with _daemon(tmp_path_factory.mktemp("console-journeys") / "state") as story:
        yield story


@pytest.fixture(params=[True, False], ids=["javascript", "no-javascript"])
def javascript(request) -> bool:
    return request.param


def checked(browser: ConsoleBrowser, axe: str, javascript: bool, *, signed_in: bool = True) -> None:
    """Every check on the page the journey reached; fails naming the page and each problem."""
    problems = check_page(browser.driver, signed_in=signed_in, axe=axe if javascript else None)
    found = {check: found for check, found in problems.items() if found}
    assert not found, f"{browser.here()}: " + "; ".join(f"{check}: {', '.join(items)}" for check, items in found.items())


def screenshot(browser: ConsoleBrowser, name: str, javascript: bool) -> None:
    """The page at a phone's and a desktop's width, into docs/screenshots with VOUCH_SCREENSHOTS=1 only; without the
    focus ring the checks left on some element."""
    browser.driver.execute_script("document.activeElement && document.activeElement.blur()")
    for kind, width in {"phone": 390, "desktop": 1280}.items():
        png = browser.screenshot(width)
        if javascript and os.environ.get("VOUCH_SCREENSHOTS") == "1":
            (REPOSITORY / "docs" / "screenshots" / f"{name}-{kind}.png").write_bytes(png)


def web_feedback(story: Story) -> list[dict]:
    recorded = story.vouchd.expect(200, "GET", f"/v1/fixes/{story.fix_in_testing}/feedback?limit=500")["feedback"]
    return [record for record in recorded if record["channel"] == "web"]


def test_a_tester_gives_feedback_with_the_keyboard_only(journey_story, axe, javascript):
    story = journey_story
    before = len(web_feedback(story))
    browser = ConsoleBrowser(story.vouchd.url, javascript=javascript)
    keys = browser.keys
    try:
        browser.open_link(story.tester.link)
        home = browser.after(lambda: keys.follow("Continue to your fixes"), "Enter on Continue to your fixes")
        assert home.title == "Your fixes – Vouch", home
        fix = browser.after(lambda: keys.follow(story.fix_in_testing_title), "Enter on the fix")
        assert fix.path == f"/console/testing/{story.fix_in_testing}", fix
        checked(browser, axe, javascript)

        def page(title: str, action, what: str) -> None:
            landed = browser.after(action, what)
            assert landed.status in (200, None) and landed.title == f"{title} – Vouch", landed

        page("Which device did you test on?", lambda: keys.follow("Give feedback"), "Enter on Give feedback")
        keys.fill("Operating system version", "18.2").fill("Version or build of the app", "5.12 (2041)")
        page("Which assistive technology did you use?", lambda: keys.follow("Continue"), "Continue after the device")
        keys.choose("VoiceOver")
        page("Did the fix work?", lambda: keys.follow("Continue"), "Continue after the technology")
        checked(browser, axe, javascript)
        screenshot(browser, "feedback-question", javascript)
        keys.choose("Yes, it works")
        page("Could you do what you set out to do in the TV channel selector?", lambda: keys.follow("Continue"), "Continue after the verdict")
        keys.choose("Yes, on my own")
        page("How bad is the worst problem that is left?", lambda: keys.follow("Continue"), "Continue after the task")
        keys.choose("No problem left")
        page("What did VoiceOver tell you in the TV channel selector?", lambda: keys.follow("Continue"),
             "Continue after the severity")
        # The fix's criteria (1.1.1, 4.1.2) are about the name, the kind and the state: three questions, not the order.
        for answer in ("Yes", "Yes", "Yes"):
            keys.choose(answer)
            keys.tab()
        page("What did VoiceOver say? (optional)", lambda: keys.follow("Continue"), "Continue after the announcements")
        keys.tab_to("What did VoiceOver say")
        keys.type("NHK, button, selected")
        page("Did anything else stop working while the fix was on?", lambda: keys.follow("Continue"), "Continue after what she heard")
        keys.choose("No")
        page("Is there anything else you want to tell the team? (optional)", lambda: keys.follow("Continue"), "Continue after regression")
        check = browser.after(lambda: keys.follow("Continue"), "Continue after the comment")
        assert check.path.endswith("/feedback/check"), check
        checked(browser, axe, javascript)
        screenshot(browser, "check-answers", javascript)
        assert "NHK, button, selected" in browser.driver.page_source

        sent = browser.after(lambda: keys.follow("Send feedback"), "Enter on Send feedback")
        assert sent.path.endswith("/feedback/sent"), sent
        checked(browser, axe, javascript)
        screenshot(browser, "feedback-sent", javascript)
    finally:
        browser.close()
    web = web_feedback(story)
    assert len(web) == before + 1, f"{len(web) - before} feedback recorded, not 1"
    assert all(record["tester"] == story.tester.id and record["heard"] == "NHK, button, selected" for record in web), web


def test_a_release_manager_approves_with_the_keyboard_only(journey_story, axe, javascript):
    """One vote per person and revision: each run is another release manager's."""
    story = journey_story
    name = "rita-keys" if javascript else "rosa-keys"
    browser = ConsoleBrowser(story.vouchd.url, javascript=javascript)
    keys = browser.keys
    try:
        browser.sign_in(story.vouchd.create_token(name, "release_manager"))
        fixes = browser.after(lambda: keys.follow("Fixes"), "Enter on Fixes")
        assert fixes.path == "/console/fixes", fixes
        fix = browser.after(lambda: keys.follow(story.fix_in_testing_title), "Enter on the fix")
        assert fix.path == f"/console/fixes/{story.fix_in_testing}", fix
        checked(browser, axe, javascript)
        screenshot(browser, "fix-page", javascript)

        decision = browser.after(lambda: keys.follow("Approve or reject"), "Enter on Approve or reject")
        assert decision.path.endswith("/decision"), decision
        keys.choose("Approve")
        keys.fill("Comment", "VoiceOver users confirm the channel names are read")
        confirm = browser.after(lambda: keys.follow("Continue"), "Continue after the decision")
        assert confirm.title.startswith("Approve "), confirm
        checked(browser, axe, javascript)
        screenshot(browser, "approval-confirmation", javascript)

        done = browser.after(lambda: keys.follow("Confirm approval"), "Enter on Confirm approval")
        assert done.path == f"/console/fixes/{story.fix_in_testing}?done=approved", done
        assert "Your approval is recorded" in browser.driver.page_source
    finally:
        browser.close()
    approvals = story.vouchd.expect(200, "GET", f"/v1/fixes/{story.fix_in_testing}/approvals")["approvals"]
    assert any(approval["decision"] == "approve" and approval["principal"] == name for approval in approvals), approvals
