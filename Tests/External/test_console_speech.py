"""The console read by a real screen reader: Orca 43.1 speaks every step of each journey, in English and in Japanese,
and the test asserts what each step must say and compares the whole speech with the kept transcript
(Tests/External/transcripts/, docs/screen-reader-tests.md).

- A tester opens her personal link, moves by headings, answers every feedback question with the keyboard, meets the
  error summary after an empty answer, checks her answers, sends them and hears the confirmation.
- A person invited opens her invitation, reads the consent text by headings, agrees, answers the questions (one of
  them first sent empty), checks her answers, joins and hears that she has joined.
- A release manager signs in with her token, reads a fix's criteria (met and not met said in words), reads the
  feedback table (its caption and size, its column headers, then the cells of its row), approves after the
  confirmation page and hears the outcome announced.

Each journey runs on a daemon of this module's own, so the other modules' crawls see their story as told.
"""

from __future__ import annotations

from typing import Iterator

import pytest

from conftest import REPOSITORY
from console_fixtures import Story, _daemon, _link
from speech_journey import TAB_LIMIT, Journey


@pytest.fixture(scope="module")
def speech_story(tmp_path_factory) -> Iterator[Story]:
    with _daemon(tmp_path_factory.mktemp("console-speech") / "state",
                 {"VOUCHD_OPERATOR_NAME": "Example Media Ltd", "VOUCHD_OPERATOR_CONTACT": "privacy@example.com"}) as story:
        yield story


def catalog(language: str) -> dict[str, str]:
    """The console's words in `language` (Catalogs/<language>.txt): a journey listens for them."""
    words = {}
    for line in (REPOSITORY / "Catalogs" / f"{language}.txt").read_text().splitlines():
        if line and not line.startswith("#") and " = " in line:
            key, _, value = line.partition(" = ")
            words[key.strip()] = value.strip()
    return words


class Words:
    def __init__(self, language: str) -> None:
        self.words = catalog(language)

    def __call__(self, key: str, **values: str) -> str:
        text = self.words[key]
        for name, value in values.items():
            text = text.replace("{" + name + "}", value)
        return text


def choose(journey: Journey, answer: str) -> None:
    """In a radio group Tab has just reached, selects `answer`: Space when Orca is on it, else Orca's focus mode
    (Insert+A, so that the arrows reach the browser) and the down arrow until Orca says it."""
    if answer in journey.reader.steps[-1].said:
        if journey.orca("not selected") in journey.reader.steps[-1].said:
            journey.press("space", must=[journey.orca("selected")])
        return
    down_in_focus_mode(journey, answer)


def down_in_focus_mode(journey: Journey, words: str) -> None:
    """Orca's focus mode (Insert+A) unless it is on, so that the arrows reach the browser, then the down arrow until
    Orca says `words`: the next radio, the next option of a list."""
    if not journey.focus_mode:
        journey.press("Insert+a", must=[journey.orca("Focus mode")])
    read_down_to(journey, words)


def read_down_to(journey: Journey, words: str) -> None:
    """The down arrow until Orca says `words`: line by line in browse mode, choice by choice in focus mode."""
    for _ in range(TAB_LIMIT):
        if words in journey.press("Down").said:
            return
    raise AssertionError(f"{journey.name}: the down arrow never reached {words!r}")


def question(journey: Journey, heading: str, *, authored: str | None = None) -> None:
    """On a page just loaded: the next heading, the question, as a person moves past the header. Where the heading
    holds `authored` text in another language, Orca 43.1 says it as pieces with the role among them: each piece is
    listened for."""
    pieces = [piece.strip("「」 ") for piece in heading.split(authored)] + [authored] if authored else [heading]
    journey.press("h", must=[piece for piece in pieces if piece] + [journey.role("heading")])


def next_page(journey: Journey, button: str, heading: str, *, authored: str | None = None) -> None:
    """Tab to the page's button, Return, and on the next page the heading `heading`."""
    journey.tab_to(button, must=[journey.role("push button")])
    journey.load("Return", must=[heading])
    question(journey, heading, authored=authored)


def fill(journey: Journey, label: str, text: str) -> None:
    journey.tab_to(label)
    journey.type(text)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_tester_gives_feedback_hearing_every_step(speech_story, language):
    story = speech_story
    w = Words(language)
    area = "TV channel selector"
    link = story.vouchd.url + _link(story.vouchd, story.tester.id)
    with Journey(f"tester-feedback-{language}", f"A tester gives feedback ({language})", language=language) as journey:
        journey.open(link, what="open her personal link", must=[f"Finished loading {w('link.title')}"])
        journey.press("h", must=[w("link.title"), journey.role("heading")])
        journey.tab_to(w("link.continueAs", name=story.tester.name), must=[journey.role("push button")])
        journey.load("Return", must=[w("welcome.title")])
        journey.press("h", must=[w("welcome.heading")])
        journey.tab_to(w("welcome.continue"))
        journey.load("Return", must=[w("home.title")])
        journey.press("h", must=[w("home.title"), journey.role("heading")])
        journey.tab_to(story.fix_in_testing_title, must=[journey.role("link")])
        journey.load("Return", must=[story.fix_in_testing_title])
        journey.press("h", must=[story.fix_in_testing_title, journey.role("heading")])
        journey.tab_to(w("fix.giveFeedback"),
                       must=[w("fix.giveFeedback") + " " + w("fix.feedbackOn", title=story.fix_in_testing_title)])
        journey.load("Return", must=[w("q.device")])
        journey.press("h", must=[w("q.device"), journey.role("heading")])
        # Sent empty: the error summary is read at once, and each of its links leads to its field.
        journey.tab_to(w("q.continue"), must=[journey.role("push button")])
        journey.load("Return", must=[w("errorSummary.title"), w("required.osVersion")])
        journey.tab_to(w("required.osVersion"), must=[journey.role("link")])
        journey.press("Return", must=[w("q.osVersion")])
        journey.type("18.2")
        fill(journey, w("q.appBuild"), "5.12 (2041)")
        next_page(journey, w("q.continue"), w("q.assistiveTechnology"))
        # Past the question, the heading in the group's legend, Tab reaches the group's first or chosen answer.
        journey.tab_to(journey.role("radio button"))
        choose(journey, "VoiceOver")
        next_page(journey, w("q.continue"), w("q.verdict"))
        journey.tab_to(journey.role("radio button"))
        choose(journey, w("verdict.passed"))
        next_page(journey, w("q.continue"), w("q.task", area=area), authored=area)
        journey.tab_to(journey.role("radio button"))
        choose(journey, w("outcome.completedIndependently"))
        next_page(journey, w("q.continue"), w("q.severity"))
        journey.tab_to(journey.role("radio button"))
        choose(journey, w("severity.none"))
        next_page(journey, w("q.continue"), w("q.announcements", technology="VoiceOver", area=area), authored=area)
        for asked in ("q.nameAnnounced", "q.roleAnnounced", "q.stateAnnounced"):
            journey.tab_to(w(asked), must=[journey.role("radio button")])
            choose(journey, w("answer.yes"))
        next_page(journey, w("q.continue"), w("q.heard", technology="VoiceOver"))
        # Orca says "entry" without the question: it has just read it as the heading the label sits in.
        journey.note("Orca does not repeat the field's label here: the caret was on the heading that holds it.")
        journey.tab_to(journey.role("entry"), must=[journey.orca("Focus mode")])
        journey.type("NHK, button, selected")
        next_page(journey, w("q.continue"), w("q.regression"))
        journey.tab_to(journey.role("radio button"))
        choose(journey, w("answer.no"))
        next_page(journey, w("q.continue"), w("q.comment"))
        journey.tab_to(w("q.continue"))
        journey.load("Return", must=[w("check.title")])
        journey.press("h", must=[w("check.title"), journey.role("heading")])
        read_down_to(journey, "NHK, button, selected")
        journey.tab_to(w("check.send"), must=[journey.role("push button")])
        journey.load("Return", must=[w("sent.title")])
        journey.press("h", must=[w("sent.title"), journey.role("heading")])
        journey.compare_transcript()
    web = [record for record in story.vouchd.expect(200, "GET", f"/v1/fixes/{story.fix_in_testing}/feedback?limit=500")["feedback"]
           if record["channel"] == "web" and record["os_version"] == "18.2" and record["app_build"] == "5.12 (2041)"]
    assert web and web[-1]["heard"] == "NHK, button, selected", web


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_release_manager_approves_hearing_every_step(speech_story, language):
    """One vote per person and revision: each language's run is another release manager's."""
    story = speech_story
    w = Words(language)
    name = f"rita-{language}"
    token = story.vouchd.create_token(name, "release_manager")
    title = story.fix_in_testing_title
    with Journey(f"release-manager-approves-{language}", f"A release manager approves a fix ({language})",
                 language=language) as journey:
        journey.open(story.vouchd.url + "/console/sign-in", what="open the sign-in page", must=[f"Finished loading {w('signIn.title')}"])
        journey.press("h", must=[w("signIn.heading"), journey.role("heading")])
        journey.tab_to(w("signIn.tokenLabel"), must=[journey.role("password text")])
        journey.type(token, what="type her token")
        journey.load("Return", must=["Vouch"])
        journey.tab_to(w("staffNavigation.fixes"), must=[journey.role("link")])
        journey.load("Return", must=[w("fixList.title")])
        # "table with … rows": Orca 43.1 says it in English in Japanese too.
        journey.press("t", must=[w("fixList.captionAll"), "table with"])
        journey.tab_to(title, must=[journey.role("link")])
        journey.load("Return", must=[title])
        # The criteria: each one's name, then met or not met in words.
        journey.tab_to(w("criteria.title"), key="h", must=[w("criteria.title"), journey.role("heading")])
        read_down_to(journey, w("criteria.notMet"))
        read_down_to(journey, w("criteria.met"))
        # The feedback table: its caption and size. Orca 43.1 says no column header when its table navigation
        # (Alt+Shift+arrows) moves to another column, though speakCellHeaders is on, and nothing when it lands on a row
        # header (th scope=row): the headers are read along the header row first, then the row's cells from the right.
        journey.tab_to(w("latest.caption", revision="1"), key="t", must=["table with", w("latest.tester")])
        journey.note("Orca 43.1 does not say a cell's column header with Alt+Shift+arrows, nor anything on a row header cell: "
                     "the header row is read first.")
        for header in ("latest.verdict", "latest.severity", "latest.recorded"):
            journey.press("alt+shift+Right", what="alt+shift+Right (Orca: the next cell)", must=[w(header), journey.role("column header")])
        journey.press("alt+shift+Down", what="alt+shift+Down (Orca: the cell below)", must=["<date>"])
        journey.press("alt+shift+Left", what="alt+shift+Left (Orca: the cell before)", must=[w("review.severityNone")])
        journey.press("alt+shift+Left", what="alt+shift+Left (Orca: the cell before)", must=[w("review.passed")])
        journey.tab_to(w("actions.decide"), must=[w("actions.forFix", title=title), journey.role("link")])
        journey.load("Return", must=[w("decision.title", title=title)])
        # A heading in two languages: Orca 43.1 says its role after the first language's words, in the middle.
        if language == "ja":
            journey.note("Orca 43.1 says \"heading level 1\" after the heading's first language's words when the heading "
                         "holds two languages.")
        journey.press("h", must=[title, journey.role("heading")])
        journey.tab_to(w("decision.legend", revision="1"), must=[journey.role("radio button")])
        choose(journey, w("decision.approve"))
        fill(journey, w("decision.comment"), "VoiceOver users confirm the channel names are read")
        journey.tab_to(w("decision.continue"), must=[journey.role("push button")])
        journey.load("Return", must=[w("decision.approveQuestion", title=title, revision="1")])
        journey.press("h", must=[title, journey.role("heading")])
        journey.tab_to(w("decision.confirmApproval"), must=[journey.role("push button")])
        # The banner (role="alert") is announced as the page appears, with its title.
        journey.load("Return", must=[w("banner.success"), w("banner.approved")])
        journey.compare_transcript()
    approvals = story.vouchd.expect(200, "GET", f"/v1/fixes/{story.fix_in_testing}/approvals")["approvals"]
    assert any(approval["decision"] == "approve" and approval["principal"] == name for approval in approvals), approvals


def pick(journey: Journey, label: str, option: str) -> None:
    """Tabs to the list labelled `label`, and in Orca's focus mode the down arrow until Orca says `option`."""
    journey.tab_to(label, must=[journey.role("combo box")])
    down_in_focus_mode(journey, option)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_person_joins_through_an_invitation_hearing_every_step(speech_story, language):
    story = speech_story
    w = Words(language)
    invited = story.vouchd.expect(201, "POST", "/v1/invitations", {"fixes": [story.fix_in_testing], "language": language})["url"]
    with Journey(f"invitation-join-{language}", f"A person joins through an invitation ({language})",
                 language=language) as journey:
        journey.open(story.vouchd.url + invited[invited.index("/console/join/"):], what="open her invitation",
                     must=[f"Finished loading {w('join.title')}"])
        journey.press("h", must=[w("join.title"), journey.role("heading")])
        # The consent text, heading by heading, to the decision.
        journey.tab_to(w("join.decisionHeading"), key="h", must=[journey.role("heading")])
        journey.tab_to(w("join.agree"))
        journey.load("Return", must=[w("join.nameQuestion")])
        question(journey, w("join.nameQuestion"))
        # Sent empty: the error summary is read at once, and its link leads to the field.
        journey.tab_to(w("join.continue"))
        journey.load("Return", must=[w("errorSummary.title"), w("join.errorName")])
        journey.tab_to(w("join.errorName"))
        journey.press("Return", must=[w("join.errorName")])
        journey.type("Hana Yamada")
        next_page(journey, w("join.continue"), w("join.emailQuestion"))
        next_page(journey, w("join.continue"), w("join.technologyQuestion"))
        pick(journey, w("join.technology"), "VoiceOver")
        pick(journey, w("join.platform"), "iOS")
        next_page(journey, w("join.continue"), w("join.testerCodeQuestion"))
        journey.tab_to(journey.role("entry"), must=[journey.orca("Focus mode")])
        journey.type(f"user-speech-{language}")
        next_page(journey, w("join.continue"), w("join.languageQuestion"))
        journey.tab_to(w("join.continue"))
        journey.load("Return", must=[w("join.checkTitle")])
        journey.press("h", must=[w("join.checkTitle"), journey.role("heading")])
        read_down_to(journey, "Hana Yamada")
        read_down_to(journey, "VoiceOver")
        journey.tab_to(w("join.join"))
        journey.load("Return", must=[w("join.joinedTitle")])
        journey.press("h", must=[w("join.joinedTitle"), journey.role("heading")])
        journey.compare_transcript()
    joined = [tester for tester in story.vouchd.expect(200, "GET", "/v1/testers?limit=500")["testers"]
              if tester["consent"]["given_by"] == "tester" and tester["consent"]["language"] == language]
    assert len(joined) == 1 and joined[0]["assistive_tech"][0]["name"] == "voiceover", joined
