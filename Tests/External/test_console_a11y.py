"""Every console page and state, in a real Chromium, passes the machine checks of WCAG 2.2 AA.

For each role (nobody signed in, admin, release manager, maintainer, and a tester through her personal link) one
browser signs in and crawls every console page its links reach from the start page (console_fixtures.py); each
page gets every check of console_checks.py. The states beyond pages come from a second daemon with the same story,
where every form that asks for something is sent back empty, and the answering page is checked the same way.
A page added to the console is checked as soon as a link leads to it.

Each test reports every page that fails, with what is wrong, so one run shows everything to fix.
"""

from __future__ import annotations

import os
import struct

import pytest

from console_checks import AXE, ERRORS, KEYBOARD, OUTLINE, REFLOW, TEXT, TREE
from console_fixtures import assert_every_page_passes, failures, signed_in_browser
from conftest import REPOSITORY


def test_axe_core_finds_no_violation(checked):
    """axe-core 4.10.2 with the WCAG 2.0, 2.1 and 2.2 A and AA rules: 0 violations on every page and state."""
    assert_every_page_passes(checked, AXE)


def test_the_accessibility_tree_names_every_control(checked):
    """Chromium's accessibility tree: each link, button and field has a name, each element in the tab order a role."""
    assert_every_page_passes(checked, TREE)


def test_headings_landmarks_and_titles(checked):
    """One h1, no heading level skipped, banner, main, footer (and navigation when signed in), a title like the h1."""
    assert_every_page_passes(checked, OUTLINE)


def test_nothing_scrolls_sideways_at_320_css_pixels(checked):
    """WCAG 1.4.10 Reflow."""
    assert_every_page_passes(checked, REFLOW)


def test_text_at_200_percent_is_never_cut_off(checked):
    """WCAG 1.4.4 Resize text: the root font at 200 %, no text clipped and no sideways scrolling at 1280 px."""
    assert_every_page_passes(checked, TEXT)


def test_error_states_follow_the_govuk_pattern(checked, role):
    """"Error: " in the title, the summary focused on load, each summary link to a field showing the same message."""
    assert_every_page_passes(checked, ERRORS)
    states = checked[1].states
    shown = [state for state in states if state.title.startswith("Error: ")]
    if role == "anonymous":
        # The sign-in form is the one anybody can send empty: the error pattern is checked at least there.
        assert any(state.path.startswith("/console/sign-in") for state in shown), \
            f"the empty sign-in form did not answer with an error page: {[(s.path, s.title) for s in states]}"
    assert all(state.status not in (500, 502, 503) for state in states), \
        [(state.via, state.status, state.title) for state in states if state.status in (500, 502, 503)]


def test_every_page_works_without_javascript(console_site, role):
    """A browser with JavaScript switched off signs in the same way, reaches the same pages, and each passes the same
    checks (all but axe-core, which needs JavaScript)."""
    with_script = console_site.crawl(role)
    without = console_site.crawl(role, javascript=False)
    assert {page.path for page in without.pages} == {page.path for page in with_script.pages}, \
        "without JavaScript the crawl reaches other pages"
    for check in (ERRORS, TREE, OUTLINE, REFLOW, TEXT, KEYBOARD):
        report = failures([without], check)
        assert not report, "without JavaScript: " + report


def test_the_crawl_reaches_each_roles_start_page(console_site, role):
    """The crawl sees the console as each role does, so the checks above ran on the real pages."""
    pages = {page.path: page for page in console_site.crawl(role).pages}
    expected = {"anonymous": ("/console/sign-in", "Sign in – Vouch"), "tester": ("/console/", "Your fixes – Vouch")}
    path, title = expected.get(role, ("/console/", "Overview – Vouch"))
    assert path in pages and pages[path].title == title, {path: page.title for path, page in pages.items()}
    assert "/console/accessibility" in pages, "the footer's link to the accessibility statement was not followed"


def test_every_link_in_the_console_leads_to_a_page(console_site, role):
    """No link the console shows answers with an error (the error pages the crawl opens on purpose aside)."""
    pages = console_site.crawl(role).pages
    broken = [f"{page.path} ({page.status}, {page.title!r}), linked from {page.via}" for page in pages
              if page.via != "start page" and (page.status or 0) >= 400]
    assert not broken, "links to error pages:\n" + "\n".join(broken)


# The README's screenshots: (file name, role, address), each at a phone's width and a desktop's.
SCREENSHOTS = [
    ("sign-in", "anonymous", "/console/sign-in"),
    ("tester-start", "tester", "/console/"),
]
WIDTHS = {"phone": 390, "desktop": 1280}


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", data[16:24])


@pytest.mark.parametrize("name,who,path", SCREENSHOTS, ids=[name for name, _, _ in SCREENSHOTS])
def test_screenshots_of_the_main_pages(console_story, name, who, path):
    """Whole-page screenshots at 390 and 1280 CSS pixels; written to docs/screenshots only with VOUCH_SCREENSHOTS=1,
    so a test run never changes the working tree. A fresh browser, so no link shows as visited."""
    browser = signed_in_browser(console_story, who)
    try:
        landed = browser.open(path)
        assert landed.status == 200, f"{path} answered {landed.status}"
        for kind, width in WIDTHS.items():
            png = browser.screenshot(width)
            assert png_size(png)[0] == width, f"{name} at {kind} width is {png_size(png)[0]} px wide"
            if os.environ.get("VOUCH_SCREENSHOTS") == "1":
                target = REPOSITORY / "docs" / "screenshots" / f"{name}-{kind}.png"
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(png)
    finally:
        browser.close()
