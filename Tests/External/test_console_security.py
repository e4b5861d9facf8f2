"""The console's protections as a real browser sees them.

Cookies as Chromium stored them (HttpOnly, SameSite=Strict, Path=/console/) and unreadable by a page's script; a
tester refused every page only staff reach; a second tester's personal link shows nothing of the first tester's.
The staff pages and the tester's pages are the ones the crawls found (console_fixtures.py), so a new page is
covered as soon as a link leads to it.
"""

from __future__ import annotations

import pytest

from console_fixtures import signed_in_browser

REFUSALS = {403: "You cannot do this – Vouch", 404: "Page not found – Vouch"}
STAFF = ("admin", "release_manager", "maintainer")


@pytest.mark.parametrize("who", ["admin", "tester"])
def test_console_cookies_are_http_only_strict_and_kept_to_the_console(console_site, who):
    browser = console_site.browser(who)
    browser.open("/console/")
    cookies = browser.driver.get_cookies()
    session = [cookie for cookie in cookies if cookie["name"] == "vouch_console"]
    assert len(session) == 1, f"the browser holds {cookies}"
    for cookie in cookies:
        assert cookie["httpOnly"] is True, f"{cookie['name']} can be read by scripts"
        assert cookie["sameSite"] == "Strict", f"{cookie['name']} is SameSite={cookie['sameSite']}"
        assert cookie["path"] == "/console/", f"{cookie['name']} has Path={cookie['path']}"
        assert cookie["secure"] is False, "plain HTTP on 127.0.0.1: Secure would keep the cookie from coming back"
    readable = browser.driver.execute_script("return document.cookie")
    assert session[0]["value"] not in readable and "vouch_console" not in readable, f"document.cookie shows {readable!r}"


def test_a_tester_is_refused_every_staff_page(console_site, console_story):
    """Every page a staff role reaches and the tester's own links do not: refused (403), or not there for her (404)."""
    own = {page.path for page in console_site.crawl("tester").pages}
    staff_pages = sorted({page.path for role in STAFF for page in console_site.crawl(role).pages} - own)
    assert staff_pages, "the staff crawls found no page the tester does not reach"
    # A session of its own, opened now: a personal link keeps at most five and ends the oldest, so one the crawls
    # opened earlier may have ended while the other console tests opened theirs.
    browser = signed_in_browser(console_story, "tester")
    shown = []
    try:
        for path in staff_pages:
            landed = browser.open(path)
            if REFUSALS.get(landed.status) != landed.title:
                shown.append(f"{path}: {landed.status} {landed.title!r}")
        assert browser.open("/console/").title != "Sign in – Vouch", "the tester's session ended during the test"
        browser.sign_out()
    finally:
        browser.close()
    assert not shown, "a tester opened staff pages:\n" + "\n".join(shown)


def test_another_testers_link_shows_none_of_the_first_testers_pages(console_site, console_story):
    """The second tester, through her own link, opens every page the first tester reached: none shows the first
    tester's fix, name, contact or pseudonym, and the first tester's fix pages are not there for her."""
    first = console_story.tester
    pages = [page.path for page in console_site.crawl("tester").pages]
    secrets = [console_story.fix_in_testing_title, first.name, first.contact, first.id]
    browser = signed_in_browser(console_story, "anonymous")
    try:
        browser.open_link(console_story.other_tester.link)
        leaks = []
        for path in pages:
            landed = browser.open(path)
            text = browser.driver.page_source
            leaks += [f"{path} ({landed.status}) shows {secret!r}" for secret in secrets if secret in text]
            if console_story.fix_in_testing in path and landed.status != 404:
                leaks.append(f"{path} answered {landed.status} {landed.title!r} to the other tester, not 404")
        home = browser.open("/console/")
        assert home.title == "Your fixes – Vouch", home
        assert "No fix is waiting for your feedback" in browser.driver.page_source
    finally:
        browser.close()
    assert not leaks, "the other tester sees the first tester's pages:\n" + "\n".join(leaks)
