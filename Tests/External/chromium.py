"""Starts Debian's headless Chromium through Debian's chromedriver, kept on this machine.

The driver is given to Selenium explicitly (/usr/bin/chromedriver), so Selenium Manager never downloads anything.
Chromium is kept on this machine: no proxy, host names resolve to nothing (tests use 127.0.0.1), no background
services. Each browser has a profile of its own in a temporary directory, removed by `stop`.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
# The longest a page's script may run (fetches, axe-core on a long page).
SCRIPT_TIMEOUT = 30.0
ARGUMENTS = (
    "--headless=new", "--no-first-run", "--no-default-browser-check",
    "--no-proxy-server", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--disable-extensions", "--disable-default-apps",
    "--disable-domain-reliability", "--disable-client-side-phishing-detection",
    # One scale for screenshots and pixel checks, whatever the machine's display says.
    "--force-device-scale-factor=1",
)


def start(*, javascript: bool = True, width: int = 1280, height: int = 900) -> webdriver.Chrome:
    """A new headless Chromium with a fresh profile; `javascript=False` switches pages' scripts off in that profile.

    WebDriver's own `execute_script` still works without JavaScript: it runs through the DevTools protocol, not
    as a page script, so a test can read the page either way.
    """
    for path in (CHROMIUM, CHROMEDRIVER):
        if not os.access(path, os.X_OK):
            pytest.fail(f"no {path}: scripts/setup-system --test installs Debian's chromium and chromium-driver", pytrace=False)
    profile = tempfile.mkdtemp(prefix="vouch-chromium-")
    options = Options()
    options.binary_location = CHROMIUM
    for argument in (*ARGUMENTS, f"--user-data-dir={profile}", f"--window-size={width},{height}"):
        options.add_argument(argument)
    if os.geteuid() == 0:
        # Chromium refuses to run as root with its sandbox.
        options.add_argument("--no-sandbox")
    # A download lands in the profile (removed with it) without asking.
    preferences = {"download.default_directory": profile, "download.prompt_for_download": False}
    if not javascript:
        preferences["profile.managed_default_content_settings.javascript"] = 2
    options.add_experimental_option("prefs", preferences)
    try:
        driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    except BaseException:
        shutil.rmtree(profile, ignore_errors=True)
        raise
    driver.set_script_timeout(SCRIPT_TIMEOUT)
    driver.vouch_profile = profile
    # Chromium matches :focus only while its window has the system's focus, and a headless window can lose it for a
    # moment (a navigation, another browser of the suite starting): a focus ring then vanishes for a reason that is
    # not the page's. Focus emulation keeps the page focused, as a person's window is while they press Tab.
    driver.execute_cdp_cmd("Emulation.setFocusEmulationEnabled", {"enabled": True})
    return driver


def stop(driver: webdriver.Chrome) -> None:
    """Quits the browser and removes its profile."""
    try:
        driver.quit()
    finally:
        shutil.rmtree(driver.vouch_profile, ignore_errors=True)


class PageServer:
    """Serves one page at a time from 127.0.0.1 on a port of its own, for a test to open in the browser."""

    def __init__(self) -> None:
        self.html = b""
        page = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                if self.path.split("?")[0] != "/":
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(page.html)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(page.html)

            def log_message(self, format: str, *args) -> None:  # noqa: A002
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def publish(self, html: str) -> str:
        """Serves `html` from now on; returns its URL."""
        self.html = html.encode()
        return self.origin + "/"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)
