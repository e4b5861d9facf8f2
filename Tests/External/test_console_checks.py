"""The console's browser checks find what they look for: each one, on a page made to fail it, says so.

A page built like a console page passes every check; each variant breaks one rule and must be caught by the check
for that rule, in the words a person fixing it needs. Without this, a check that could never fail would pass the
console as well. The pages come from a server on 127.0.0.1 into the same headless Chromium the crawls use.
"""

from __future__ import annotations

from typing import Callable, Iterator

import pytest

import chromium
from console_checks import AXE, ERRORS, KEYBOARD, OUTLINE, REFLOW, TEXT, TREE, check_page

STYLE = """
body{font-family:sans-serif;font-size:1.1875rem;line-height:1.45}
.skip-link{position:absolute;left:-9999rem}
.skip-link:focus{position:static}
a:focus-visible,button:focus-visible,input:focus-visible,main:focus{outline:3px solid #fd0;box-shadow:0 0 0 6px #0b0c0c}
.visually-hidden{position:absolute!important;width:1px!important;height:1px!important;overflow:hidden!important;clip-path:inset(50%)!important;white-space:nowrap!important}
"""
SKIP_LINK = '<a href="#main-content" class="skip-link">Skip to main content</a>'
NAVIGATION = '<nav aria-label="Console"><ul><li><a href="#fixes">Fixes</a></li></ul></nav>'
FOOTER = '<footer><p><a href="#statement">Accessibility of this console</a></p></footer>'


def page(main: str = "<p>Two fixes are in testing.</p>", *, title: str = "Fixes – Vouch", h1: str = "Fixes",
         style: str = STYLE, skip_link: str = SKIP_LINK, navigation: str = NAVIGATION, footer: str = FOOTER,
         before_h1: str = "", end: str = "") -> str:
    return f"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>{title}</title><style>{style}</style></head>
<body>{skip_link}<header><a href="#home">Vouch</a>{navigation}</header>
<main id="main-content" tabindex="-1">{before_h1}<h1>{h1}</h1>{main}</main>{footer}{end}</body></html>"""


ERROR_SUMMARY = """<div class="error-summary" tabindex="-1" {autofocus}><div role="alert"><h2>There is a problem</h2>
<ul><li><a href="#{target}">{message}</a></li></ul></div></div>"""
FIELD_IN_ERROR = """<form method="post" novalidate><div class="form-group form-group--error"><label for="field-token">Your token</label>
<p id="field-token-error" class="error-message"><span class="visually-hidden">Error:</span> Enter your token</p>
<input id="field-token" name="token" type="password" aria-describedby="field-token-error"></div>
<button type="submit">Sign in</button></form>"""


def error_page(*, autofocus: str = "autofocus", target: str = "field-token", message: str = "Enter your token",
               title: str = "Error: Sign in – Vouch") -> str:
    return page(FIELD_IN_ERROR, title=title, h1="Sign in",
                before_h1=ERROR_SUMMARY.format(autofocus=autofocus, target=target, message=message))


# (what is wrong, the page, the check that must catch it, words its report must contain)
BROKEN = [
    ("an image without alt text", page('<p><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></p>'), AXE, "image-alt"),
    ("grey text on white", page('<p style="color:#bbb">Two fixes are in testing.</p>'), AXE, "color-contrast"),
    ("a button without a name", page("<p><button></button></p>"), TREE, "a button has no accessible name"),
    ("a focusable div", page('<div tabindex="0">Approve</div>'), TREE, "an element in the tab order has no role"),
    ("two h1", page("<h1>More fixes</h1>"), OUTLINE, "2 level-1 headings"),
    ("an h3 after the h1", page("<h3>Testing</h3>"), OUTLINE, "at level 3 after level 1"),
    ("no footer", page(footer=""), OUTLINE, "no contentinfo landmark"),
    ("no navigation", page(navigation=""), OUTLINE, "no navigation landmark"),
    ("a title unlike the h1", page(title="Testers – Vouch"), OUTLINE, "does not say what the h1"),
    ("a title that says Vouch twice", page(title="Welcome to Vouch – Vouch", h1="Welcome to Vouch"), OUTLINE, "says Vouch twice"),
    ("a fixed width", page('<p style="width:30rem">Two fixes are in testing.</p>'), REFLOW, "scrolls sideways"),
    ("a box of fixed height", page('<p style="height:20px;overflow:hidden">Two fixes are in testing.</p>'), TEXT,
     "hides its overflow"),
    ("text that does not wrap", page('<p style="white-space:nowrap">' + "Two fixes are in testing. " * 4 + "</p>"), TEXT,
     "scrolls sideways"),
    ("no focus indicator", page(style=STYLE + "a:focus-visible{outline:none;box-shadow:none}"), KEYBOARD,
     "looks the same focused and unfocused"),
    ("no skip link", page(skip_link=""), KEYBOARD, "not a skip link"),
    ("a skip link that goes nowhere", page(skip_link='<a href="#nowhere" class="skip-link">Skip to main content</a>'),
     KEYBOARD, "not a skip link"),
    ("a skip link that stays hidden", page(style=STYLE.replace(".skip-link:focus{position:static}", "")), KEYBOARD,
     "cannot be seen"),
    ("a link off the page", page('<p><a href="#more" style="position:absolute;left:-100rem">More fixes</a></p>'),
     KEYBOARD, "cannot be seen"),
    ("a field that keeps the focus", page('<p><label for="trap">Comment</label><input id="trap"></p>',
                                          end="<script>document.getElementById('trap').addEventListener('keydown',"
                                              " event => { if (event.key === 'Tab') event.preventDefault(); });</script>"),
     KEYBOARD, "a keyboard trap"),
    ("a positive tabindex", page('<p><a href="#a">First</a> <a href="#b" tabindex="1">Second</a></p>'), KEYBOARD,
     "reading order"),
    ("an error summary without focus", error_page(autofocus=""), ERRORS, "does not have the focus"),
    ("an error summary linking nowhere", error_page(target="field-nothing"), ERRORS, "which is no element's id"),
    ("a summary message the field does not show", error_page(message="Enter a token"), ERRORS,
     "does not show the summary's message"),
    ("an error page without 'Error: '", error_page(title="Sign in – Vouch"), ERRORS, "does not start with 'Error: '"),
]


@pytest.fixture(scope="module")
def checked(axe) -> Iterator[Callable[[str], dict[str, list[str]]]]:
    """Opens a page in Chromium (served from 127.0.0.1, as the console is) and runs every check on it."""
    server, driver = chromium.PageServer(), chromium.start()
    try:
        def check(html: str) -> dict[str, list[str]]:
            driver.get(server.publish(html))
            return check_page(driver, signed_in=True, axe=axe)
        yield check
    finally:
        chromium.stop(driver)
        server.close()


@pytest.mark.parametrize("html", [page(), error_page()], ids=["page", "error-page"])
def test_a_page_built_like_the_console_passes_every_check(checked, html):
    problems = {check: found for check, found in checked(html).items() if found}
    assert not problems, problems


@pytest.mark.parametrize("wrong,html,check,words", BROKEN, ids=[wrong for wrong, _, _, _ in BROKEN])
def test_each_check_catches_what_it_is_for(checked, wrong, html, check, words):
    found = checked(html)[check]
    assert any(words in problem for problem in found), f"{check} did not report {wrong}: {found}"
