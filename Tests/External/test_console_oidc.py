"""Staff sign in to the console through a real OpenID Provider: Debian's glewlwyd, run by the test (oidc_provider.py).

Every journey runs in Chromium with JavaScript off on Vouch's side (the whole profile has it off). glewlwyd's own
login page is a JavaScript application: the test does what it does, through its JSON calls, and hands the browser
the provider's session cookie, then opens the address that page would open (`callback_url` with `g_continue`). From
there on the browser follows the provider's redirect to vouchd's callback with its own cookies, as a person's would.

What the provider cannot be made to send (an ID token for another audience, an expired one, one signed by another
key) is refused by the same code in Swift tests with real key pairs (IdentityProviderTests, IDTokenVerifierTests).
"""

from __future__ import annotations

import base64
import hashlib
import socket
import urllib.error
import urllib.parse
import urllib.request
from typing import Iterator

import pytest
from selenium.webdriver.common.by import By

import oidc_provider
from conftest import Vouchd, launch_vouchd, stop_vouchd
from console_browser import ConsoleBrowser, Visit
from console_checks import AXE, KEYBOARD, check_page
from oidc_provider import Glewlwyd, Person

CLIENT = "vouch-console"
CLIENT_SECRET = "glewlwyd-client-secret-for-vouch"
SCOPES = "openid email profile groups"
ROLES = "vouch-admins=admin,vouch-release-managers=release_manager,vouch-maintainers=maintainer"
START_LINK = "Sign in with your organisation's account"
PEOPLE = {
    "admin": Person("adam", "adam-password-1", "adam@example.org", ["staff", "vouch-admins"]),
    "release_manager": Person("rita", "rita-password-1", "Rita@EXAMPLE.org", ["vouch-release-managers"]),
    "maintainer": Person("max", "max-password-1", "max@example.org", ["vouch-maintainers"]),
    # Authored a fix with a token issued to the same principal, then signs in through the provider.
    "author": Person("ana", "ana-password-1", "ana@example.org", ["vouch-release-managers"]),
    "no_groups": Person("nora", "nora-password-1", "nora@example.org", []),
    "unmapped": Person("olga", "olga-password-1", "olga@example.org", ["marketing"]),
}
# A token posted to the sign-in address as the token form would post it.
POST_TOKEN = """
const form = document.createElement("form");
form.method = "post";
form.action = "/console/sign-in";
const field = document.createElement("input");
field.name = "token";
field.value = arguments[0];
form.appendChild(field);
document.body.appendChild(form);
form.submit();
"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def provider() -> Iterator[Glewlwyd]:
    if not oidc_provider.available():
        pytest.fail("no glewlwyd: scripts/setup-system --test installs Debian's package", pytrace=False)
    glewlwyd = Glewlwyd.start()
    try:
        yield glewlwyd
    finally:
        glewlwyd.stop()


def _start_vouchd(provider: Glewlwyd, directory, *, token_sign_in: bool) -> Vouchd:
    port = _free_port()
    redirect = f"http://127.0.0.1:{port}/console/sign-in/oidc/callback"
    provider.add_client(f"{CLIENT}-{port}", CLIENT_SECRET, redirect)
    secret_file = directory / "client-secret"
    secret_file.write_text(CLIENT_SECRET + "\n")
    secret_file.chmod(0o600)
    state = directory / "state"
    state.mkdir()
    return launch_vouchd(state, {
        "VOUCHD_CONSOLE_OIDC_ISSUER": provider.issuer, "VOUCHD_CONSOLE_OIDC_CLIENT_ID": f"{CLIENT}-{port}",
        "VOUCHD_CONSOLE_OIDC_CLIENT_SECRET_FILE": str(secret_file), "VOUCHD_CONSOLE_OIDC_REDIRECT_URL": redirect,
        "VOUCHD_CONSOLE_OIDC_SCOPES": SCOPES, "VOUCHD_CONSOLE_OIDC_ROLES": ROLES,
        "VOUCHD_CONSOLE_TOKEN_SIGN_IN": "true" if token_sign_in else "false",
    }, listen=f"127.0.0.1:{port}")


@pytest.fixture(scope="module")
def console(provider, tmp_path_factory) -> Iterator[Vouchd]:
    for person in PEOPLE.values():
        provider.add_person(person)
    daemon = _start_vouchd(provider, tmp_path_factory.mktemp("vouchd-oidc"), token_sign_in=True)
    try:
        yield daemon
    finally:
        status = stop_vouchd(daemon)
        assert status == 0, "vouchd did not stop cleanly:\n" + "\n".join(daemon.log)
        # Nothing secret of a sign-in reaches the log: no code, no token, no pre-session cookie.
        for line in daemon.log:
            assert "code=" not in line and "eyJ" not in line and "vouch_oidc" not in line, line


@pytest.fixture
def browser(console) -> Iterator[ConsoleBrowser]:
    opened = ConsoleBrowser(console.url, javascript=False)
    try:
        yield opened
    finally:
        opened.close()


def client_id(console: Vouchd) -> str:
    return f"{CLIENT}-{urllib.parse.urlsplit(console.url).port}"


def begin(browser: ConsoleBrowser) -> str:
    """Opens the sign-in page and follows its first link, to the provider; returns the provider's login address."""
    page = browser.open("/console/sign-in")
    assert page.status == 200, page
    start = browser.driver.find_element(By.CSS_SELECTOR, "main a")
    assert start.text == START_LINK, f"the sign-in page's first link is {start.text!r}, not the identity provider"
    landed = browser.after(start.click, "following the identity provider's link")
    assert browser.driver.current_url.startswith(browser.origin.rsplit(":", 1)[0]) and "/login.html?" in browser.driver.current_url, \
        f"the start did not lead to the provider's login page: {landed}"
    return browser.driver.current_url


def callback_url(login_url: str) -> str:
    """The authorization address the provider's login page continues to once the person has signed in."""
    return urllib.parse.parse_qs(urllib.parse.urlsplit(login_url).query)["callback_url"][0]


def with_param(url: str, name: str, value: str | None) -> str:
    parts = urllib.parse.urlsplit(url)
    query = [(key, item) for key, item in urllib.parse.parse_qsl(parts.query) if key != name]
    if value is not None:
        query.append((name, value))
    return urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(query)))


def at_provider(browser: ConsoleBrowser, provider: Glewlwyd, console: Vouchd, person: Person, authorization: str) -> Visit:
    """The person signs in on the provider's page; the browser continues to the authorization address and on."""
    cookie = provider.sign_in(person, client_id(console), SCOPES)
    browser.driver.execute_cdp_cmd("Network.setCookie", {"name": cookie[0], "value": cookie[1], "url": provider.url + "/"})
    return browser.after(lambda: browser.driver.get(authorization + "&g_continue"), f"{person.username} continuing at the provider")


def sign_in(browser: ConsoleBrowser, provider: Glewlwyd, console: Vouchd, person: Person) -> Visit:
    return at_provider(browser, provider, console, person, callback_url(begin(browser)))


def text(browser: ConsoleBrowser) -> str:
    return browser.driver.find_element(By.TAG_NAME, "main").text


def refused_with(browser: ConsoleBrowser, landed: Visit, words: str) -> None:
    assert landed.status == 403 and landed.title.startswith("You were not signed in"), landed
    assert words in text(browser), text(browser)


def checked(browser: ConsoleBrowser, *, signed_in: bool) -> None:
    """Every check that needs no page script (axe-core and the keyboard's lap run in a browser with JavaScript on)."""
    problems = check_page(browser.driver, signed_in=signed_in, axe=None)
    assert not any(problems.values()), problems


def test_each_mapped_role_signs_in_and_the_session_acts_as_that_role(browser, provider, console):
    for role in ("admin", "release_manager", "maintainer"):
        person = PEOPLE[role]
        landed = sign_in(browser, provider, console, person)
        assert landed.path.startswith("/console/sign-in/oidc/callback") and landed.status == 200, landed
        assert landed.title.startswith("You are signed in"), landed
        principal = person.email.lower()
        assert f"You are signed in as {principal}" in text(browser), text(browser)
        home = browser.after(browser.driver.find_element(By.CSS_SELECTOR, "main a.button").click, "Continue")
        assert home.path == "/console/" and home.status == 200, home
        assert browser.driver.find_elements(By.CSS_SELECTOR, 'form[action="/console/sign-out"] button'), "no sign-out on the start page"
        tokens = browser.open("/console/tokens")
        assert tokens.status == (200 if role == "admin" else 403), (role, tokens)
        signed_out = browser.sign_out()
        assert signed_out.path == "/console/signed-out", signed_out
        assert browser.open("/console/").path.startswith("/console/sign-in"), "sign-out did not end the session"


def test_an_oidc_decision_says_in_the_audit_log_how_she_signed_in(browser, provider, console):
    author = console.create_token("author-by-token", "maintainer")
    key = "oidc-audit-fix"
    console.expect(201, "POST", "/v1/fixes", {"key": key, "title": "Name the volume slider", "ui_area": "Player", "platforms": ["ios"]},
                   token=author)
    console.expect(200, "POST", f"/v1/fixes/{key}/start", token=author)
    sign_in(browser, provider, console, PEOPLE["release_manager"])
    decision = browser.open(f"/console/fixes/{key}/decision")
    assert decision.status == 200, decision
    browser.driver.find_element(By.CSS_SELECTOR, 'input[name="decision"][value="approve"]').click()
    confirm = browser.after(browser.driver.find_element(By.CSS_SELECTOR, "main form button").click, "Continue")
    assert confirm.title.startswith("Approve "), confirm
    buttons = [button for button in browser.driver.find_elements(By.CSS_SELECTOR, "main form button") if button.text == "Confirm approval"]
    done = browser.after(buttons[0].click, "Confirm approval")
    assert done.path == f"/console/fixes/{key}?done=approved", done
    events = console.expect(200, "GET", f"/v1/audit?fix={key}")["events"]
    vias = {event["action"]: event.get("via") for event in events}
    assert any(event["principal"] == "rita@example.org" and event.get("via") == "identity provider sign-in (oidc)"
               for event in events), events
    assert any(event["principal"] == "author-by-token" and event.get("via") == "token" for event in events), vias


def test_four_eyes_refuses_her_approval_of_a_fix_she_authored_with_a_token(browser, provider, console):
    person = PEOPLE["author"]
    token = console.create_token(person.email, "admin")
    key = "oidc-four-eyes"
    console.expect(201, "POST", "/v1/fixes", {"key": key, "title": "Label the mute button", "ui_area": "Player", "platforms": ["ios"]},
                   token=token)
    console.expect(200, "POST", f"/v1/fixes/{key}/start", token=token)
    sign_in(browser, provider, console, person)
    decision = browser.open(f"/console/fixes/{key}/decision")
    assert "You created this fix, so another release manager must approve or reject it." in text(browser), (decision, text(browser))
    assert not browser.driver.find_elements(By.CSS_SELECTOR, 'input[name="decision"]'), "the decision form was offered to the fix's author"
    approvals = console.expect(200, "GET", f"/v1/fixes/{key}/approvals")["approvals"]
    assert approvals == [], approvals


def test_a_tampered_state_is_refused(browser, provider, console):
    authorization = callback_url(begin(browser))
    state = urllib.parse.parse_qs(urllib.parse.urlsplit(authorization).query)["state"][0]
    landed = at_provider(browser, provider, console, PEOPLE["admin"], with_param(authorization, "state", state[:-2] + "xx"))
    refused_with(browser, landed, "the state did not match")
    assert browser.open("/console/").path.startswith("/console/sign-in")


def test_a_replayed_code_is_refused_by_vouchd_and_by_the_provider(browser, provider, console):
    login = begin(browser)
    cookies = browser.driver.execute_cdp_cmd("Network.getCookies", {"urls": [f"{console.url}/console/sign-in/oidc/callback"]})["cookies"]
    secret = next(cookie["value"] for cookie in cookies if cookie["name"] == "vouch_oidc")
    landed = at_provider(browser, provider, console, PEOPLE["maintainer"], callback_url(login))
    assert landed.title.startswith("You are signed in"), landed
    callback = browser.driver.current_url
    # The same callback again in the same browser: its pre-session was used.
    again = browser.after(lambda: browser.driver.get(callback), "the callback again")
    refused_with(browser, again, "was used already")
    # The same code at the provider, with the right verifier (derived as vouchd derives it from the cookie).
    code = urllib.parse.parse_qs(urllib.parse.urlsplit(callback).query)["code"][0]
    verifier = derived(secret, "code verifier")
    status, answer = provider.token_request(client_id(console), CLIENT_SECRET, {
        "grant_type": "authorization_code", "code": code, "redirect_uri": f"{console.url}/console/sign-in/oidc/callback",
        "client_id": client_id(console), "code_verifier": verifier})
    assert status in (400, 403) and "id_token" not in answer, (status, answer)


def derived(secret: str, label: str) -> str:
    digest = hashlib.sha256(f"vouch oidc {label}\n{secret}".encode()).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def test_a_code_redeemed_with_another_sign_ins_verifier_is_refused(provider, console):
    """Two browsers start; the code issued for the first reaches the second with the second's own state, so vouchd
    redeems it with the second's verifier, which does not match the first's challenge."""
    first, second = ConsoleBrowser(console.url, javascript=False), ConsoleBrowser(console.url, javascript=False)
    try:
        first_authorization = callback_url(begin(first))
        second_authorization = callback_url(begin(second))
        location = provider.authorize(first_authorization, PEOPLE["admin"], client_id(console), SCOPES)
        code = urllib.parse.parse_qs(urllib.parse.urlsplit(location).query)["code"][0]
        second_state = urllib.parse.parse_qs(urllib.parse.urlsplit(second_authorization).query)["state"][0]
        landed = second.after(lambda: second.driver.get(
            f"{console.url}/console/sign-in/oidc/callback?" + urllib.parse.urlencode({"state": second_state, "code": code})), "the callback")
        refused_with(second, landed, "did not accept the sign-in code")
        assert "invalid_grant" in text(second) or "HTTP 403" in text(second), text(second)
    finally:
        first.close()
        second.close()


def test_a_sign_in_without_pkce_is_refused_by_the_provider(browser, provider, console):
    """vouchd always sends an S256 challenge; without one the provider refuses, and vouchd says what it answered."""
    authorization = with_param(with_param(callback_url(begin(browser)), "code_challenge", None), "code_challenge_method", None)
    landed = at_provider(browser, provider, console, PEOPLE["admin"], authorization)
    refused_with(browser, landed, "It answered: invalid_request")
    # A code issued with a challenge and redeemed without a verifier gets no token either.
    location = provider.authorize(callback_url(begin(browser)), PEOPLE["admin"], client_id(console), SCOPES)
    code = urllib.parse.parse_qs(urllib.parse.urlsplit(location).query)["code"][0]
    status, answer = provider.token_request(client_id(console), CLIENT_SECRET, {
        "grant_type": "authorization_code", "code": code, "redirect_uri": f"{console.url}/console/sign-in/oidc/callback",
        "client_id": client_id(console)})
    assert status in (400, 403) and "id_token" not in answer, (status, answer)


def test_a_missing_role_claim_and_an_unmapped_group_are_refused_in_words(browser, provider, console):
    landed = sign_in(browser, provider, console, PEOPLE["no_groups"])
    refused_with(browser, landed, 'The ID token has no "groups" claim')
    landed = sign_in(browser, provider, console, PEOPLE["unmapped"])
    refused_with(browser, landed, 'None of the values of your "groups" claim gives a role in Vouch')
    assert browser.open("/console/").path.startswith("/console/sign-in")


def test_a_key_rotated_at_the_provider_is_picked_up_without_a_restart(browser, provider, console):
    assert sign_in(browser, provider, console, PEOPLE["admin"]).title.startswith("You are signed in")
    browser.sign_out()
    kid = provider.rotate_key()
    assert [key["kid"] for key in provider.published_keys()] == [kid]
    landed = sign_in(browser, provider, console, PEOPLE["admin"])
    assert landed.title.startswith("You are signed in"), (landed, text(browser))
    assert console.process.poll() is None


def test_new_pages_pass_the_checks_with_and_without_javascript(browser, provider, console, axe):
    """The sign-in page, the signed-in page and a refusal: every check here; axe-core and the keyboard's lap in a
    browser with JavaScript on, which opens the same addresses (the provider's pages are never checked)."""
    page = browser.open("/console/sign-in")
    checked(browser, signed_in=False)
    sign_in(browser, provider, console, PEOPLE["release_manager"])
    checked(browser, signed_in=False)
    browser.sign_out()
    sign_in(browser, provider, console, PEOPLE["unmapped"])
    checked(browser, signed_in=False)
    scripted = ConsoleBrowser(console.url, javascript=True)
    try:
        for visit in ("/console/sign-in", "/console/sign-in/oidc/callback?state=x&code=y"):
            scripted.open(visit)
            problems = check_page(scripted.driver, signed_in=False, axe=axe)
            assert not problems[AXE] and not problems[KEYBOARD], (visit, problems)
        # The signed-in page, reached with JavaScript on (the provider's page is skipped as above).
        login = begin(scripted)
        landed = at_provider(scripted, provider, console, PEOPLE["maintainer"], callback_url(login))
        assert landed.title.startswith("You are signed in"), landed
        problems = check_page(scripted.driver, signed_in=False, axe=axe)
        assert not problems[AXE] and not problems[KEYBOARD], problems
    finally:
        scripted.close()
    assert page.status == 200


def test_without_token_sign_in_the_page_offers_the_provider_only_and_a_token_is_refused(provider, tmp_path, axe):
    daemon = _start_vouchd(provider, tmp_path, token_sign_in=False)
    browser = ConsoleBrowser(daemon.url, javascript=False)
    try:
        browser.open("/console/sign-in")
        assert not browser.driver.find_elements(By.ID, "field-token"), "the token field is still offered"
        assert "Signing in with a token is turned off on this Vouch." in text(browser)
        checked(browser, signed_in=False)
        landed = sign_in(browser, provider, daemon, PEOPLE["maintainer"])
        assert landed.title.startswith("You are signed in"), landed
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        request = urllib.request.Request(f"{daemon.url}/console/sign-in", data=urllib.parse.urlencode({"token": daemon.admin_token}).encode(),
                                         method="POST", headers={"Content-Type": "application/x-www-form-urlencoded"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            opener.open(request, timeout=10)
        assert refused.value.code == 403
        assert "This Vouch signs staff in with their organisation" in refused.value.read().decode()
        # The API still takes the token.
        daemon.expect(200, "GET", "/v1/fixes")
        # The refusal page itself, reached by a form the test adds (the page offers none), with every check.
        scripted = ConsoleBrowser(daemon.url, javascript=True)
        try:
            scripted.open("/console/sign-in")
            refusal = scripted.after(lambda: scripted.driver.execute_script(POST_TOKEN, daemon.admin_token), "posting a token")
            assert refusal.status == 403 and refusal.title.startswith("Signing in with a token is turned off"), refusal
            problems = check_page(scripted.driver, signed_in=False, axe=axe)
            assert not any(problems.values()), problems
        finally:
            scripted.close()
    finally:
        browser.close()
        assert stop_vouchd(daemon) == 0
