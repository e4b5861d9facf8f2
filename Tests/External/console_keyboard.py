"""A keyboard for journeys through the console: real key presses, and what has the focus after each.

Keys go to Chromium as input events through the DevTools protocol (`Input.dispatchKeyEvent`), as a keyboard's do:
Tab moves the focus by the browser's own rules, Enter follows a link or sends a form, Space presses a button or
ticks a box, arrow keys move between radios, and the page sees `:focus-visible` as it would with a real keyboard.
No journey clicks or sets a value from a script.

A journey reads as what a person does:

    keys = Keyboard(driver)
    keys.fill("Your token", token)
    keys.enter()
    keys.follow("Continue to your fixes")
    keys.choose("It worked")
"""

from __future__ import annotations

from dataclasses import dataclass

# name: (code, Windows virtual key code, text the key types)
KEYS = {
    "Tab": ("Tab", 9, ""),
    "Enter": ("Enter", 13, "\r"),
    " ": ("Space", 32, " "),
    "Escape": ("Escape", 27, ""),
    "Backspace": ("Backspace", 8, ""),
    "End": ("End", 35, ""),
    "ArrowUp": ("ArrowUp", 38, ""),
    "ArrowDown": ("ArrowDown", 40, ""),
    "ArrowLeft": ("ArrowLeft", 37, ""),
    "ArrowRight": ("ArrowRight", 39, ""),
}
SHIFT = 8
# Enough Tabs to cross any console page; a journey that needs more has lost its way.
TAB_LIMIT = 80

# What has the focus: enough to recognise it in a journey and to say it in a failure.
FOCUSED = """
const element = document.activeElement;
// Past the last element Tab goes to the browser's own controls, and the page's focus falls back to the body.
if (!element || element === document.body || element === document.documentElement) {
  return {tag: "body", label: "", description: "nothing in the page (the body)"};
}
const text = value => (value || "").replace(/\\s+/g, " ").trim();
let label = "";
if (element.labels && element.labels.length) label = [...element.labels].map(each => text(each.innerText)).join(" ");
label = label || text(element.getAttribute("aria-label")) || text(element.innerText) || text(element.value);
const tag = element.tagName.toLowerCase();
return {
  tag: tag, id: element.id, label: label, href: element.getAttribute("href"), type: element.type || "",
  name: element.getAttribute("name") || "", checked: Boolean(element.checked),
  in_main: Boolean(element.closest("main")),
  description: tag + (element.id ? "#" + element.id : "") + (element.className && typeof element.className === "string"
    ? "." + element.className.trim().split(/\\s+/).join(".") : "") + (label ? ' "' + label.slice(0, 60) + '"' : ""),
};
"""


@dataclass
class Focus:
    """The focused element as the keyboard found it."""
    tag: str
    label: str
    description: str
    id: str = ""
    href: str | None = None
    type: str = ""
    name: str = ""
    checked: bool = False
    in_main: bool = False

    def matches(self, words: str) -> bool:
        return words.casefold() in self.label.casefold()


class Keyboard:
    """Presses keys in the page `driver` shows and reports where the focus is."""

    def __init__(self, driver) -> None:
        self.driver = driver

    def press(self, key: str, *, shift: bool = False) -> Keyboard:
        code, key_code, text = KEYS[key]
        modifiers = SHIFT if shift else 0
        event = {"key": key, "code": code, "windowsVirtualKeyCode": key_code, "nativeVirtualKeyCode": key_code,
                 "modifiers": modifiers}
        # rawKeyDown then char is how Chromium itself splits a key that types something (Enter, Space).
        self.driver.execute_cdp_cmd("Input.dispatchKeyEvent", {"type": "rawKeyDown", **event})
        if text:
            self.driver.execute_cdp_cmd("Input.dispatchKeyEvent", {"type": "char", "text": text, "unmodifiedText": text, **event})
        self.driver.execute_cdp_cmd("Input.dispatchKeyEvent", {"type": "keyUp", **event})
        return self

    def tab(self, times: int = 1) -> Keyboard:
        for _ in range(times):
            self.press("Tab")
        return self

    def shift_tab(self) -> Keyboard:
        return self.press("Tab", shift=True)

    def enter(self) -> Keyboard:
        return self.press("Enter")

    def space(self) -> Keyboard:
        return self.press(" ")

    def type(self, text: str) -> Keyboard:
        """Types `text` into the focused field, one key per character."""
        for character in text:
            event = {"key": character, "text": character, "unmodifiedText": character}
            self.driver.execute_cdp_cmd("Input.dispatchKeyEvent", {"type": "keyDown", **event})
            self.driver.execute_cdp_cmd("Input.dispatchKeyEvent", {"type": "keyUp", **event})
        return self

    def focused(self) -> Focus:
        return Focus(**{key: value for key, value in self.driver.execute_script(FOCUSED).items()
                        if key in Focus.__dataclass_fields__})

    def tab_to(self, words: str, *, limit: int = TAB_LIMIT) -> Focus:
        """Presses Tab until the focused element's label or text contains `words`; fails naming what it passed."""
        passed: list[str] = []
        for _ in range(limit):
            self.tab()
            focus = self.focused()
            if focus.matches(words):
                return focus
            passed.append(focus.description)
        raise AssertionError(f"{limit} Tabs never reached {words!r}; the focus went through:\n  " + "\n  ".join(passed))

    def fill(self, label: str, text: str) -> Keyboard:
        """Tabs to the field labelled `label` and types `text` in it."""
        focus = self.tab_to(label)
        assert focus.tag in ("input", "textarea"), f"{label!r} reached {focus.description}, not a field"
        return self.type(text)

    def clear(self) -> Keyboard:
        """Empties the focused field as a person does: to its end, then Backspace over every character."""
        length = self.driver.execute_script("return document.activeElement.value.length")
        self.press("End")
        for _ in range(length):
            self.press("Backspace")
        return self

    def follow(self, words: str) -> Keyboard:
        """Tabs to the link or button whose text contains `words` and presses Enter."""
        focus = self.tab_to(words)
        assert focus.tag in ("a", "button"), f"{words!r} reached {focus.description}, not a link or a button"
        return self.enter()

    def choose(self, option: str, *, limit: int = 20) -> Focus:
        """Chooses the radio labelled `option`: Tab into its group, then the down arrow until it is chosen.

        A radio group is one Tab stop; the arrow keys move between its options and choose the one they reach.
        """
        focus = self.focused()
        if focus.type != "radio":
            focus = self._tab_to_radio()
        for _ in range(limit):
            if focus.matches(option):
                if not focus.checked:
                    self.space()
                    focus = self.focused()
                assert focus.checked, f"{option!r} has the focus but Space did not choose it"
                return focus
            self.press("ArrowDown")
            focus = self.focused()
            assert focus.type == "radio", f"the down arrow left the radio group for {focus.description}"
        raise AssertionError(f"the down arrow never reached the option {option!r}")

    def _tab_to_radio(self) -> Focus:
        for _ in range(TAB_LIMIT):
            self.tab()
            focus = self.focused()
            if focus.type == "radio":
                return focus
        raise AssertionError(f"{TAB_LIMIT} Tabs never reached a radio group")
