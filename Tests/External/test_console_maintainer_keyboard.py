"""What a maintainer, a release manager and an administrator do in the console, with a keyboard alone.

Each journey edits something through its form with keys only (console_keyboard.py): a tester's details, a webhook's
events, a fix's promotion criteria, the audit log's filter, and a panel and its members. The journeys change the
story, so they run against a daemon of their own; each runs with JavaScript on and off. The pages themselves get
axe-core and every other check in test_console_a11y.py, whose crawls reach them by links.
"""

from __future__ import annotations

import pathlib
from typing import Iterator

import pytest

from console_browser import ConsoleBrowser
from console_fixtures import Story, _daemon, signed_in_browser


@pytest.fixture(scope="module")
def story(tmp_path_factory) -> Iterator[Story]:
    with _daemon(pathlib.Path(tmp_path_factory.mktemp("console-keyboard")) / "state") as told:
        yield told


@pytest.fixture(params=[True, False], ids=["javascript", "no-javascript"])
def javascript(request) -> bool:
    return request.param


def _signed_in(story: Story, role: str, javascript: bool) -> Iterator[ConsoleBrowser]:
    browser = signed_in_browser(story, role, javascript=javascript)
    try:
        yield browser
    finally:
        browser.close()


@pytest.fixture
def maintainer(story, javascript) -> Iterator[ConsoleBrowser]:
    yield from _signed_in(story, "maintainer", javascript)


@pytest.fixture
def release_manager(story, javascript) -> Iterator[ConsoleBrowser]:
    yield from _signed_in(story, "release_manager", javascript)


@pytest.fixture
def admin(story, javascript) -> Iterator[ConsoleBrowser]:
    yield from _signed_in(story, "admin", javascript)


def test_a_maintainer_edits_a_testers_details(maintainer, story, javascript):
    browser, keys = maintainer, maintainer.keys
    tester = story.other_tester
    browser.open(f"/console/testers/{tester.id}")
    form = browser.after(lambda: keys.follow(f"Change the details of {tester.name}"), "Enter on the change link")
    assert (form.path, form.title) == (f"/console/testers/{tester.id}/edit", f"Change the details of {tester.name} – Vouch"), form
    address = f"ben{'-js' if javascript else ''}@example.org"
    keys.fill("Email address (optional)", address)
    saved = browser.after(lambda: keys.follow("Save the changes"), "Enter on Save the changes")
    assert saved.path == f"/console/testers/{tester.id}?done=edited", saved
    assert "The tester's details were saved" in browser.driver.page_source
    assert story.vouchd.expect(200, "GET", f"/v1/testers/{tester.id}")["email"] == address


def test_a_maintainer_filters_the_audit_log(maintainer, story):
    browser, keys = maintainer, maintainer.keys
    browser.open("/console/")
    log = browser.after(lambda: keys.follow("Audit log"), "Enter on Audit log in the navigation")
    assert (log.path, log.title) == ("/console/audit", "Audit log – Vouch"), log
    keys.tab_to("Principal")  # past the navigation's "Fixes"
    keys.fill("Fix", story.draft_fix)
    filtered = browser.after(keys.enter, "Enter in the Fix field")
    assert filtered.path.startswith("/console/audit?") and f"fix={story.draft_fix}" in filtered.path, filtered
    page = browser.driver.page_source
    assert "<code>fix.create</code>" in page and "<code>tester.create</code>" not in page
    cleared = browser.after(lambda: keys.follow("Clear the filter"), "Enter on Clear the filter")
    assert cleared.path == "/console/audit", cleared


def test_a_maintainer_makes_a_panel_and_adds_a_tester(maintainer, story, javascript):
    browser, keys = maintainer, maintainer.keys
    browser.open("/console/")
    panels = browser.after(lambda: keys.follow("Panels"), "Enter on Panels in the navigation")
    assert (panels.path, panels.title) == ("/console/panels", "Panels – Vouch"), panels
    form = browser.after(lambda: keys.follow("Create a panel"), "Enter on Create a panel")
    assert form.path == "/console/panels/new", form
    name = "TalkBack on Android" + (" (script)" if javascript else "")
    keys.fill("Name", name)
    made = browser.after(lambda: keys.follow("Create the panel"), "Enter on Create the panel")
    assert made.path.startswith("/console/panels/p_") and made.path.endswith("?done=created"), made
    assert made.title == f"{name} – Vouch", made
    box = keys.tab_to(f"{story.other_tester.name} ({story.other_tester.id})")
    assert box.type == "checkbox", box
    keys.space()
    added = browser.after(lambda: keys.follow("Add to the panel"), "Enter on Add to the panel")
    assert added.path.endswith("?done=added"), added
    panel = made.path.removeprefix("/console/panels/").split("?")[0]
    members = story.vouchd.expect(200, "GET", f"/v1/panels/{panel}")["members"]
    assert [member["tester"] for member in members] == [story.other_tester.id]


def test_a_release_manager_sets_a_fixs_criteria(release_manager, story):
    browser, keys = release_manager, release_manager.keys
    browser.open(f"/console/fixes/{story.draft_fix}")
    form = browser.after(lambda: keys.follow("Change the promotion criteria"), "Enter on Change the promotion criteria")
    assert form.path == f"/console/fixes/{story.draft_fix}/criteria", form
    keys.fill("Minimum passing testers", "5")
    keys.fill("Time in testing before promotion", "nonsense")
    refused = browser.after(lambda: keys.follow("Save the criteria"), "Enter on Save the criteria")
    assert refused.status == 422 and refused.title.startswith("Error: "), refused
    link = keys.tab().focused()
    assert link.href == "#field-min-soak", link
    field = keys.enter().focused()
    assert field.id == "field-min-soak", field.description
    keys.clear().type("36h")
    saved = browser.after(keys.enter, "Enter in the soak field")
    assert saved.path == f"/console/fixes/{story.draft_fix}?done=criteria", saved
    criteria = story.vouchd.expect(200, "GET", f"/v1/fixes/{story.draft_fix}")["criteria"]
    assert criteria["min_testers_passed"] == 5 and criteria["min_soak"] == "36h", criteria


def test_an_admin_changes_a_webhooks_events(admin, story, javascript):
    browser, keys = admin, admin.keys
    browser.open(f"/console/webhooks/{story.webhook}")
    form = browser.after(lambda: keys.follow("Change the address or the events"), "Enter on the change link")
    assert form.path == f"/console/webhooks/{story.webhook}/edit", form
    # Each run ticks an event of its own: the daemon is shared by the runs with and without JavaScript.
    event, words = ("fix.paused", "A fix is paused") if javascript else ("fix.resumed", "A fix is resumed")
    box = keys.tab_to(words)
    assert box.type == "checkbox" and not box.checked, box
    keys.space()
    assert keys.focused().checked, "Space did not tick the box"
    keys.choose("No, it is only told")
    saved = browser.after(lambda: keys.follow("Save the changes"), "Enter on Save the changes")
    assert saved.path == f"/console/webhooks/{story.webhook}?done=edited", saved
    endpoint = story.vouchd.expect(200, "GET", f"/v1/webhooks/{story.webhook}")
    assert event in endpoint["events"] and "fix.rolled_back" in endpoint["events"] and endpoint["required"] is False, endpoint
