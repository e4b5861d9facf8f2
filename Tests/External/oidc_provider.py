"""A real OpenID Provider for the console's sign-in tests: Debian's glewlwyd, run headless by the test.

`Glewlwyd.start` makes a temporary directory with a SQLite database (glewlwyd's own schema from the Debian
package), starts glewlwyd on a free loopback port and provisions it through its admin REST API, signed in as the
stock `admin` account: an OpenID Connect plugin instance signing with an RSA 2048 key (RS256, PKCE required), a
`groups` attribute on users carried as the `groups` claim, a confidential client with a secret, and users with
passwords and groups. `stop` ends it and removes the directory.

Its login page is a JavaScript application. `authorize` signs a person in the way that page does, through its JSON
calls (`POST /api/auth/`, `PUT /api/auth/grant/<client>`), then opens the authorization address with `g_continue`,
which the page adds once she has signed in, and returns the provider's redirect to the client (with the code).
"""

from __future__ import annotations

import base64
import gzip
import http.cookiejar
import json
import pathlib
import shutil
import socket
import sqlite3
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from typing import Any

GLEWLWYD = "/usr/bin/glewlwyd"
SCHEMA = pathlib.Path("/usr/share/doc/glewlwyd/database/init.sqlite3.sql.gz")
MODULES = pathlib.Path("/usr/lib/glewlwyd")
# The stock administrator of glewlwyd's initial database (its getting-started guide).
ADMIN = ("admin", "password")
PLUGIN = "oidc"
START_TIMEOUT = 10.0


def available() -> bool:
    return pathlib.Path(GLEWLWYD).exists() and SCHEMA.exists()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def rsa_private_jwk(kid: str) -> dict[str, Any]:
    """A new RSA 2048 private key as a JWK, made by the `openssl` command."""
    pem = subprocess.run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"], check=True,
                         capture_output=True).stdout
    text = subprocess.run(["openssl", "pkey", "-text", "-noout"], input=pem, check=True, capture_output=True).stdout.decode()
    names = {"modulus": "n", "publicExponent": "e", "privateExponent": "d", "prime1": "p", "prime2": "q",
             "exponent1": "dp", "exponent2": "dq", "coefficient": "qi"}
    values: dict[str, str] = {}
    current = None
    for line in text.splitlines():
        head = line.split(":")[0].strip()
        if not line.startswith(" ") and head in names:
            current = names[head]
            values[current] = ""
            if head == "publicExponent":
                values["e"] = line.split()[1]
                current = None
        elif current and line.startswith(" "):
            values[current] += line.strip().replace(":", "")
        else:
            current = None
    jwk: dict[str, Any] = {"kty": "RSA", "alg": "RS256", "use": "sig", "kid": kid}
    for name, value in values.items():
        number = int(value, 10) if name == "e" else int(value, 16)
        raw = number.to_bytes((number.bit_length() + 7) // 8, "big")
        jwk[name] = base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
    return jwk


@dataclass
class Person:
    username: str
    password: str
    email: str
    groups: list[str] = field(default_factory=list)


class ProviderError(Exception):
    pass


class Glewlwyd:
    def __init__(self, directory: pathlib.Path, port: int, process: subprocess.Popen[bytes]) -> None:
        self.directory = directory
        self.port = port
        self.process = process
        self.url = f"http://127.0.0.1:{port}"
        self.issuer = f"{self.url}/api/{PLUGIN}"
        self.admin = self._session()
        self.keys: list[dict[str, Any]] = []
        self.plugin: dict[str, Any] = {}

    # Starting and stopping.

    @classmethod
    def start(cls) -> "Glewlwyd":
        directory = pathlib.Path(tempfile.mkdtemp(prefix="vouch-glewlwyd-"))
        database = directory / "glewlwyd.db"
        with sqlite3.connect(database) as connection:
            connection.executescript(gzip.decompress(SCHEMA.read_bytes()).decode())
        port = _free_port()
        config = directory / "glewlwyd.conf"
        config.write_text(f"""
port={port}
bind_address="127.0.0.1"
external_url="http://127.0.0.1:{port}"
login_url="login.html"
api_prefix="api"
allow_origin="*"
log_mode="file"
log_level="WARNING"
log_file="{directory / 'glewlwyd.log'}"
cookie_secure=0
session_expiration=3600
session_key="GLEWLWYD2_SESSION_ID"
admin_session_authentication="cookie"
profile_session_authentication="cookie"
allow_multiple_user_per_session=true
login_api_enabled=true
admin_scope="g_admin"
profile_scope="g_profile"
user_module_path="{MODULES / 'user'}"
client_module_path="{MODULES / 'client'}"
user_auth_scheme_module_path="{MODULES / 'scheme'}"
plugin_module_path="{MODULES / 'plugin'}"
use_secure_connection=false
secure_connection_key_file=""
secure_connection_pem_file=""
secure_connection_ca_file=""
hash_algorithm="SHA512"
database = {{
  type = "sqlite3"
  path = "{database}"
}};
""")
        process = subprocess.Popen([GLEWLWYD, "--config-file", str(config)], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, cwd=directory)
        provider = cls(directory, port, process)
        try:
            provider._wait_until_listening()
            provider._provision()
        except BaseException:
            provider.stop()
            raise
        return provider

    def _wait_until_listening(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise ProviderError(f"glewlwyd exited with status {self.process.returncode}: {self.log()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.02)
        raise ProviderError("glewlwyd did not start listening")

    def log(self) -> str:
        path = self.directory / "glewlwyd.log"
        return path.read_text(errors="replace")[-4000:] if path.exists() else ""

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.directory, ignore_errors=True)

    # HTTP.

    @staticmethod
    def _session() -> urllib.request.OpenerDirector:
        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args: Any, **kwargs: Any) -> None:
                return None

        return urllib.request.build_opener(urllib.request.ProxyHandler({}), NoRedirect(),
                                           urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def call(self, opener: urllib.request.OpenerDirector, method: str, path: str, body: Any = None,
             headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
        request = urllib.request.Request(path if path.startswith("http") else self.url + path, data=data, method=method,
                                         headers=dict(headers or {}))
        if body is not None and not isinstance(body, bytes):
            request.add_header("Content-Type", "application/json")
        try:
            with opener.open(request, timeout=10) as answer:
                return answer.status, dict(answer.headers), answer.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def expect(self, method: str, path: str, body: Any = None, status: int = 200) -> bytes:
        code, _, answer = self.call(self.admin, method, path, body)
        if code != status:
            raise ProviderError(f"{method} {path}: HTTP {code} {answer[:500]!r}")
        return answer

    # Provisioning through the admin API.

    def _provision(self) -> None:
        self.expect("POST", "/api/auth/", {"username": ADMIN[0], "password": ADMIN[1]})
        # Users get a `groups` attribute; the user module reloads its data format.
        module = json.loads(self.expect("GET", "/api/mod/user/database"))
        module["parameters"]["data-format"]["groups"] = {"multiple": True, "read": True, "write": True,
                                                         "profile-read": True, "profile-write": False}
        self.expect("PUT", "/api/mod/user/database", module)
        self.expect("PUT", "/api/mod/user/database/reset")
        for name in ("email", "profile", "groups"):
            self.expect("POST", "/api/scope/", {"name": name, "display_name": name, "description": f"the {name} claims",
                                                "password_required": False, "password_max_age": 0, "scheme": {}})
        self.keys = [rsa_private_jwk("key-1")]
        self.plugin = {
            "module": "oidc", "name": PLUGIN, "display_name": "OpenID Connect", "order_rank": 0,
            "parameters": {
                "iss": self.issuer, "jwt-type": "rsa", "jwt-key-size": "256", "jwks-private": json.dumps({"keys": self.keys}),
                "default-kid": "", "jwks-show": True, "access-token-duration": 3600, "refresh-token-duration": 1209600,
                "code-duration": 600, "refresh-token-rolling": True, "allow-non-oidc": False,
                "auth-type-code-enabled": True, "auth-type-token-enabled": False, "auth-type-id-token-enabled": False,
                "auth-type-none-enabled": False, "auth-type-password-enabled": False, "auth-type-client-enabled": False,
                "auth-type-device-enabled": False, "auth-type-refresh-enabled": True, "auth-type-code-revoke-replayed": False,
                "scope": [], "additional-parameters": [],
                "claims": [{"name": "groups", "user-property": "groups", "type": "string", "boolean-value-true": "",
                            "boolean-value-false": "", "mandatory": True, "on-demand": False, "scope": []}],
                "name-claim": "mandatory", "name-claim-scope": [], "email-claim": "mandatory", "email-claim-scope": [],
                "scope-claim": "no", "scope-claim-scope": [], "address-claim": {"type": "no", "mandatory": False},
                "allowed-scope": ["openid", "email", "profile", "groups"],
                "pkce-allowed": True, "pkce-method-plain-allowed": False, "pkce-required": True,
                "pkce-required-public-client": True, "pkce-scopes": [],
                "secret-type": "pairwise", "request-parameter-allow": False, "session-management-allowed": False,
                "introspection-revocation-allowed": False, "register-client-allowed": False,
            },
        }
        self.expect("POST", "/api/mod/plugin/", self.plugin)

    def add_client(self, client_id: str, secret: str, redirect_uri: str) -> None:
        self.expect("POST", "/api/client/", {
            "client_id": client_id, "name": client_id, "description": "Vouch's console", "enabled": True, "confidential": True,
            "password": secret, "redirect_uri": [redirect_uri], "authorization_type": ["code", "refresh_token"],
            "token_endpoint_auth_method": ["client_secret_basic"], "scope": []})

    def add_person(self, person: Person) -> None:
        user: dict[str, Any] = {"username": person.username, "name": person.username.title(), "email": person.email,
                                "enabled": True, "password": person.password,
                                "scope": ["openid", "email", "profile", "groups", "g_profile"]}
        if person.groups:
            user["groups"] = person.groups
        self.expect("POST", "/api/user/", user)

    def rotate_key(self) -> str:
        """Signs with a new key from now on, and publishes only it: tokens signed before no longer verify."""
        kid = f"key-{len(self.keys) + 1}"
        self.keys = [rsa_private_jwk(kid)]
        self.plugin["parameters"]["jwks-private"] = json.dumps({"keys": self.keys})
        self.expect("PUT", f"/api/mod/plugin/{PLUGIN}", self.plugin)
        self.expect("PUT", f"/api/mod/plugin/{PLUGIN}/reset")
        return kid

    # What the login page does for a person.

    def _signed_in(self, person: Person, client_id: str, scopes: str) -> urllib.request.OpenerDirector:
        browser = self._session()
        status, _, answer = self.call(browser, "POST", "/api/auth/", {"username": person.username, "password": person.password})
        if status != 200:
            raise ProviderError(f"sign-in as {person.username}: HTTP {status} {answer[:200]!r}")
        # Scopes separated by spaces, although glewlwyd's API documentation says commas.
        status, _, answer = self.call(browser, "PUT", f"/api/auth/grant/{urllib.parse.quote(client_id)}", {"scope": scopes})
        if status != 200:
            raise ProviderError(f"grant to {client_id}: HTTP {status} {answer[:200]!r}")
        return browser

    def sign_in(self, person: Person, client_id: str, scopes: str) -> tuple[str, str]:
        """Signs `person` in and grants the client its scopes, as the login page would; returns the session cookie
        (name, value) for the person's browser."""
        browser = self._signed_in(person, client_id, scopes)
        for handler in browser.handlers:
            if isinstance(handler, urllib.request.HTTPCookieProcessor):
                for cookie in handler.cookiejar:
                    if cookie.name == "GLEWLWYD2_SESSION_ID":
                        return cookie.name, cookie.value or ""
        raise ProviderError("glewlwyd set no session cookie")

    def authorize(self, authorization_url: str, person: Person, client_id: str, scopes: str) -> str:
        """Signs `person` in and continues to `authorization_url` outside any browser; returns where the provider
        sends the browser back (with the code or an error)."""
        browser = self._signed_in(person, client_id, scopes)
        status, headers, answer = self.call(browser, "GET", authorization_url + "&g_continue")
        location = headers.get("Location", "")
        if status != 302 or not location:
            raise ProviderError(f"authorization: HTTP {status} {answer[:200]!r}")
        return location

    def published_keys(self) -> list[dict[str, Any]]:
        return json.loads(self.call(self._session(), "GET", f"/api/{PLUGIN}/jwks")[2])["keys"]

    def token_request(self, client_id: str, secret: str, form: dict[str, str]) -> tuple[int, dict[str, Any]]:
        """A token request as any client would send it (for the tests that replay a code or change the verifier)."""
        basic = base64.b64encode(f"{client_id}:{secret}".encode()).decode()
        status, _, answer = self.call(self._session(), "POST", f"/api/{PLUGIN}/token", urllib.parse.urlencode(form).encode(),
                                      {"Authorization": f"Basic {basic}", "Content-Type": "application/x-www-form-urlencoded"})
        try:
            return status, json.loads(answer)
        except ValueError:
            return status, {}
