"""A person's browser in Vouch's web console, and the crawl that reaches every page from the start page.

`ConsoleBrowser` is one headless Chromium (chromium.py) signed in as one person: staff through the sign-in form
with their token, a tester through her personal link. `crawl` follows every same-origin `/console/` link (and GET
form, as it stands) breadth first from the start pages, each address once (path and query), and runs a check on
each page it reaches, so a page added to the console is checked as soon as a link leads to it. `empty_form_states`
then sends every form that asks for something back empty, and checks the page that answers: the error states.
"""

from __future__ import annotations

import base64
import collections
import time
import urllib.parse
from dataclasses import dataclass, field
from typing import Callable

from selenium.webdriver.common.by import By

import chromium
from console_keyboard import Keyboard

# Never followed: a personal link starts another session, sign-out ends this one, assets are not pages.
SKIPPED_PREFIXES = ("/console/link/", "/console/assets/")
SKIPPED_PATHS = ("/console/sign-out",)
PAGE_LIMIT = 200
# The longest a form's answer may take to load.
LOAD_WAIT = 10.0

NAVIGATION = """
const entry = performance.getEntriesByType("navigation")[0];
return {origin: performance.timeOrigin, status: entry ? entry.responseStatus : null, title: document.title,
        contentType: document.contentType};
"""

# Every link, and where each GET form (a filter, a search) leads as it stands: both only read.
LINKS = """
const links = [...document.querySelectorAll("a[href]")].filter(link => !link.hasAttribute("download")).map(link => link.href);
const searches = [...document.forms].filter(form => (form.getAttribute("method") || "get").toLowerCase() === "get").map(form => {
  // The attribute, not form.action: a field named "action" (the audit log's filter) would stand in for that property.
  const target = new URL(form.getAttribute("action") || "", location.href);
  target.search = new URLSearchParams(new FormData(form)).toString();
  return target.href;
});
return links.concat(searches);
"""

# POST forms that ask for something: at least one visible field a person fills in or chooses. A form of buttons
# only (a confirmation, sign-out) is never sent empty: sending it would do what it confirms. Nor is a form that
# confirms something that cannot be taken back (a warning button, or an action that withdraws, revokes, deletes,
# abandons, rolls back, pauses, disables or removes) even when it also has an optional field: sent empty it would
# still do it, and the other crawls must find the story as told.
ASKING_FORMS = """
const asks = form => [...form.elements].some(element =>
  element.matches("input:not([type=hidden]):not([type=submit]):not([type=button]), textarea, select")
  && element.getClientRects().length > 0);
const final = form => form.querySelector(".button--warning") !== null
  || /\\/(withdraw|revoke|delete|abandon|rollback|pause|disable|remove|sign-out)$/.test(form.getAttribute("action") || "");
return [...document.forms].map((form, index) => ({index: index, action: form.getAttribute("action") || "",
  method: (form.getAttribute("method") || "get").toLowerCase(), asks: asks(form), final: final(form)}))
  .filter(form => form.method === "post" && form.asks && !form.final);
"""

# Sets the form's fields by name (a value, or "" for none) and returns its submit button.
FILLED = """
const form = document.forms[arguments[0]];
if (!form) return null;
for (const [name, value] of Object.entries(arguments[1])) form.elements[name].value = value;
return form.querySelector("button:not([type]), button[type=submit], input[type=submit]");
"""

# Empties the form (text cleared, nothing ticked or chosen) and returns its submit button.
EMPTIED = """
const form = document.forms[arguments[0]];
if (!form) return null;
for (const element of form.elements) {
  if (element.type === "radio" || element.type === "checkbox") element.checked = false;
  else if (element.tagName === "SELECT") element.selectedIndex = -1;
  else if (element.matches("input:not([type=hidden]):not([type=submit]):not([type=button]), textarea")) element.value = "";
}
return form.querySelector("button:not([type]), button[type=submit], input[type=submit]");
"""


@dataclass
class Visit:
    """Where the browser landed: the address (path and query) after redirects, the status and the title."""
    requested: str
    path: str
    status: int | None
    title: str
    # False when the address did not open a page (a download): the browser stayed where it was.
    navigated: bool = True
    # The document's type: a download the browser shows (JSON, CSV) is not a page to check.
    content_type: str = "text/html"

    @property
    def is_page(self) -> bool:
        return self.navigated and self.content_type == "text/html"


@dataclass
class CheckedPage:
    """A page or state the crawl reached, and what the checks found wrong on it, by check."""
    path: str
    status: int | None
    title: str
    # How the crawl got here: the page whose link it followed, or what it did ("start page", "empty form on …").
    via: str
    problems: dict[str, list[str]] = field(default_factory=dict)
    forms: list[dict] = field(default_factory=list)


def console_path(url: str, origin: str) -> str | None:
    """The path and query of a console page at `origin`, without fragment; None for anything else."""
    parts = urllib.parse.urlsplit(url)
    if f"{parts.scheme}://{parts.netloc}" != origin or not parts.path.startswith("/console/"):
        return None
    return parts.path + ("?" + parts.query if parts.query else "")


def followed(path: str) -> bool:
    # A language link would switch the rest of the crawl to that language: each language has a crawl of its own.
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(path).query)
    return not path.startswith(SKIPPED_PREFIXES) and path.split("?")[0] not in SKIPPED_PATHS and "lang" not in query


class ConsoleBrowser:
    """One Chromium for one person in the console at `origin` (http://127.0.0.1:port)."""

    def __init__(self, origin: str, *, javascript: bool = True) -> None:
        self.origin = origin
        self.javascript = javascript
        self.driver = chromium.start(javascript=javascript)
        self.keys = Keyboard(self.driver)

    def close(self) -> None:
        chromium.stop(self.driver)

    def here(self) -> str:
        return console_path(self.driver.current_url, self.origin) or self.driver.current_url

    def _landed(self, requested: str, before: float | None) -> Visit:
        landed = self.driver.execute_script(NAVIGATION)
        return Visit(requested, self.here(), landed["status"], landed["title"], navigated=landed["origin"] != before,
                     content_type=landed["contentType"])

    def _origin_now(self) -> float | None:
        try:
            return self.driver.execute_script("return performance.timeOrigin")
        except Exception:  # noqa: BLE001 (before the first page there is no document to ask)
            return None

    def open(self, path: str) -> Visit:
        """Opens a console address as a person typing it would; tells where the browser landed."""
        before = self._origin_now()
        self.driver.get(self.origin + path)
        return self._landed(path, before)

    def after(self, action: Callable[[], object], what: str) -> Visit:
        """Does `action` (a click, a key that follows a link or sends a form) and waits for the next page to load."""
        before = self._origin_now()
        action()
        deadline = time.monotonic() + LOAD_WAIT
        while time.monotonic() < deadline:
            if self._origin_now() not in (before, None) and self.driver.execute_script("return document.readyState") == "complete":
                return self._landed(what, before)
            time.sleep(0.02)
        raise AssertionError(f"{what}: no new page loaded within {LOAD_WAIT:.0f} s; the browser shows {self.here()}")

    def links(self) -> list[str]:
        paths = (console_path(url, self.origin) for url in self.driver.execute_script(LINKS))
        return [path for path in paths if path is not None]

    def asking_forms(self) -> list[dict]:
        return self.driver.execute_script(ASKING_FORMS)

    def sign_in(self, token: str) -> Visit:
        """Signs in through the sign-in form with `token`; must land on the start page."""
        self.open("/console/sign-in")
        self.driver.find_element(By.ID, "field-token").send_keys(token)
        landed = self.after(self.driver.find_element(By.CSS_SELECTOR, "main form button").click, "signing in")
        assert landed.path == "/console/" and landed.status in (200, None), \
            f"signing in landed on {landed.path} ({landed.status}, {landed.title!r}), not the start page"
        return landed

    def open_link(self, link_path: str) -> Visit:
        """Opens a tester's personal link and presses its one button; must land on the welcome page."""
        page = self.open(link_path)
        assert page.path == link_path and page.title.startswith("Your personal link"), \
            f"the personal link showed {page.path} ({page.title!r}), not its page"
        landed = self.after(self.driver.find_element(By.CSS_SELECTOR, "main form button").click, "continuing from the personal link")
        assert landed.path == "/console/welcome", f"the personal link landed on {landed.path} ({landed.title!r})"
        return landed

    def sign_out(self) -> Visit:
        """Ends this browser's session with the header's sign-out button, so it does not count against the sessions a
        personal link or a tester may keep (the oldest of which the server ends)."""
        self.open("/console/")
        button = self.driver.find_element(By.CSS_SELECTOR, 'form[action="/console/sign-out"] button')
        return self.after(button.click, "signing out")

    def screenshot(self, width: int) -> bytes:
        """The whole page as a PNG, laid out `width` CSS pixels wide."""
        metrics = {"width": width, "height": 800, "deviceScaleFactor": 1, "mobile": False}
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
        try:
            # The body's own height: the document's is never less than the viewport's, which would add blank space.
            height = self.driver.execute_script("return Math.ceil(document.body.getBoundingClientRect().height)")
            self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {**metrics, "height": height})
            shot = self.driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png"})
        finally:
            self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        return base64.b64decode(shot["data"])

    def submit_empty(self, page: str, form_index: int) -> Visit | None:
        """Opens `page` and sends its form number `form_index` with every field emptied; None when the page no longer
        has that form (what another state did changed it)."""
        self.open(page)
        button = self.driver.execute_script(EMPTIED, form_index)
        return None if button is None else self._send(button, f"the empty form {form_index} on {page}")

    def submit(self, page: str, values: dict[str, str], form_index: int = 0) -> Visit:
        """Opens `page` and sends its form number `form_index` with the fields named in `values` set to them."""
        self.open(page)
        return self._send(self.driver.execute_script(FILLED, form_index, values), f"the form {form_index} on {page}")

    def _send(self, button, what: str) -> Visit:
        assert button is not None, f"{what} has no submit button"
        return self.after(button.click, what)


Check = Callable[[ConsoleBrowser], dict[str, list[str]]]


def crawl(browser: ConsoleBrowser, starts: list[str], check: Check, *, limit: int = PAGE_LIMIT) -> list[CheckedPage]:
    """Opens `starts`, then every console link reachable from them, breadth first, each address once; runs `check`
    on each page. Addresses that redirect to a page already checked are not checked again."""
    pages: dict[str, CheckedPage] = {}
    queue = collections.deque((start, "start page") for start in starts)
    queued = set(starts)
    while queue:
        path, via = queue.popleft()
        visit = browser.open(path)
        if not visit.is_page or visit.path in pages:
            continue
        assert len(pages) < limit, (f"the crawl reached more than {limit} pages (the last: {visit.path}): raise "
                                    "PAGE_LIMIT, or look for links that make up new addresses")
        links, forms = browser.links(), browser.asking_forms()
        pages[visit.path] = CheckedPage(visit.path, visit.status, visit.title, via, check(browser), forms)
        for link in links:
            if followed(link) and link not in queued:
                queued.add(link)
                queue.append((link, visit.path))
    return list(pages.values())


def empty_form_states(browser: ConsoleBrowser, pages: list[CheckedPage], check: Check) -> list[CheckedPage]:
    """Sends each form that asks for something back empty, and checks the page that answers."""
    states = []
    for page in pages:
        for form in page.forms:
            landed = browser.submit_empty(page.path, form["index"])
            if landed is None:
                continue
            states.append(CheckedPage(landed.path, landed.status, landed.title,
                                      f"the empty form to {form['action']} on {page.path}", check(browser)))
    return states
