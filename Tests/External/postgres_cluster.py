"""The tests' PostgreSQL: the cluster named by VOUCH_TEST_POSTGRES_URL, psql against it, and a fresh database each.

scripts/test starts a throwaway cluster with scripts/postgres-cluster and passes its URL as VOUCH_TEST_POSTGRES_URL
with VOUCH_REQUIRE_POSTGRES=1. Without the URL a PostgreSQL test is skipped, unless PostgreSQL is required, when it
fails. A test that takes the server away (`kill_server`, `start_server_again`) needs the cluster to be one
scripts/postgres-cluster made: its URL's host= is the cluster's directory.
"""

from __future__ import annotations

import contextlib
import os
import pathlib
import secrets
import shutil
import subprocess
import urllib.parse
from typing import Iterator

import pytest

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]
CLUSTER_SCRIPT = REPOSITORY / "scripts" / "postgres-cluster"
PSQL_TIMEOUT = 60


def _required() -> bool:
    return os.environ.get("VOUCH_REQUIRE_POSTGRES") == "1"


def postgres_url() -> str:
    """The cluster's URL, or a skip (a failure when PostgreSQL is required)."""
    url = os.environ.get("VOUCH_TEST_POSTGRES_URL", "")
    if not url:
        message = "VOUCH_TEST_POSTGRES_URL is not set (scripts/test starts a cluster with scripts/postgres-cluster)"
        if _required():
            pytest.fail(message + ", and VOUCH_REQUIRE_POSTGRES=1 requires PostgreSQL", pytrace=False)
        pytest.skip(message)
    if shutil.which("psql") is None:
        pytest.fail("psql is not installed (scripts/setup-system --test installs postgresql)", pytrace=False)
    return url


def with_database(url: str, name: str) -> str:
    # Built by hand: urlunsplit drops the empty host of "postgresql:///postgres", which libpq then refuses.
    parts = urllib.parse.urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}/{name}" + (f"?{parts.query}" if parts.query else "")


def psql(url: str, *arguments: str) -> str:
    result = subprocess.run(["psql", "--no-psqlrc", "--quiet", "--set", "ON_ERROR_STOP=1", "--dbname", url, *arguments],
                            capture_output=True, text=True, timeout=PSQL_TIMEOUT)
    if result.returncode != 0:
        pytest.fail(f"psql {' '.join(arguments)} failed with status {result.returncode}:\n{result.stderr}", pytrace=False)
    return result.stdout


def rows(url: str, sql: str) -> list[list[str]]:
    output = psql(url, "--no-align", "--tuples-only", "--field-separator", "\t", "--command", sql)
    return [line.split("\t") for line in output.splitlines() if line]


@contextlib.contextmanager
def fresh_database(url: str, prefix: str) -> Iterator[tuple[str, str]]:
    """A new, empty database in the cluster: its name and URL; dropped afterwards, whoever is still connected."""
    name = f"{prefix}_{secrets.token_hex(6)}"
    psql(url, "--command", f'CREATE DATABASE "{name}"')
    try:
        yield name, with_database(url, name)
    finally:
        psql(url, "--command", f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def cluster_directory(url: str) -> pathlib.Path:
    """The directory of the cluster scripts/postgres-cluster made, from its URL's host= (the socket's directory)."""
    host = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query).get("host", [""])[0]
    directory = pathlib.Path(host) if host.startswith("/") else None
    if directory is None or not (directory / ".vouch-postgres-cluster").exists():
        message = (f"this test stops and starts the PostgreSQL server, so VOUCH_TEST_POSTGRES_URL must name a cluster "
                   f"made by scripts/postgres-cluster (its host= is the cluster's directory), not {url!r}")
        if _required():
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    return directory


def _cluster_script(command: str, directory: pathlib.Path) -> None:
    result = subprocess.run([str(CLUSTER_SCRIPT), command, str(directory)], capture_output=True, text=True,
                            timeout=PSQL_TIMEOUT + 30)
    if result.returncode != 0:
        pytest.fail(f"scripts/postgres-cluster {command} {directory} failed with status {result.returncode}:\n"
                    f"{result.stdout}{result.stderr}", pytrace=False)


def kill_server(directory: pathlib.Path) -> None:
    """Stops the server at once, as a crash would; the cluster stays for `start_server_again`."""
    _cluster_script("kill", directory)


def start_server_again(directory: pathlib.Path) -> None:
    _cluster_script("start-again", directory)

