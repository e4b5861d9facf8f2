"""Joining through an invitation in a real Chromium with the keyboard alone (docs/invitations.md, "Joining"), in
Japanese and in English, with JavaScript on and off: the consent text, each question and its error state, the check
page, joining, her home page with the fix the invitation enrolled her in, and her first feedback on it. With JavaScript on every page gets every
check of console_checks.py (axe-core's html-has-lang and valid-lang among its rules, reflow at 320 CSS pixels, the
keyboard's lap). Declining, or stopping half-way, keeps nothing: no tester, no use of the invitation.
"""

from __future__ import annotations

from typing import Iterator

import pytest

from conftest import Vouchd, launch_vouchd, stop_vouchd
from console_browser import ConsoleBrowser
from console_checks import check_page

FIX = "tv-channel-selector-labels"
FIX_TITLE = "Label the channel logos"

WORDS = {
    "ja": {"title": "テストプログラムへの参加", "agree": "同意して進む", "decline": "参加しない", "continue": "次へ", "join": "参加する",
           "home": "修正の一覧へ進む", "stop": "やめて回答を削除する", "name": "どのようにお呼びすればよいですか",
           "email": "メールアドレスを教えてください", "technology": "支援技術", "platform": "プラットフォーム", "browser": "ブラウザー",
           "code": "テスターコードを入力してください", "web": "ウェブ", "joined": "参加しました", "declined": "参加しませんでした",
           "error": "エラー: ", "person": "山田花子", "give": "フィードバックを送る", "next": "次へ進む", "send": "フィードバックを送信する"},
    "en": {"title": "Join the testing programme", "agree": "I agree, continue", "decline": "No, thank you", "continue": "Continue",
           "join": "Join", "home": "Continue to your fixes", "stop": "Stop and delete my answers", "name": "What name should we use for you",
           "email": "What is your email address", "technology": "Technology", "platform": "Platform", "browser": "Browser",
           "code": "What is your tester code", "web": "Web", "joined": "You have joined", "declined": "You did not join",
           "error": "Error: ", "person": "Hana Yamada", "give": "Give feedback", "next": "Continue", "send": "Send feedback"},
}


@pytest.fixture(scope="module")
def joining_daemon(tmp_path_factory) -> Iterator[Vouchd]:
    daemon = launch_vouchd(tmp_path_factory.mktemp("console-joining") / "state",
                           {"VOUCHD_OPERATOR_NAME": "Example Media Ltd", "VOUCHD_OPERATOR_CONTACT": "privacy@example.com"})
    try:
        daemon.expect(201, "POST", "/v1/fixes", {"key": FIX, "title": FIX_TITLE, "ui_area": "TV channel selector", "platforms": ["ios"],
                                                 "wcag": ["1.1.1"], "expected_announcement": "NHK, button, selected"})
        daemon.expect(200, "POST", f"/v1/fixes/{FIX}/start")
        yield daemon
    finally:
        status = stop_vouchd(daemon)
        assert status == 0, f"vouchd exited with {status} after SIGTERM:\n" + "\n".join(daemon.log)
        errors = [line for line in daemon.log if "level=error" in line]
        assert not errors, "vouchd logged errors:\n" + "\n".join(errors)


@pytest.fixture(params=[True, False], ids=["javascript", "no-javascript"])
def javascript(request) -> bool:
    return request.param


def invitation(daemon: Vouchd, language: str) -> str:
    url = daemon.expect(201, "POST", "/v1/invitations", {"fixes": [FIX], "language": language})["url"]
    return url[url.index("/console/join/"):]


def registered_testers(daemon: Vouchd) -> list[dict]:
    return daemon.expect(200, "GET", "/v1/testers?limit=500")["testers"]


def checked(browser: ConsoleBrowser, axe: str, javascript: bool, *, signed_in: bool = False, language: str) -> None:
    """Every check on the page reached, and its language; fails naming the page and each problem."""
    problems = check_page(browser.driver, signed_in=signed_in, axe=axe if javascript else None)
    found = {check: items for check, items in problems.items() if items}
    assert not found, f"{browser.here()}: " + "; ".join(f"{check}: {', '.join(items)}" for check, items in found.items())
    assert browser.driver.execute_script("return document.documentElement.lang") == language, browser.here()


def choose_from_list(browser: ConsoleBrowser, label: str, option: str) -> None:
    """Tabs to the list labelled `label` and presses the down arrow until `option` is chosen, as a keyboard user does."""
    focus = browser.keys.tab_to(label)
    assert focus.tag == "select", f"{label!r} reached {focus.description}, not a list"
    for _ in range(40):
        if browser.driver.execute_script("return document.activeElement.selectedOptions[0].text") == option:
            return
        browser.keys.press("ArrowDown")
    raise AssertionError(f"the down arrow never chose {option!r} in {label!r}")


GROUP_ANSWERED = "return Boolean(document.querySelector(`input[type=radio][name='${arguments[0]}']:checked`))"


def answer_with_keyboard(browser: ConsoleBrowser, continue_words: str):
    """Answers a question page as a keyboard user in a hurry does: Tab through the form, Space on the first option of
    each radio group not answered yet, "1" in each empty text field, Enter on the Continue button."""
    keys = browser.keys
    for _ in range(80):
        focus = keys.tab().focused()
        if not focus.in_main:
            continue
        if focus.type == "radio" and not browser.driver.execute_script(GROUP_ANSWERED, focus.name):
            keys.space()
        elif focus.tag == "input" and focus.type == "text" and not browser.driver.execute_script("return document.activeElement.value"):
            keys.type("1")
        elif focus.tag == "button" and focus.matches(continue_words):
            return browser.after(keys.enter, f"Continue on {browser.here()}")
    raise AssertionError(f"80 Tabs never reached {continue_words!r} on {browser.here()}")


def type_into(browser: ConsoleBrowser, label: str, text: str) -> None:
    focus = browser.keys.tab_to(label)
    assert focus.tag == "input", f"{label!r} reached {focus.description}, not a field"
    # Japanese is typed through an input method, which commits whole words: insertText is what it sends.
    browser.driver.execute_cdp_cmd("Input.insertText", {"text": text})


@pytest.mark.parametrize("language", ["ja", "en"])
def test_a_person_joins_with_the_keyboard_only(joining_daemon, axe, javascript, language):
    daemon = joining_daemon
    words = WORDS[language]
    before = {tester["id"] for tester in registered_testers(daemon)}
    browser = ConsoleBrowser(daemon.url, javascript=javascript)
    keys = browser.keys
    try:
        if javascript:
            browser.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": axe})
        consent = browser.open(invitation(daemon, language))
        assert consent.status == 200 and consent.title == f"{words['title']} – Vouch", consent
        assert "Example Media Ltd" in browser.driver.page_source and "privacy@example.com" in browser.driver.page_source
        checked(browser, axe, javascript, language=language)

        def step(action_words: str, what: str):
            landed = browser.after(lambda: keys.follow(action_words), what)
            assert landed.status in (200, 422, None), landed
            checked(browser, axe, javascript, language=language)
            return landed

        name = step(words["agree"], "agreeing")
        assert name.title.startswith(words["name"]), name
        empty = step(words["continue"], "sending the name empty")
        assert empty.title.startswith(words["error"]), empty
        type_into(browser, words["name"], words["person"])
        email = step(words["continue"], "the name")
        assert email.title.startswith(words["email"]), email
        type_into(browser, words["email"], "hana@example.com")
        step(words["continue"], "the email")
        choose_from_list(browser, words["technology"], "VoiceOver")
        choose_from_list(browser, words["platform"], "iOS")
        choose_from_list(browser, words["technology"], "NVDA")
        choose_from_list(browser, words["platform"], words["web"])
        choose_from_list(browser, words["browser"], "Firefox")
        code = step(words["continue"], "the assistive technologies")
        assert code.title.startswith(words["code"]), code
        type_into(browser, words["code"], f"user-join-{language}-{javascript}")
        step(words["continue"], "the tester code")
        check = step(words["continue"], "the language, chosen already")
        assert check.path == "/console/joining/check", check
        assert words["person"] in browser.driver.page_source and "Firefox" in browser.driver.page_source
        joined = step(words["join"], "joining")
        assert joined.title == f"{words['joined']} – Vouch", joined
        assert "/console/link/" in browser.driver.page_source
        home = browser.after(lambda: keys.follow(words["home"]), "her home page")
        assert home.path == "/console/", home
        checked(browser, axe, javascript, signed_in=True, language=language)
        assert FIX_TITLE in browser.driver.page_source, "the invitation's fix is not on her home page"
        fix = browser.after(lambda: keys.follow(FIX_TITLE), "the fix")
        assert fix.path == f"/console/testing/{FIX}", fix
        browser.after(lambda: keys.follow(words["give"]), "giving feedback")
        for _ in range(20):
            if browser.here().endswith("/feedback/check"):
                break
            answer_with_keyboard(browser, words["next"])
            checked(browser, axe, javascript, signed_in=True, language=language)
        assert browser.here().endswith("/feedback/check"), browser.here()
        sent = browser.after(lambda: keys.follow(words["send"]), "sending the feedback")
        assert sent.path.endswith("/feedback/sent"), sent
        checked(browser, axe, javascript, signed_in=True, language=language)
        browser.sign_out()
    finally:
        browser.close()
    joined_now = [tester for tester in registered_testers(daemon) if tester["id"] not in before]
    assert len(joined_now) == 1, joined_now
    tester = joined_now[0]
    assert tester["consent"]["given_by"] == "tester" and tester["consent"]["language"] == language, tester
    assert tester["assistive_tech"][1] == {"name": "nvda", "platform": "web", "version": None, "browser": "firefox"}, tester
    assert tester["id"] in [enrolled["tester"] for enrolled in daemon.expect(200, "GET", f"/v1/fixes/{FIX}/enrollments")["enrollments"]]
    feedback = daemon.expect(200, "GET", f"/v1/fixes/{FIX}/feedback?limit=500")["feedback"]
    assert [record["channel"] for record in feedback if record["tester"] == tester["id"]] == ["web"], feedback
    text = daemon.expect(200, "GET", f"/v1/consent-texts/{tester['consent']['version']}/{language}")
    assert text["first_agreed_at"] is not None and "Example Media Ltd" in text["text"]


@pytest.mark.parametrize("language", ["ja", "en"])
def test_declining_or_stopping_half_way_keeps_nothing(joining_daemon, axe, language):
    daemon = joining_daemon
    words = WORDS[language]
    before = registered_testers(daemon)
    browser = ConsoleBrowser(daemon.url, javascript=True)
    keys = browser.keys
    try:
        browser.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": axe})
        declining = invitation(daemon, language)
        browser.open(declining)
        declined = browser.after(lambda: keys.follow(words["decline"]), "declining")
        assert declined.title == f"{words['declined']} – Vouch", declined
        checked(browser, axe, True, language=language)

        stopping = invitation(daemon, language)
        browser.open(stopping)
        browser.after(lambda: keys.follow(words["agree"]), "agreeing")
        type_into(browser, words["name"], words["person"])
        browser.after(lambda: keys.follow(words["continue"]), "the name")
        stopped = browser.after(lambda: keys.follow(words["stop"]), "stopping")
        assert stopped.title == f"{words['declined']} – Vouch", stopped
    finally:
        browser.close()
    assert registered_testers(daemon) == before
    for invited in daemon.expect(200, "GET", "/v1/invitations")["invitations"]:
        if invited["status"] == "active":
            assert invited["uses_made"] == 0, invited
