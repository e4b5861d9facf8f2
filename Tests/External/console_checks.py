"""The checks a console page must pass in a real browser, each returning what it found wrong, in words.

`check_page` runs them all on the page the browser shows; every check leaves the page as it found it (the keyboard
check, last, may leave `#main-content` in the address). A check returns a list of problems, empty when the page
passes, so a test can report every page's problems at once rather than stop at the first.

- axe-core 4.10.2, the engine that PyPI's axe-selenium-python 3.0.0 ships, downloaded at test time (`axe_engine`),
  with the rules tagged WCAG 2.0, 2.1 and 2.2 A and AA.
- Chromium's own accessibility tree (`Accessibility.getFullAXTree`): every control named, every element in the tab
  order with a role, one level-1 heading and no level skipped, the landmarks, the title.
- Reflow: at 320 CSS pixels wide nothing scrolls sideways (WCAG 1.4.10).
- Text at 200 %: nothing that hides its overflow cuts text off, and nothing scrolls sideways (WCAG 1.4.4).
- Keyboard: Tab reaches every element in reading order, each with a visible focus indicator, and leaves the page at
  the end (no trap); the first Tab reaches the skip link, which shows, and Enter moves into `main`; Shift+Tab goes
  back.
- Error pages (GOV.UK's pattern): "Error: " in the title, the error summary focused on load, each of its links to a
  field that shows the same message.

Pages say their language (`<html lang>`, English or Japanese); the words the checks look for are read in it.
"""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time
import zipfile

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from conftest import REPOSITORY
from console_keyboard import Keyboard

AXE_REQUIREMENT = "axe-selenium-python==3.0.0"
AXE_MEMBER = "axe_selenium_python/node_modules/axe-core/axe.min.js"
# axe-core 4.10.2 as that wheel carries it; a different file is refused.
AXE_SHA256 = "b511cd9dec01c76f4b2ad1723b66b6db37d4c2eb4ed199076e1829d9ee7b75e3"
AXE_CACHE = REPOSITORY / ".build" / "test-tools" / "axe-core-4.10.2" / "axe.min.js"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]

AXE = "axe-core"
TREE = "accessibility tree"
OUTLINE = "headings, landmarks and title"
REFLOW = "reflow at 320 px"
TEXT = "text at 200 %"
KEYBOARD = "keyboard"
ERRORS = "error pattern"

# Roles a person operates: each needs a name a screen reader can say.
CONTROL_ROLES = {"link", "button", "textbox", "searchbox", "radio", "checkbox", "combobox", "listbox", "option",
                 "switch", "tab", "menuitem", "menuitemcheckbox", "menuitemradio", "slider", "spinbutton", "treeitem"}
# Roles that say nothing about what an element is: an element in the tab order must not have one of them.
NO_ROLE = {"", "generic", "none", "presentation", "StaticText", "paragraph", "LabelText", "group", "list", "listitem"}
# The console's languages, and the words of its frame the checks look for, in each.
ERROR_PREFIXES = {"en": "Error: ", "ja": "エラー: "}
SKIP_LINKS = {"en": "Skip to main content", "ja": "メインコンテンツへ移動"}
PHONE_WIDTH = 320
# The longest the error check waits for the browser to move the focus to an error summary with `autofocus`.
AUTOFOCUS_WAIT = 2.0


def axe_engine() -> str:
    """axe.min.js from the axe-selenium-python 3.0.0 wheel, downloaded once into .build/test-tools.

    The wheel needs Python 3.12 to install, so it is not installed: pip downloads it for 3.12 and the engine is read
    out of it. Nothing of it is kept in the repository.
    """
    if AXE_CACHE.exists():
        cached = AXE_CACHE.read_bytes()
        if hashlib.sha256(cached).hexdigest() == AXE_SHA256:
            return cached.decode()
    with tempfile.TemporaryDirectory(prefix="vouch-axe-") as directory:
        downloaded = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps",
             "--only-binary=:all:", "--python-version", "3.12", AXE_REQUIREMENT, "-d", directory],
            capture_output=True, text=True, timeout=300)
        if downloaded.returncode != 0:
            raise AssertionError(f"pip could not download {AXE_REQUIREMENT}:\n{downloaded.stderr}")
        wheels = list(pathlib.Path(directory).glob("*.whl"))
        assert len(wheels) == 1, f"pip download left {wheels}"
        with zipfile.ZipFile(wheels[0]) as wheel:
            engine = wheel.read(AXE_MEMBER)
    digest = hashlib.sha256(engine).hexdigest()
    assert digest == AXE_SHA256, f"{AXE_MEMBER} in {AXE_REQUIREMENT} has SHA-256 {digest}, not {AXE_SHA256}"
    AXE_CACHE.parent.mkdir(parents=True, exist_ok=True)
    partial = AXE_CACHE.with_suffix(f".{os.getpid()}.partial")
    partial.write_bytes(engine)
    partial.replace(AXE_CACHE)
    return engine.decode()


# How the checks name an element in a failure: tag, id, classes and the start of its text.
DESCRIBE = """
const describe = element => {
  const text = (element.getAttribute("aria-label") || element.innerText || element.value || "").replace(/\\s+/g, " ").trim();
  const classes = typeof element.className === "string" && element.className.trim()
    ? "." + element.className.trim().split(/\\s+/).join(".") : "";
  return element.tagName.toLowerCase() + (element.id ? "#" + element.id : "") + classes + (text ? ' "' + text.slice(0, 60) + '"' : "");
};
"""

RUN_AXE = """
const tags = arguments[0], done = arguments[arguments.length - 1];
axe.run(document, {runOnly: {type: "tag", values: tags}, resultTypes: ["violations"]}).then(
  result => done({passes: result.passes.length, violations: result.violations.map(violation => ({
    id: violation.id, impact: violation.impact, help: violation.help, helpUrl: violation.helpUrl,
    nodes: violation.nodes.map(node => ({target: node.target.map(String).join(" "), html: node.html,
                                         summary: node.failureSummary}))}))}),
  error => done({error: String(error)}));
"""


def axe_problems(driver, engine: str) -> list[str]:
    if not driver.execute_script("return typeof window.axe === 'object'"):
        driver.execute_script(engine)
    result = driver.execute_async_script(RUN_AXE, AXE_TAGS)
    if "error" in result:
        return [f"axe-core did not run: {result['error']}"]
    if result["passes"] == 0 and not result["violations"]:
        return ["axe-core ran no rule on the page"]
    problems = []
    for violation in result["violations"]:
        nodes = "\n".join(f"      {node['target']}: {node['html'][:300]}\n        {(node['summary'] or '').replace(chr(10), ' ')}"
                          for node in violation["nodes"])
        problems.append(f"{violation['id']} ({violation['impact']}): {violation['help']} <{violation['helpUrl']}>\n{nodes}")
    return problems


def accessibility_tree(driver) -> list[dict]:
    """Chromium's accessibility tree, in document order (depth first from the root)."""
    nodes = driver.execute_cdp_cmd("Accessibility.getFullAXTree", {})["nodes"]
    by_id = {node["nodeId"]: node for node in nodes}
    roots = [node for node in nodes if not node.get("parentId")]
    ordered, stack = [], list(reversed(roots))
    while stack:
        node = stack.pop()
        ordered.append(node)
        stack.extend(reversed([by_id[child] for child in node.get("childIds", []) if child in by_id]))
    return ordered


def _role(node: dict) -> str:
    return node.get("role", {}).get("value", "")


def _name(node: dict) -> str:
    return str(node.get("name", {}).get("value", "")).strip()


def _property(node: dict, name: str):
    for item in node.get("properties", []):
        if item["name"] == name:
            return item["value"].get("value")
    return None


def _markup(driver, node: dict) -> str:
    backend = node.get("backendDOMNodeId")
    if backend is None:
        return "(no DOM node)"
    return driver.execute_cdp_cmd("DOM.getOuterHTML", {"backendNodeId": backend})["outerHTML"][:300]


def _tab_index(driver, node: dict) -> int:
    backend = node.get("backendDOMNodeId")
    if backend is None:
        return -1
    remote = driver.execute_cdp_cmd("DOM.resolveNode", {"backendNodeId": backend})["object"]
    answer = driver.execute_cdp_cmd("Runtime.callFunctionOn", {"objectId": remote["objectId"], "returnByValue": True,
                                                               "functionDeclaration": "function() { return this.tabIndex; }"})
    driver.execute_cdp_cmd("Runtime.releaseObject", {"objectId": remote["objectId"]})
    return int(answer["result"].get("value", -1))


def tree_problems(driver, tree: list[dict]) -> list[str]:
    """Every control has a name, and every element in the tab order has a role that says what it is."""
    problems = []
    for node in tree:
        if node.get("ignored"):
            continue
        role = _role(node)
        if role in CONTROL_ROLES and not _name(node):
            problems.append(f"a {role} has no accessible name: {_markup(driver, node)}")
        elif role in NO_ROLE and _property(node, "focusable") and _tab_index(driver, node) >= 0:
            problems.append(f"an element in the tab order has no role (it is {role or 'nothing'}): {_markup(driver, node)}")
    return problems


def outline_problems(driver, tree: list[dict], *, signed_in: bool) -> list[str]:
    """One level-1 heading, no level skipped going down, the landmarks, and a title that matches the h1."""
    problems = []
    headings = [(int(_property(node, "level") or 0), _name(node)) for node in tree
                if not node.get("ignored") and _role(node) == "heading"]
    outline = " > ".join(f"h{level} {name!r}" for level, name in headings)
    if sum(1 for level, _ in headings if level == 1) != 1:
        problems.append(f"{sum(1 for level, _ in headings if level == 1)} level-1 headings, not 1: {outline}")
    # GOV.UK's error summary and success banner put an h2 before the page's h1, so the first heading may be either.
    previous = 1
    for level, name in headings:
        if level > previous + 1:
            problems.append(f"the heading {name!r} is at level {level} after level {previous}: {outline}")
        if not name:
            problems.append(f"a level-{level} heading has no text: {outline}")
        previous = level
    landmarks = [_role(node) for node in tree if not node.get("ignored")]
    required = ["banner", "main", "contentinfo"] + (["navigation"] if signed_in else [])
    for landmark in required:
        if landmark not in landmarks:
            problems.append(f"no {landmark} landmark")
    if landmarks.count("main") > 1:
        problems.append(f"{landmarks.count('main')} main landmarks")
    title, h1, has_summary, language = driver.execute_script(
        "const h1 = document.querySelectorAll('h1');"
        "return [document.title, h1.length === 1 ? h1[0].textContent.replace(/\\s+/g, ' ').trim() : null,"
        " Boolean(document.querySelector('.error-summary')), document.documentElement.lang];")
    # The title says what the h1 says, maybe shorter ("Sign in" for "Sign in to Vouch"), then the product, once.
    prefix = ERROR_PREFIXES.get(language, "Error: ") if has_summary else ""
    subject = title.removeprefix(prefix).removesuffix(" – Vouch")
    if not title.startswith(prefix) or not title.endswith(" – Vouch") or not subject:
        problems.append(f"the title {title!r} is not '{prefix}<what the page is> – Vouch'")
    elif "Vouch" in subject.split():
        problems.append(f"the title {title!r} says Vouch twice")
    elif h1 is not None and subject.casefold() not in h1.casefold():
        problems.append(f"the title {title!r} does not say what the h1 {h1!r} says")
    if language not in ERROR_PREFIXES:
        problems.append(f"the page does not say its language as one of the console's ({language!r}, not one of {sorted(ERROR_PREFIXES)})")
    return problems


WIDE_ELEMENTS = DESCRIBE + """
const root = document.documentElement, width = root.clientWidth;
// Wider than the viewport, or holding content wider than itself (text that does not wrap); the innermost ones.
const reach = element => Math.max(element.getBoundingClientRect().right,
                                  element.getBoundingClientRect().left + element.scrollWidth);
const wider = element => !element.closest(".visually-hidden") && reach(element) > width + 1;
const wide = root.scrollWidth <= width ? [] : [...document.body.querySelectorAll("*")]
  .filter(element => wider(element) && ![...element.children].some(wider))
  .slice(0, 5).map(element => describe(element) + " reaches " + Math.round(reach(element)) + " px");
return {innerWidth: window.innerWidth, clientWidth: width, scrollWidth: root.scrollWidth, wide: wide};
"""


def _sideways(measured: dict, where: str) -> list[str]:
    if measured["scrollWidth"] <= measured["clientWidth"]:
        return []
    return [f"{where} the page is {measured['scrollWidth']} px wide in a {measured['clientWidth']} px viewport, so it "
            "scrolls sideways; widest: " + "; ".join(measured["wide"])]


def reflow_problems(driver) -> list[str]:
    """At 320 CSS pixels wide (400 % zoom of a 1280 px window) nothing scrolls sideways."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": PHONE_WIDTH, "height": 640, "deviceScaleFactor": 1,
                                                                  "mobile": False})
    try:
        measured = driver.execute_script(WIDE_ELEMENTS)
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    if measured["innerWidth"] != PHONE_WIDTH:
        return [f"the window could not be made {PHONE_WIDTH} px wide (it is {measured['innerWidth']} px)"]
    return _sideways(measured, f"at {PHONE_WIDTH} px")


CLIPPED_TEXT = DESCRIBE + """
const hides = value => value === "hidden" || value === "clip";
return [...document.body.querySelectorAll("*")].filter(element => {
  if (element.closest(".visually-hidden")) return false;
  // A text field shows a long value by scrolling it under the caret, as every browser does: the text is all
  // there for the person typing, so a value longer than the field is not text cut off.
  if (element.matches("input, textarea, select")) return false;
  const style = getComputedStyle(element);
  return (hides(style.overflowX) && element.scrollWidth > element.clientWidth + 1)
      || (hides(style.overflowY) && element.scrollHeight > element.clientHeight + 1)
      || (style.textOverflow === "ellipsis" && element.scrollWidth > element.clientWidth + 1);
}).slice(0, 5).map(element => describe(element) + " shows " + element.clientWidth + "x" + element.clientHeight
                            + " px of " + element.scrollWidth + "x" + element.scrollHeight);
"""


# The width the 200 % text check lays pages out at: a laptop's window (WCAG 1.4.4 resizes text, not the window). Set
# explicitly, so the check never depends on whether the browser has finished undoing the reflow check's 320 px.
TEXT_CHECK_WIDTH = 1280


def text_problems(driver) -> list[str]:
    """With the root font at 200 % (the stylesheet sizes everything in rem), no text is cut off or scrolls sideways."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": TEXT_CHECK_WIDTH, "height": 800, "deviceScaleFactor": 1,
                                                                  "mobile": False})
    driver.execute_script("document.documentElement.style.fontSize = '200%'")
    try:
        clipped = driver.execute_script(CLIPPED_TEXT)
        measured = driver.execute_script(WIDE_ELEMENTS)
    finally:
        driver.execute_script("document.documentElement.style.fontSize = ''")
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    problems = [f"with text at 200 % {element} (it hides its overflow)" for element in clipped]
    return problems + _sideways(measured, "with text at 200 %")


# The elements Tab should reach, in reading order, and how each looks unfocused. A radio group is one stop: its
# chosen radio, or its first when none is chosen. Also starts a log of every element that gets the focus, with how
# it looks then: Chromium applies :focus-visible before it tells the page.
TAB_STOPS = DESCRIBE + """
const look = element => {
  const style = getComputedStyle(element);
  return {outline: style.outlineStyle === "none" || parseFloat(style.outlineWidth) === 0 || style.outlineColor === "rgba(0, 0, 0, 0)"
            ? "none" : style.outlineStyle + " " + style.outlineWidth + " " + style.outlineColor,
          boxShadow: style.boxShadow, background: style.backgroundColor,
          border: style.borderTopColor + " " + style.borderBottomColor + " " + style.borderBottomWidth};
};
const candidates = document.querySelectorAll(
  "a[href], area[href], button, input, select, textarea, summary, iframe, [tabindex], [contenteditable=''], [contenteditable=true]");
const groups = new Map();
const stops = [...candidates].filter(element => {
  if (element.tabIndex < 0 || element.matches(":disabled") || element.closest("[inert]")) return false;
  if (element.type === "hidden" || !element.getClientRects().length) return false;
  if (getComputedStyle(element).visibility !== "visible") return false;
  if (element.type === "radio" && element.name) {
    const key = [...document.forms].indexOf(element.form) + "/" + element.name;
    if (!groups.has(key)) {
      const group = [...document.querySelectorAll("input[type=radio]")].filter(other => other.name === element.name && other.form === element.form);
      groups.set(key, group.find(other => other.checked) || group[0]);
    }
    return groups.get(key) === element;
  }
  return true;
});
window.vouchTabStops = stops;
window.vouchFocusLog = [];
// Out of sight wherever the page scrolls: no size, or beside the page (scrolling into view comes after focusin, so
// only what scrolling cannot fix counts).
const unseen = element => {
  const rect = element.getBoundingClientRect();
  return rect.width < 2 || rect.height < 2 || rect.right + window.scrollX <= 0 || rect.left + window.scrollX >= document.documentElement.scrollWidth;
};
// Once per page, so that a second lap logs each focus once.
if (!window.vouchLogsFocus) {
  window.vouchLogsFocus = true;
  document.addEventListener("focusin", event => window.vouchFocusLog.push({index: window.vouchTabStops.indexOf(event.target),
    tabbable: event.target.tabIndex >= 0, unseen: unseen(event.target), description: describe(event.target),
    style: look(event.target), windowFocused: document.hasFocus()}), true);
}
return stops.map(element => ({description: describe(element), style: look(element), radio: element.type === "radio"}));
"""

FOCUS_REPORT = f"const SKIP_LINKS = {json.dumps(list(SKIP_LINKS.values()))};" + """
const element = document.activeElement || document.body;
const rect = element.getBoundingClientRect();
// Past the last element Tab goes to the browser's own controls, and the page's focus falls back to the body.
// (document.hasFocus() cannot tell: a page loaded after focus left the last one starts without it.)
return {left: element === document.body, index: (window.vouchTabStops || []).indexOf(element),
        inView: rect.width > 0 && rect.height > 0 && rect.bottom > 0 && rect.right > 0
                && rect.top < window.innerHeight && rect.left < window.innerWidth,
        isSkipLink: element.matches("a.skip-link[href='#main-content']") && SKIP_LINKS.includes(element.textContent.trim()),
        inMain: Boolean(element.closest("main")) || Boolean(document.querySelector("main")
                && document.querySelector("main").compareDocumentPosition(element) & Node.DOCUMENT_POSITION_FOLLOWING),
        isMain: element.matches("main#main-content")};
"""


# A focus ring seen missing while the browser window itself had no focus (Chromium then applies no :focus rule) is
# looked at again in another lap, up to LAPS laps in all; only the last lap's findings count.
UNJUDGED = "while the window had no focus, "
LAPS = 3


def _indicator_problem(stop: dict, focused: dict) -> str | None:
    unfocused, style = stop["style"], focused["style"]
    if style["outline"] != "none" or any(style[key] != unfocused[key] for key in ("boxShadow", "background", "border")):
        return None
    return f"{stop['description']} looks the same focused and unfocused (no outline, shadow, background or border change)"


def _lap(driver, stops: list[dict]) -> list[str]:
    """A lap of Tab through the page in one WebDriver action: the focus log must go through every stop in reading
    order and past the last one (out of the page, or round to the first stop), each stop with a visible indicator.

    Where the lap starts does not matter (on an error page the summary has the focus first): the log may go round
    from the middle. An element that takes the focus without being a Tab stop (the summary again, given the focus
    back when the window gets it) is not counted."""
    count = len(stops)
    if count == 0:
        return ["nothing on the page takes the focus, not even a skip link"]
    presses = count + 1
    ActionChains(driver, duration=0).send_keys(Keys.TAB * presses).perform()
    log = [entry for entry in driver.execute_script("return window.vouchFocusLog") if entry["tabbable"]]
    end = driver.execute_script(FOCUS_REPORT)
    went = ", ".join(entry["description"] for entry in log)
    reached = [entry["index"] for entry in log if entry["index"] >= 0]
    past_the_end = end["left"] or end["index"] == 0 or any(
        (before, after) == (count - 1, 0) for before, after in zip(reached, reached[1:]))
    if len(log) < count or not past_the_end:
        return [f"a keyboard trap: {presses} Tabs never get past the end of the page; the focus stays on "
                f"{log[-1]['description'] if log else 'where it was'} after going through: {went}"]
    problems = []
    strangers = sorted({entry["description"] for entry in log if entry["index"] < 0})
    if strangers:
        problems.append(f"Tab reaches elements that are not visible on the page: {strangers}")
    missing = [stop["description"] for index, stop in enumerate(stops) if index not in reached]
    if missing or any(after != (before + 1) % count for before, after in zip(reached, reached[1:])):
        problems.append("Tab does not go through the page in reading order: "
                        + (f"it never reaches {missing}; " if missing else "") + f"it went through: {went}")
    for index in sorted(set(reached)):
        entry = next(entry for entry in log if entry["index"] == index)
        problem = _indicator_problem(stops[index], entry)
        if problem:
            # Without the window's focus no :focus rule applies, whatever the page says: that lap cannot judge it.
            problems.append(problem if entry["windowFocused"] else UNJUDGED + problem)
        if entry["unseen"]:
            problems.append(f"{entry['description']} takes the focus where it cannot be seen (no size, or off the page)")
    return problems


def keyboard_problems(driver, *, whole_page: bool = True) -> list[str]:
    """The skip link and Shift+Tab, and with `whole_page` a lap of Tab through the page (it needs the page's
    JavaScript to log the focus: without it, only the skip link and Shift+Tab are checked)."""
    keys = Keyboard(driver)
    _wait_for_autofocus(driver)
    stops = driver.execute_script(TAB_STOPS)
    problems = _lap(driver, stops) if whole_page else []
    for _ in range(LAPS - 1):
        if not any(problem.startswith(UNJUDGED) for problem in problems):
            break
        stops = driver.execute_script(TAB_STOPS)
        problems = _lap(driver, stops)
    if problems and problems[0].startswith("a keyboard trap"):
        return problems
    return problems + _skip_link_problems(keys, driver, stops)


AUTOFOCUS_DONE = """
const target = document.querySelector("[autofocus]");
return target === null || document.activeElement === target || document.activeElement !== document.body;
"""


def _wait_for_autofocus(driver, seconds: float = 2.0) -> None:
    """A page with problems focuses its error summary (`autofocus`) at a rendering step after load; Tab pressed
    before that would see the focus taken away in the middle of the lap. Waits until it has happened."""
    deadline = time.monotonic() + seconds
    while not driver.execute_script(AUTOFOCUS_DONE) and time.monotonic() < deadline:
        time.sleep(0.02)


def _skip_link_problems(keys: Keyboard, driver, stops: list[dict]) -> list[str]:
    """Coming into the page, the first Tab reaches the skip link, which shows, and Enter on it moves the focus into
    main; the next Tab goes on inside main, and Shift+Tab from there goes back to the stop before it."""
    if not _to_the_edge(keys, driver, len(stops)):
        return [f"a keyboard trap: {len(stops) + 1} Tabs never leave the page"]
    if driver.execute_script(FOCUS_REPORT)["left"]:
        keys.tab()
    first = driver.execute_script(FOCUS_REPORT)
    if not first["isSkipLink"]:
        focus = keys.focused()
        return [f"the first Tab into the page reaches {focus.description}" + (f" (to {focus.href})" if focus.href else "")
                + ", not a skip link to #main-content"]
    problems = [] if first["inView"] else ["the skip link is not visible when it has the focus"]
    keys.enter()
    if not driver.execute_script(FOCUS_REPORT)["isMain"]:
        return problems + [f"Enter on the skip link moves the focus to {keys.focused().description}, not to main"]
    keys.tab()
    after = driver.execute_script(FOCUS_REPORT)
    if after["left"] or after["index"] == 0:
        # Nothing to reach after main: out of the page, or round to the top.
        return problems
    if not after["inMain"]:
        return problems + [f"Tab after the skip link goes back to {keys.focused().description}, before main"]
    index = after["index"]
    if index > 0:
        keys.shift_tab()
        back = driver.execute_script(FOCUS_REPORT)["index"]
        previous = stops[index - 1]
        # Shift+Tab enters a radio group with nothing chosen at its last radio, not its first.
        if back != index - 1 and not (previous["radio"] and keys.focused().type == "radio"):
            problems.append(f"Shift+Tab from {stops[index]['description']} goes to {keys.focused().description}, "
                            f"not back to {previous['description']}")
    return problems


def _to_the_edge(keys: Keyboard, driver, count: int) -> bool:
    """Tabs past the last stop: out of the page, or round to the first stop; False when the focus never gets there."""
    at = driver.execute_script(FOCUS_REPORT)
    if at["left"] or at["index"] == 0:
        return True
    if at["index"] > 0:
        # From a stop, the number of Tabs is known: all at once.
        ActionChains(driver, duration=0).send_keys(Keys.TAB * (count - at["index"])).perform()
    else:
        # From where the page put the focus (an error summary), a key at a time.
        for _ in range(count + 1):
            keys.tab()
            at = driver.execute_script(FOCUS_REPORT)
            if at["left"] or at["index"] == 0:
                break
    at = driver.execute_script(FOCUS_REPORT)
    return at["left"] or at["index"] == 0


SUMMARY = """
const summary = document.querySelectorAll(".error-summary");
const active = document.activeElement;
const text = value => (value || "").replace(/\\s+/g, " ").trim();
const links = summary.length ? [...summary[0].querySelectorAll("a")].map(link => {
  const href = link.getAttribute("href") || "";
  const target = href.startsWith("#") ? document.getElementById(decodeURIComponent(href.slice(1))) : null;
  const group = target && target.closest(".form-group--error");
  const messages = group ? [...group.querySelectorAll(".error-message")] : [];
  const described = target ? ((target.closest("fieldset") || target).getAttribute("aria-describedby") || "")
                             + " " + (target.getAttribute("aria-describedby") || "") : "";
  return {text: text(link.textContent), href: href, target: Boolean(target),
          control: Boolean(target && target.matches("input, select, textarea")),
          messages: messages.map(message => text(message.textContent).replace(/^(Error|エラー):\\s*/, "")),
          describedBy: messages.every(message => message.id && described.split(/\\s+/).includes(message.id))};
}) : [];
const fieldErrors = [...document.querySelectorAll(".error-message")].map(message => text(message.textContent).replace(/^(Error|エラー):\\s*/, ""));
return {title: document.title, language: document.documentElement.lang, summaries: summary.length, focused: summary.length > 0 && summary[0].contains(active),
        active: active ? active.tagName.toLowerCase() + (active.className ? "." + active.className : "") : null,
        links: links, fieldErrors: fieldErrors};
"""


def error_pattern_problems(driver) -> list[str]:
    """On a page that shows problems: GOV.UK's error pattern. Run it first: it looks where the focus is on load."""
    found = driver.execute_script(SUMMARY)
    # The browser applies `autofocus` when it next renders, which may come just after WebDriver saw the page load.
    waited_until = time.monotonic() + AUTOFOCUS_WAIT
    while found["summaries"] and not found["focused"] and time.monotonic() < waited_until:
        time.sleep(0.05)
        found = driver.execute_script(SUMMARY)
    prefix = ERROR_PREFIXES.get(found["language"], "Error: ")
    if found["summaries"] == 0 and not found["title"].startswith(prefix):
        return []
    problems = []
    if not found["title"].startswith(prefix):
        problems.append(f"the page shows an error summary but its title {found['title']!r} does not start with {prefix!r}")
    if found["summaries"] != 1:
        problems.append(f"the title starts with {prefix!r} but the page has {found['summaries']} error summaries, not 1")
        return problems
    if not found["focused"]:
        problems.append(f"the error summary does not have the focus when the page loads ({found['active']} has it)")
    if not found["links"]:
        problems.append("the error summary links to no field")
    for link in found["links"]:
        if not link["target"]:
            problems.append(f"the error summary's link {link['text']!r} points to {link['href']!r}, which is no element's id")
        elif not link["control"]:
            problems.append(f"the error summary's link {link['text']!r} points to {link['href']!r}, which is not a form control")
        elif link["text"] not in link["messages"]:
            problems.append(f"the field {link['href']} does not show the summary's message {link['text']!r} "
                            f"(it shows {link['messages']})")
        elif not link["describedBy"]:
            problems.append(f"the error message of {link['href']} is not in its control's aria-describedby")
    unlisted = [message for message in found["fieldErrors"] if message not in [link["text"] for link in found["links"]]]
    if unlisted:
        problems.append(f"fields show errors the summary does not list: {unlisted}")
    return problems


def check_page(driver, *, signed_in: bool, axe: str | None) -> dict[str, list[str]]:
    """Every check on the page the browser shows. axe-core and the keyboard's lap through the page need the page's
    JavaScript: they run when `axe` (the engine) is given, in a browser with JavaScript on."""
    problems = {ERRORS: error_pattern_problems(driver)}
    if axe is not None:
        problems[AXE] = axe_problems(driver, axe)
    tree = accessibility_tree(driver)
    problems[TREE] = tree_problems(driver, tree)
    problems[OUTLINE] = outline_problems(driver, tree, signed_in=signed_in)
    problems[REFLOW] = reflow_problems(driver)
    problems[TEXT] = text_problems(driver)
    problems[KEYBOARD] = keyboard_problems(driver, whole_page=axe is not None)
    return problems
