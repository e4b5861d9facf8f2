"""The console in Japanese, in a real Chromium: every translated page passes every check of console_checks.py (axe-core's
html-has-lang, html-lang-valid and valid-lang among its WCAG rules) and says it is Japanese, for a tester through her
personal link, for somebody not signed in, with the sign-in form sent empty for its error state, and for each staff
role, whose crawl reaches every staff page its role may open.

The person chooses Japanese once, with the language link; the cookie it sets keeps every page after it in Japanese.
The crawl does not follow language links (console_browser.followed), so it stays in the language chosen.
"""

from __future__ import annotations

import re
import urllib.parse

import pytest

from console_browser import crawl, empty_form_states
from console_checks import check_page
from console_fixtures import signed_in_browser

LANGUAGE = "language"
# The pages whose words are all in the catalogs (docs/console.md, "Languages"), the feedback questions under
# /console/testing/ and the error pages among them, and of the staff pages the overview (/console/), the list of fixes,
# each fix's page, creating and editing a fix, its enrolled testers and direct targets, the decision on it and its
# lifecycle actions, the testers, adding one, a tester's page, her personal links and her withdrawal, the tokens and
# the webhooks, the panels and the audit log: every staff page.
TRANSLATED = ("/console/", "/console/welcome", "/console/my-feedback", "/console/my-data", "/console/my-data/withdraw",
              "/console/sign-in", "/console/signed-out", "/console/no-such-page", "/console/accessibility", "/console/fixes")
TRANSLATED_PREFIXES = ("/console/testing/",)
TRANSLATED_PATTERNS = (re.compile(r"/console/fixes/[^/]+"),
                       re.compile(r"/console/fixes/[^/]+/(edit|start|revise|abandon|decision|pause|resume|rollback|promote|retry-promotion"
                                  r"|enrollments|targets|criteria)"),
                       re.compile(r"/console/fixes/[^/]+/enrollments/[^/]+/remove"),
                       re.compile(r"/console/testers"), re.compile(r"/console/testers/[^/]+(/withdraw|/edit|/links/[^/]+/revoke)?"),
                       re.compile(r"/console/tokens(/new|/[^/]+/revoke)?"), re.compile(r"/console/webhooks(/[^/]+)*"),
                       re.compile(r"/console/panels(/[^/]+)*"), re.compile(r"/console/audit"))
STAFF = ("admin", "release_manager", "maintainer")


def translated(path: str) -> bool:
    path = urllib.parse.urlsplit(path).path
    return path in TRANSLATED or path.startswith(TRANSLATED_PREFIXES) or any(p.fullmatch(path) for p in TRANSLATED_PATTERNS)


def japanese_crawl(story, axe, role: str, starts: list[str]):
    browser = signed_in_browser(story, role)
    try:
        browser.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": axe})
        chosen = browser.open(starts[0] + "?lang=ja")
        assert chosen.status == 200, chosen

        def check(checked):
            problems = check_page(checked.driver, signed_in=role != "anonymous", axe=axe)
            language = checked.driver.execute_script("return document.documentElement.lang")
            if translated(checked.here()) and language != "ja":
                problems[LANGUAGE] = [f"a translated page in lang={language!r} after choosing 日本語"]
            return problems

        pages = crawl(browser, starts, check)
        states = empty_form_states(browser, pages, check) if role == "anonymous" else []
        if role != "anonymous":
            # A personal link keeps at most five sessions and ends the oldest: this one must not end the tester
            # sessions the other console tests hold.
            browser.sign_out()
        return pages, states
    finally:
        browser.close()


@pytest.mark.parametrize(("role", "starts"), [("tester", ["/console/", "/console/welcome", "/console/no-such-page"]),
                                              ("anonymous", ["/console/sign-in", "/console/signed-out", "/console/no-such-page"])]
                         + [(staff, ["/console/", "/console/fixes", "/console/no-such-page"]) for staff in STAFF])
def test_translated_pages_in_japanese_pass_every_check(console_story, axe, role, starts):
    pages, states = japanese_crawl(console_story, axe, role, starts)
    reached = {urllib.parse.urlsplit(page.path).path for page in pages}
    if role == "tester":
        assert any(path.startswith("/console/testing/") for path in reached), reached
    if role in STAFF:
        assert any(TRANSLATED_PATTERNS[0].fullmatch(path) for path in reached), f"no fix page reached: {reached}"
        japanese = [page.path for page in pages if translated(page.path) and page.status == 200]
        assert len(japanese) >= 3, japanese
    assert {path for path in TRANSLATED if path in reached} >= set(starts), reached
    failed = [f"{page.path} ({page.status}, {page.title!r}), reached from {page.via}:\n"
              + "\n".join(f"  - {check}: {problem}" for check, problems in page.problems.items() for problem in problems)
              for page in pages + states if any(page.problems.values())]
    assert not failed, f"{len(failed)} of {len(pages + states)} pages and states fail:\n" + "\n".join(failed)
    if role == "anonymous":
        assert any(state.title.startswith("エラー: ") for state in states), [(state.path, state.title) for state in states]
