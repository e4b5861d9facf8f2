"""A real browser reads OFREP from another origin, as a web app's OpenFeature provider does.

Debian's headless Chromium, driven by Selenium through Debian's chromedriver (chromium.py), opens a page served
by an http.server on 127.0.0.1:<page port>. The page's own JavaScript, inline in its HTML, calls vouchd on 127.0.0.1:<vouchd port>, a
different origin: `fetch` for the bulk evaluation (with `Authorization`, `Content-Type` and `If-None-Match`, so
every call is preflighted), and `EventSource` for the event stream the bulk answer offers. The page records what
it could read in `window.results` (and shows it in `<pre id="results">`); the test reads that with Selenium.

The page and vouchd are on 127.0.0.1 only.
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest

import chromium

FLAG = "tv-channel-selector-labels"
TARGETING_KEY = "user-1"
# The longest the test waits for the page: a whole fetch sequence, a stream to open, a change to arrive.
WAIT = 10.0
# vouchd blocks an address after this many unknown tokens; low, so that the page can read a 429.
MAX_AUTH_FAILURES = 2

PAGE = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Vouch flags from another origin</title></head>
<body>
<h1>Vouch flags from another origin</h1>
<p>Flag <code id="flag"></code> is <output id="value">not read yet</output>.</p>
<pre id="results"></pre>
<script>
"use strict";
const config = __CONFIG__;
const results = window.results = {
  done: false, fetch: null, eventStreams: undefined,
  stream: {state: "not started", opened: 0, errors: 0, events: [], values: []},
};
document.getElementById("flag").textContent = config.flag;

function show() {
  document.getElementById("results").textContent = JSON.stringify(results, null, 2);
}

// One bulk evaluation, as the OFREP web provider sends it; what the page could read of the answer.
async function evaluateAll({token = config.token, headers = {}, query = ""} = {}) {
  try {
    const response = await fetch(config.vouchd + "/ofrep/v1/evaluate/flags" + query, {
      method: "POST",
      headers: {"Authorization": "Bearer " + token, "Content-Type": "application/json", ...headers},
      body: JSON.stringify({context: {targetingKey: config.targetingKey}}),
    });
    const text = await response.text();
    return {status: response.status, etag: response.headers.get("ETag"), retryAfter: response.headers.get("Retry-After"),
            body: text ? JSON.parse(text) : null};
  } catch (error) {
    // All a page learns of an answer CORS keeps from it: a TypeError, no status.
    return {networkError: String(error)};
  }
}

function flagOf(answer) {
  const flags = answer.body && answer.body.flags;
  return Array.isArray(flags) ? flags.find(flag => flag.key === config.flag) : undefined;
}

let current = {etag: null};

function see(answer) {
  const flag = flagOf(answer);
  if (answer.status === 200 && flag) {
    current = {etag: answer.etag};
    results.stream.values.push({value: flag.value, reason: flag.reason, at: Date.now()});
    document.getElementById("value").textContent = String(flag.value);
  }
  show();
}

async function checkFetch() {
  const first = await evaluateAll();
  const fetched = results.fetch = {first};
  if (first.status === 200 && first.etag) {
    fetched.revalidated = await evaluateAll({headers: {"If-None-Match": first.etag}});
  }
  fetched.badToken = await evaluateAll({token: config.badToken});
  // The second unknown token blocks this address; the right token then gets 429.
  fetched.secondBadToken = await evaluateAll({token: config.badToken});
  fetched.blocked = await evaluateAll();
}

// The OFREP web provider's use of ADR-0008: open the stream; on refetchEvaluation, fetch the bulk answer again.
function openStream(eventStreams) {
  const stream = results.stream;
  const entry = Array.isArray(eventStreams) ? eventStreams.find(candidate => candidate && candidate.type === "sse") : undefined;
  if (!entry) {
    stream.state = "no sse entry in eventStreams";
    return;
  }
  // The URL carries a credential: it is used, never recorded.
  const url = entry.url || new URL(entry.endpoint.requestUri, entry.endpoint.origin || config.vouchd).href;
  stream.inactivityDelaySec = entry.inactivityDelaySec;
  stream.state = "connecting";
  const source = window.eventSource = new EventSource(url);
  source.onopen = () => { stream.state = "open"; stream.opened += 1; show(); };
  source.onerror = () => {
    stream.errors += 1;
    stream.state = source.readyState === EventSource.CLOSED ? "closed" : "reconnecting";
    show();
  };
  source.addEventListener("message", async event => {
    let data = null;
    try { data = JSON.parse(event.data); } catch (error) { data = {unparsed: event.data}; }
    stream.events.push({id: event.lastEventId, type: data.type, at: Date.now()});
    show();
    if (data.type !== "refetchEvaluation") return;
    const query = "?flagConfigEtag=" + encodeURIComponent(data.etag ?? "") +
                  "&flagConfigLastModified=" + encodeURIComponent(data.lastModified ?? "");
    see(await evaluateAll({headers: current.etag ? {"If-None-Match": current.etag} : {}, query}));
  });
}

async function start() {
  if (config.mode === "fetch") {
    await checkFetch();
  } else {
    const first = await evaluateAll();
    results.fetch = {first};
    results.eventStreams = first.body ? (first.body.eventStreams ?? null) : null;
    see(first);
    openStream(results.eventStreams);
  }
  results.done = true;
  show();
}

start();
</script>
</body>
</html>
"""


@pytest.fixture
def page_server():
    server = chromium.PageServer()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture
def cors_origins() -> str:
    """`ofrep.cors_origins` for the daemon; `{page}` stands for the page's origin. Tests parametrize it."""
    return "*"


@pytest.fixture
def vouchd_environment(page_server, cors_origins):
    return {"VOUCHD_OFREP_CORS_ORIGINS": cors_origins.replace("{page}", page_server.origin),
            "VOUCHD_AUTH_MAX_FAILURES": str(MAX_AUTH_FAILURES)}


@pytest.fixture
def browser():
    """Headless Chromium through Debian's chromedriver; always quit, its profile always removed."""
    driver = chromium.start()
    try:
        driver.set_script_timeout(WAIT)
        yield driver
    finally:
        chromium.stop(driver)


@pytest.fixture
def fix_in_testing(vouchd) -> str:
    """The story's fix, started, with user-1 as its direct target; returns an sdk token for the web app."""
    vouchd.expect(201, "POST", "/v1/fixes", {
        "key": FLAG, "title": "Label the channel logos", "ui_area": "TV channel selector", "platforms": ["web"],
        "wcag": ["1.1.1", "4.1.2"], "expected_announcement": "NHK, button, selected",
    })
    vouchd.expect(200, "POST", f"/v1/fixes/{FLAG}/start")
    targets = vouchd.expect(200, "POST", f"/v1/fixes/{FLAG}/targets", {"add": [TARGETING_KEY]})
    assert targets["targets"] == [TARGETING_KEY]
    return vouchd.create_token("web-app", "sdk")


def results(browser) -> dict[str, Any]:
    return browser.execute_script("return window.results")


def wait_for(browser, condition: str, what: str) -> float:
    """Waits at most WAIT seconds for the JavaScript `condition` to hold on the page; returns the seconds it took."""
    started = time.monotonic()
    while not browser.execute_script(f"return Boolean({condition})"):
        if time.monotonic() - started > WAIT:
            pytest.fail(f"the page did not get {what} within {WAIT:.0f} s; it recorded:\n"
                        + json.dumps(results(browser), indent=2), pytrace=False)
        time.sleep(0.02)
    return time.monotonic() - started


def open_page(browser, page_server, vouchd, token: str, mode: str) -> dict[str, Any]:
    """Loads the page and waits for its script to finish its first steps; returns what it recorded."""
    config = {"vouchd": vouchd.url, "token": token, "badToken": "vch_" + "x" * 40, "flag": FLAG,
              "targetingKey": TARGETING_KEY, "mode": mode}
    browser.get(page_server.publish(PAGE.replace("__CONFIG__", json.dumps(config))))
    wait_for(browser, "window.results && window.results.done", "through its first requests")
    return results(browser)


def assert_first_evaluation(first: dict[str, Any]) -> None:
    assert "networkError" not in first, f"the page could not read the bulk answer: {first['networkError']}"
    assert first["status"] == 200, first
    assert first["etag"], "the page cannot read the ETag: Access-Control-Expose-Headers lacks it"
    flag = next(flag for flag in first["body"]["flags"] if flag["key"] == FLAG)
    assert flag["value"] is True and flag["reason"] == "TARGETING_MATCH", flag


@pytest.mark.parametrize("cors_origins", ["*", "{page}"], ids=["any-origin", "listed-origin"])
def test_a_page_on_another_origin_reads_evaluations_etags_and_refusals(vouchd, fix_in_testing, browser, page_server):
    started = time.monotonic()
    fetched = open_page(browser, page_server, vouchd, fix_in_testing, mode="fetch")["fetch"]

    first = fetched["first"]
    assert_first_evaluation(first)
    revalidated = fetched["revalidated"]
    assert "networkError" not in revalidated, f"If-None-Match was refused by the preflight: {revalidated['networkError']}"
    assert revalidated["status"] == 304 and revalidated["body"] is None, revalidated
    assert revalidated["etag"] == first["etag"]
    for name in ("badToken", "secondBadToken"):
        refused = fetched[name]
        assert "networkError" not in refused, f"a 401 reached the page as a network error: {refused['networkError']}"
        assert refused["status"] == 401, refused
    blocked = fetched["blocked"]
    assert "networkError" not in blocked, f"a 429 reached the page as a network error: {blocked['networkError']}"
    assert blocked["status"] == 429, blocked
    assert blocked["retryAfter"] and blocked["retryAfter"].isdigit(), "the page cannot read Retry-After in seconds"
    print(f"\nbrowser fetch checks (200, 304, 401, 429) took {time.monotonic() - started:.2f} s")


@pytest.mark.parametrize("cors_origins", ["https://app.example.com"])
def test_a_page_on_an_origin_not_listed_cannot_read_anything(vouchd, fix_in_testing, browser, page_server):
    recorded = open_page(browser, page_server, vouchd, fix_in_testing, mode="fetch")["fetch"]
    for name, answer in recorded.items():
        assert set(answer) == {"networkError"}, f"{name}: a page on an origin not listed read {answer}"
        assert "TypeError" in answer["networkError"], answer


def test_a_page_follows_the_event_stream_to_a_change(vouchd, fix_in_testing, browser, page_server):
    recorded = open_page(browser, page_server, vouchd, fix_in_testing, mode="stream")
    assert_first_evaluation(recorded["fetch"]["first"])
    if not recorded["eventStreams"]:
        pytest.fail("the bulk answer has no eventStreams (ADR-0008 of OFREP): vouchd offers no event stream, so a "
                    f"browser cannot learn of changes; the answer was {json.dumps(recorded['fetch']['first']['body'])}",
                    pytrace=False)
    opened = wait_for(browser, "window.results.stream.state === 'open'", "its EventSource open")

    vouchd.expect(200, "POST", f"/v1/fixes/{FLAG}/targets", {"remove": [TARGETING_KEY]})
    answered_ms = time.time() * 1000
    waited = wait_for(browser, "window.results.stream.values.some(seen => seen.value === false)",
                      "the flag turned off through its event stream")
    stream = results(browser)["stream"]
    seen = next(seen for seen in stream["values"] if seen["value"] is False)
    assert seen["reason"] == "DEFAULT", seen
    assert any(event["type"] == "refetchEvaluation" for event in stream["events"]), stream["events"]
    assert browser.find_element("id", "value").text == "false"
    print(f"\nEventSource opened in {opened * 1000:.0f} ms; the page saw the change {seen['at'] - answered_ms:.0f} ms "
          f"after the API answered (polled: {waited * 1000:.0f} ms)")
