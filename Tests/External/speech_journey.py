"""A journey through the console as Orca speaks it, and its transcript (docs/screen-reader-tests.md).

`Journey` drives a ScreenReader (orca_harness.py) step by step. Each step names the keys a person presses and what
Orca must say after them, in a few words, not every word: `must` is a list of phrases that must all be heard in that
step, in any order. The whole speech of every step is kept as a transcript, a text file beside the tests
(Tests/External/transcripts/<name>.txt) that the test compares with what Orca said this time: a changed word fails
with a readable diff, and a reviewer reads what a blind tester hears. VOUCH_UPDATE_TRANSCRIPTS=1 writes them anew.

What changes from run to run (the daemon's port, tokens, personal links, today's date) is replaced by a fixed word
before the comparison, so the transcript is the same run after run.
"""

from __future__ import annotations

import difflib
import gettext
import os
import pathlib
import re
import time
import warnings

from orca_harness import PAGE_SUMMARY, ScreenReader, Step

TRANSCRIPTS = pathlib.Path(__file__).resolve().parent / "transcripts"
UPDATE = os.environ.get("VOUCH_UPDATE_TRANSCRIPTS") == "1"
# A transcript that differs from the kept one fails the test. VOUCH_STRICT_TRANSCRIPTS=0 makes the difference a
# warning with its diff, for exploring a change locally; what each step must say (`must`) and the voices' languages
# fail the test either way.
STRICT = os.environ.get("VOUCH_STRICT_TRANSCRIPTS") != "0"
# A person presses Tab this many times at most to reach what she is looking for on one page.
TAB_LIMIT = 40

# (pattern, what it is replaced with) for the words that change from run to run.
VARIABLE = [
    (re.compile(r"http://127\.0\.0\.1:\d+"), "http://vouchd"),
    (re.compile(r"vch_[a-z0-9]{40}"), "<token>"),
    (re.compile(r"/console/(link|join)/[A-Za-z0-9_-]{20,}"), r"/console/\1/<secret>"),
    (re.compile(r"\b20\d\d-\d\d-\d\d(?:[T ]\d\d:\d\d(?::\d\d)?(?:\.\d+)?Z?)?"), "<date>"),
    (re.compile(r"\b\d{1,2} (?:January|February|March|April|May|June|July|August|September|October|November|December) 20\d\d"
                r"(?:,? (?:at )?\d{1,2}:\d\d(?: UTC)?)?"), "<date>"),
    (re.compile(r"20\d\d年\d{1,2}月\d{1,2}日(?:\s*\d{1,2}:\d\d(?:\s*UTC)?)?"), "<date>"),
    (re.compile(r"\b\d{1,2}:\d\d(?::\d\d)? UTC\b"), "<time>"),
    # Time left in testing, counted from when the story started the fix.
    (re.compile(r"\b\d+ (?:days?|hours?|minutes?)(?: \d+ (?:hours?|minutes?))*"), "<duration>"),
    (re.compile(r"\d+(?:日|時間|分)(?:\d+(?:時間|分))*"), "<duration>"),
]


# Seconds each journey took, for the summary at the end of the run (this module is a pytest plugin: conftest loads it).
TIMES: dict[str, float] = {}


def pytest_terminal_summary(terminalreporter) -> None:
    if TIMES:
        terminalreporter.section("Orca journeys")
        for name, seconds in TIMES.items():
            terminalreporter.write_line(f"{name}: {seconds:.1f} s")
        terminalreporter.write_line(f"in all: {sum(TIMES.values()):.1f} s")


def fixed(text: str, link: str = "link") -> str:
    """`text` with what changes from run to run replaced; `link` is an unvisited link's role word as Orca says it in
    the journey's language ("link", "リンク")."""
    # A no-break space is heard as a space (the console's visually hidden text starts with one).
    text = re.sub(r"[ \u00a0]+", " ", text)
    for pattern, replacement in VARIABLE:
        text = pattern.sub(replacement, text)
    # Whether Chromium has recorded a visit to a link's address by the time Orca reads it depends on timing: a link
    # is a link, and the page summary counts links, visited or not. A visited link's role word is Orca's own message
    # "visited link", which Orca 43.1's Japanese catalog leaves in English, while an unvisited one's is AT-SPI's role
    # name, translated ("リンク"): so the word is written as an unvisited link's, in the journey's language
    # (docs/screen-reader-tests.md, "What Orca 43.1 does not do").
    text = re.sub(r"(?:(\d+) visited links?, )?(\d+) unvisited links?",
                  lambda found: f"{int(found.group(1) or 0) + int(found.group(2))} links", text)
    return re.sub(r"\bvisited link\b", link, text)


def blocks(transcript: str) -> list[tuple[str, list[str]]]:
    """A transcript's steps: each step's line in brackets and the lines under it."""
    steps: list[tuple[str, list[str]]] = []
    for line in transcript.splitlines():
        if line.startswith("["):
            steps.append((line, []))
        elif steps and line.strip():
            steps[-1][1].append(line)
    return steps


def same_speech(kept: str, now: str) -> bool:
    """The same steps saying the same things. While a page loads, what Orca says of the page (its title, the summary)
    and what the page announces (an alert, a status, the focused error summary) arrive as Chromium's events happen
    to: in a step that loads a page the order of its utterances does not count, every utterance does."""
    before, after = blocks(kept), blocks(now)
    if [step for step, _ in before] != [step for step, _ in after]:
        return False
    for (_, lines_before), (_, lines_after) in zip(before, after):
        loaded = any(PAGE_SUMMARY in line for line in lines_before)
        if (sorted(lines_before) if loaded else lines_before) != (sorted(lines_after) if loaded else lines_after):
            return False
    return True


class Journey:
    """One person's way through the console with Orca; `language` is Orca's and the browser's."""

    def __init__(self, name: str, title: str, *, language: str = "en") -> None:
        self.name = name
        self.title = title
        self.language = language
        self.reader = ScreenReader(language=language)
        self.started = time.monotonic()
        self.notes: dict[int, str] = {}
        # Orca's mode as it last said it: keys go to the browser in focus mode, to Orca's commands in browse mode.
        self.focus_mode = False

    def __enter__(self) -> "Journey":
        return self

    def __exit__(self, kind, *exception) -> None:
        self.reader.close()
        TIMES[self.name] = time.monotonic() - self.started
        if kind is not None:
            # Shown by pytest with the failure: what Orca said up to it.
            print(self.transcript())

    # Steps

    def open(self, url: str, *, must: list[str] = (), what: str = "open the page") -> Step:
        step = self.reader.start(url)
        step.what = what
        return self._heard(step, must)

    def press(self, *keys: str, must: list[str] = (), what: str | None = None, until: str | None = None,
              silent: bool = False) -> Step:
        return self._heard(self.reader.press(*keys, what=what, until=until, silent=silent), must)

    def load(self, *keys: str, must: list[str] = (), what: str | None = None) -> Step:
        """Keys that open another page: the step lasts until Orca says the page finished loading."""
        return self.press(*keys, must=must, what=what, until=PAGE_SUMMARY)

    def type(self, text: str, *, what: str | None = None) -> Step:
        return self._heard(self.reader.type(text, what=what), [])

    def tab_to(self, words: str, *, must: list[str] = (), key: str = "Tab") -> Step:
        """Presses Tab until Orca says `words`: each Tab is a step of the transcript."""
        for _ in range(TAB_LIMIT):
            step = self._heard(self.reader.press(key), [])
            if words in step.said:
                return self._heard(step, must)
        raise AssertionError(f"{self.name}: {TAB_LIMIT} presses of {key} never reached {words!r}\n{self.transcript()}")

    def note(self, text: str) -> None:
        """A line in the transcript before the next step: why a step says what it says (an Orca limitation)."""
        self.notes[len(self.reader.steps)] = text

    def _heard(self, step: Step, must) -> Step:
        for piece in step.spoken:
            if piece.strip() in (self.orca("Focus mode"), self.orca("Browse mode")):
                self.focus_mode = piece.strip() == self.orca("Focus mode")
        said = fixed(step.said, self.role("link"))
        missing = [phrase for phrase in must if phrase not in said]
        assert not missing, (f"{self.name}, step '{step.what}': Orca did not say {missing}; it said: {said!r}\n"
                             f"The journey so far:\n{self.transcript()}")
        return step

    # Orca's words in the journey's language

    def role(self, name: str) -> str:
        """A role's name as Orca says it ("heading", "見出し"): AT-SPI's own translation, as Orca reads it."""
        return self._translated("at-spi2-core", name)

    def orca(self, message: str) -> str:
        """One of Orca's own messages ("Focus mode") as it says it in the journey's language."""
        return self._translated("orca", message)

    def _translated(self, domain: str, text: str) -> str:
        return gettext.translation(domain, "/usr/share/locale", languages=[self.language], fallback=True).gettext(text)

    # The transcript

    def transcript(self) -> str:
        lines = [f"# {self.title}",
                 "# What Orca said after each step: the keys pressed in brackets, then each utterance on a line of its own.",
                 "# Written by Tests/External/test_console_speech.py; docs/screen-reader-tests.md says how to read and update it.",
                 "# A link's role word is written as an unvisited link's: whether Chromium marked it visited yet is timing.",
                 ""]
        for index, step in enumerate(self.reader.steps):
            if index in self.notes:
                lines.append(f"# {self.notes[index]}")
            lines.append(f"[{step.what}]")
            other = [language for language in step.languages if language.split("-")[0] != self.language]
            for piece in step.spoken:
                if piece.strip():
                    lines.append("  " + fixed(piece.strip(), self.role("link")))
            if not any(piece.strip() for piece in step.spoken):
                lines.append("  (nothing)")
            if other:
                lines.append(f"  (text in another language: {', '.join(other)})")
            lines.append("")
        return "\n".join(lines)

    def compare_transcript(self) -> None:
        """The transcript must be the one kept in TRANSCRIPTS; with VOUCH_UPDATE_TRANSCRIPTS=1 it is written there."""
        # Every utterance reached espeak-ng in the journey's language: Orca 43.1 keeps one voice for a whole page.
        voices = self.reader.voices()
        assert voices == {self.language}, f"{self.name}: speech-dispatcher spoke with the voices {voices}, not {self.language}"
        now = self.transcript()
        path = TRANSCRIPTS / f"{self.name}.txt"
        if UPDATE:
            TRANSCRIPTS.mkdir(exist_ok=True)
            path.write_text(now)
            return
        assert path.exists(), (f"no transcript {path.relative_to(TRANSCRIPTS.parents[2])}: run the test with "
                               f"VOUCH_UPDATE_TRANSCRIPTS=1 to write it, read it, and commit it\n{now}")
        kept = path.read_text()
        if not same_speech(kept, now):
            diff = "".join(difflib.unified_diff(kept.splitlines(keepends=True), now.splitlines(keepends=True),
                                                f"kept: transcripts/{path.name}", "said this time"))
            message = (f"Orca said something else than the kept transcript {path.name} "
                       f"(VOUCH_UPDATE_TRANSCRIPTS=1 rewrites it if the change is meant):\n{diff}")
            if STRICT:
                raise AssertionError(message)
            warnings.warn(message)
