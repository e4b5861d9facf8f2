"""The console's story and its crawls, shared by the test_console_* modules (a pytest plugin: conftest loads it).

`console_story` starts one vouchd for the whole session and tells a small story through the API: a release manager
and a maintainer with tokens of their own, a fix in testing with an enrolled tester and her feedback, a fix still
in draft, a second tester enrolled in nothing, and a personal link for each tester, a panel and a webhook. `console_site` crawls it once
per role, with every check on every page (console_checks.py), and keeps each role's browser for the other tests.
The states beyond pages come from a second daemon with the same story (`console_states_site`): every form that asks
for something sent back empty, and the STATES no link or empty form makes. Sending a form may carry out what it
asks for, and the crawls must see the story as told.
"""

from __future__ import annotations

import contextlib
import pathlib
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Callable, Iterator

import pytest

from conftest import Vouchd, launch_vouchd, stop_vouchd
from console_browser import CheckedPage, ConsoleBrowser, Visit, crawl, empty_form_states
from console_checks import axe_engine, check_page

# Who crawls the console: nobody signed in, each staff role, and a tester through her personal link.
ROLES = ("anonymous", "admin", "release_manager", "maintainer", "tester")
# Opened directly as well as by links: addresses no link leads to, such as an unknown one.
ERROR_PAGES = ["/console/no-such-page"]
# Crawls at a time, for both daemons together: one per core of the machine the suite is written for.
CRAWLERS = 2
ANONYMOUS_STARTS = ["/console/sign-in", "/console/signed-out", "/console/welcome", "/console/"]


@dataclass
class Person:
    name: str
    contact: str
    id: str = ""
    link: str = ""


@dataclass
class Story:
    vouchd: Vouchd
    tokens: dict[str, str]
    tester: Person
    other_tester: Person
    fix_in_testing: str = "tv-channel-selector-labels"
    fix_in_testing_title: str = "Label the channel logos"
    draft_fix: str = "player-captions-toggle"
    panel: str = ""
    webhook: str = ""


def _link(vouchd: Vouchd, tester_id: str) -> str:
    url = vouchd.expect(201, "POST", f"/v1/testers/{tester_id}/links", {})["url"]
    return url[url.index("/console/link/"):]


def _tester(vouchd: Vouchd, person: Person, keys: list[str]) -> Person:
    person.id = vouchd.expect(201, "POST", "/v1/testers", {
        "name": person.name, "contact": person.contact, "assistive_tech": ["voiceover:ios:18.2"], "targeting_keys": keys,
        "consent": "2026-11"})["id"]
    person.link = _link(vouchd, person.id)
    return person


def tell_story(vouchd: Vouchd) -> Story:
    tokens = {"admin": vouchd.admin_token, "release_manager": vouchd.create_token("rita", "release_manager"),
              "maintainer": vouchd.create_token("max", "maintainer")}
    story = Story(vouchd, tokens, Person("Aiko Tanaka", "aiko.tanaka@example.org"), Person("Ben Okafor", "ben.okafor@example.org"))
    vouchd.expect(201, "POST", "/v1/fixes", {
        "key": story.fix_in_testing, "title": story.fix_in_testing_title, "ui_area": "TV channel selector",
        "platforms": ["ios"], "wcag": ["1.1.1", "4.1.2"], "expected_announcement": "NHK, button, selected"})
    vouchd.expect(200, "POST", f"/v1/fixes/{story.fix_in_testing}/start")
    vouchd.expect(201, "POST", "/v1/fixes", {
        "key": story.draft_fix, "title": "Name the captions switch", "ui_area": "Video player", "platforms": ["ios"]})
    _tester(vouchd, story.tester, ["user-1"])
    _tester(vouchd, story.other_tester, ["user-2"])
    enrolled = vouchd.call("POST", f"/v1/fixes/{story.fix_in_testing}/enrollments", {"testers": [story.tester.id]})
    assert enrolled.status in (200, 201), f"enrollment: {enrolled.status} {enrolled.body[:500]!r}"
    vouchd.expect(201, "POST", f"/v1/fixes/{story.fix_in_testing}/feedback", {
        "tester": story.tester.id, "verdict": "passed", "task_outcome": "completed_independently", "severity": "none",
        "platform": "ios", "os_version": "18.2", "app_build": "4.12.0 (881)", "assistive_tech": "voiceover"})
    # A panel with a member, and a webhook for an event the story never sends, so their pages are crawled too.
    story.panel = vouchd.expect(201, "POST", "/v1/panels", {"name": "VoiceOver on iOS"})["id"]
    vouchd.expect(200, "POST", f"/v1/panels/{story.panel}/members", {"testers": [story.tester.id]})
    story.webhook = vouchd.expect(201, "POST", "/v1/webhooks", {"url": "http://127.0.0.1:9/vouch", "events": ["fix.rolled_back"]})["id"]
    return story


def signed_in_browser(story: Story, role: str, *, javascript: bool = True) -> ConsoleBrowser:
    """A new browser signed in as `role`: staff through the sign-in form, the tester through her personal link."""
    browser = ConsoleBrowser(story.vouchd.url, javascript=javascript)
    try:
        if role == "tester":
            browser.open_link(story.tester.link)
        elif role != "anonymous":
            browser.sign_in(story.tokens[role])
    except BaseException:
        browser.close()
        raise
    return browser


def starts(role: str) -> list[str]:
    if role == "anonymous":
        return ANONYMOUS_STARTS + ERROR_PAGES
    return (["/console/welcome"] if role == "tester" else []) + ["/console/"] + ERROR_PAGES


@dataclass
class RoleCrawl:
    role: str
    pages: list[CheckedPage]
    states: list[CheckedPage] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def checked(self) -> list[CheckedPage]:
        return self.pages + self.states


class ConsoleSite:
    """The story's console, crawled once per role and browser kind; the browsers stay open for other tests.

    The first crawl asked for starts every role's on the session's crawlers (`crawl_pool`)."""

    # How the summary at the end of the run names this site's crawls.
    kind = ""

    def __init__(self, story: Story, axe: str, pool: ThreadPoolExecutor) -> None:
        self.story = story
        self.axe = axe
        self.pool = pool
        self.browsers: dict[tuple[str, bool], ConsoleBrowser] = {}
        self.crawls: dict[tuple[str, bool], Future[RoleCrawl]] = {}
        self.lock = threading.Lock()

    def browser(self, role: str, *, javascript: bool = True) -> ConsoleBrowser:
        key = (role, javascript)
        with self.lock:
            if key in self.browsers:
                return self.browsers[key]
        browser = signed_in_browser(self.story, role, javascript=javascript)
        if javascript:
            # axe-core in every page from the start, rather than sent over WebDriver to each one.
            browser.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": self.axe})
        with self.lock:
            self.browsers[key] = browser
        return browser

    def check(self, role: str, javascript: bool):
        axe = self.axe if javascript else None
        return lambda browser: check_page(browser.driver, signed_in=role != "anonymous", axe=axe)

    def crawl(self, role: str, *, javascript: bool = True) -> RoleCrawl:
        """Every page `role` reaches by links, each checked; without JavaScript, every check but axe-core's."""
        with self.lock:
            for each in ROLES:
                if (each, javascript) not in self.crawls:
                    self.crawls[(each, javascript)] = self.pool.submit(self._timed, each, javascript)
        return self.crawls[(role, javascript)].result()

    def _timed(self, role: str, javascript: bool) -> RoleCrawl:
        started = time.monotonic()
        crawled = self._crawl(role, javascript)
        crawled.seconds = time.monotonic() - started
        _record(f"{role}{'' if javascript else ' without JavaScript'}{self.kind}", crawled)
        return crawled

    def _crawl(self, role: str, javascript: bool) -> RoleCrawl:
        return RoleCrawl(role, crawl(self.browser(role, javascript=javascript), starts(role), self.check(role, javascript)))

    def close(self) -> None:
        for crawling in self.crawls.values():
            crawling.cancel()
        wait(list(self.crawls.values()))
        for browser in self.browsers.values():
            browser.close()


def _revoked_token(story: Story) -> str:
    created = story.vouchd.expect(201, "POST", "/v1/tokens", {"name": "moved on", "role": "maintainer"})
    story.vouchd.expect(200, "DELETE", f"/v1/tokens/{created['id']}")
    return created["token"]


# States no link leads to and no empty form makes: (role, what happens, how the browser gets there).
STATES: list[tuple[str, str, Callable[[ConsoleBrowser, Story], Visit]]] = [
    ("anonymous", "signing in with a token that is not one",
     lambda browser, story: browser.submit("/console/sign-in", {"token": "vch_" + "0" * 40})),
    ("anonymous", "signing in with an app's token",
     lambda browser, story: browser.submit("/console/sign-in", {"token": story.vouchd.create_token("tv-app", "sdk")})),
    ("anonymous", "signing in with a revoked token",
     lambda browser, story: browser.submit("/console/sign-in", {"token": _revoked_token(story)})),
    ("anonymous", "a personal link that does not work", lambda browser, story: browser.open("/console/link/" + "x" * 43)),
    ("anonymous", "a link to stop emails that does not work",
     lambda browser, story: browser.open("/console/unsubscribe/" + "74" * 8 + ".tester_enrolled." + "0" * 32)),
    ("admin", "a form sent without the session's security token",
     lambda browser, story: browser.submit("/console/", {"csrf": ""})),
]


class StatesSite(ConsoleSite):
    """A second daemon with the same story, where forms are sent back empty and the STATES are made; its crawls
    check those states."""

    kind = " (forms sent empty, other states)"

    def _crawl(self, role: str, javascript: bool) -> RoleCrawl:
        browser = self.browser(role, javascript=javascript)
        check = self.check(role, javascript)
        # Links only: the pages themselves are checked on the first daemon.
        pages = crawl(browser, starts(role), lambda _: {})
        states = empty_form_states(browser, pages, check)
        for who, what, how in STATES:
            if who == role:
                landed = how(browser, self.story)
                states.append(CheckedPage(landed.path, landed.status, landed.title, what, check(browser)))
        return RoleCrawl(role, [], states)


# What the crawls checked, for the summary at the end of the run.
_RECORDED: list[tuple[str, RoleCrawl]] = []


def _record(what: str, crawled: RoleCrawl) -> None:
    _RECORDED.append((what, crawled))


def pytest_terminal_summary(terminalreporter) -> None:
    if not _RECORDED:
        return
    terminalreporter.section("console pages and states checked in Chromium")
    for what, crawled in _RECORDED:
        terminalreporter.write_line(f"{what}: {len(crawled.pages)} pages and {len(crawled.states)} states in {crawled.seconds:.1f} s")
    pages = sum(len(crawled.pages) for _, crawled in _RECORDED)
    states = sum(len(crawled.states) for _, crawled in _RECORDED)
    terminalreporter.write_line(f"in all: {pages} pages and {states} states checked")


@contextlib.contextmanager
def _daemon(directory: pathlib.Path, environment: dict[str, str] | None = None) -> Iterator[Story]:
    # The story's webhook listens on loopback.
    daemon = launch_vouchd(directory, {"VOUCHD_WEBHOOKS_ALLOW_PRIVATE_NETWORKS": "true", **(environment or {})})
    try:
        yield tell_story(daemon)
    finally:
        status = stop_vouchd(daemon)
        assert status == 0, f"vouchd exited with {status} after SIGTERM:\n" + "\n".join(daemon.log)
        errors = [line for line in daemon.log if "level=error" in line]
        assert not errors, "vouchd logged errors:\n" + "\n".join(errors)


@pytest.fixture(params=ROLES)
def role(request) -> str:
    return request.param


@pytest.fixture
def checked(console_site, console_states_site, role) -> list[RoleCrawl]:
    """The role's crawl of pages, and its crawl of states (forms sent empty)."""
    return [console_site.crawl(role), console_states_site.crawl(role)]


def failures(crawls: list[RoleCrawl], check: str) -> str:
    """Every page and state that failed `check`, with its problems; empty when all passed."""
    failed: list[CheckedPage] = [page for crawled in crawls for page in crawled.checked if page.problems.get(check)]
    counted = sum(len(crawled.checked) for crawled in crawls)
    if not failed:
        return ""
    lines = [f"{len(failed)} of {counted} pages and states fail '{check}':"]
    for page in failed:
        lines.append(f"\n{page.path} ({page.status}, {page.title!r}), reached from {page.via}:")
        lines.extend(f"  - {problem}" for problem in page.problems[check])
    return "\n".join(lines)


def assert_every_page_passes(crawls: list[RoleCrawl], check: str) -> None:
    assert sum(len(crawled.checked) for crawled in crawls) > 0, "the crawl checked nothing"
    report = failures(crawls, check)
    assert not report, report


@pytest.fixture(scope="session")
def console_story(tmp_path_factory) -> Iterator[Story]:
    with _daemon(tmp_path_factory.mktemp("console") / "state") as story:
        yield story


@pytest.fixture(scope="session")
def axe() -> str:
    return axe_engine()


@pytest.fixture(scope="session")
def crawl_pool() -> Iterator[ThreadPoolExecutor]:
    with ThreadPoolExecutor(max_workers=CRAWLERS, thread_name_prefix="crawl") as pool:
        yield pool


@pytest.fixture(scope="session")
def console_site(console_story, axe, crawl_pool) -> Iterator[ConsoleSite]:
    site = ConsoleSite(console_story, axe, crawl_pool)
    try:
        yield site
    finally:
        site.close()


@pytest.fixture(scope="session")
def console_states_site(tmp_path_factory, axe, crawl_pool) -> Iterator[StatesSite]:
    with _daemon(tmp_path_factory.mktemp("console-states") / "state") as story:
        site = StatesSite(story, axe, crawl_pool)
        try:
            yield site
        finally:
            site.close()
