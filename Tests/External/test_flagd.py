"""flagd answers as Vouch does: the definitions Vouch exports (`GET /flagd/v1/flags.json`, `vouch flags export
--format flagd`), evaluated offline by PyPI `openfeature-provider-flagd` 0.6 (its file resolver, the evaluator of
`openfeature-flagd-core` 2), against vouchd's own OFREP answers for the same keys (docs/flagd.md).

Fixes in every lasting state (draft, testing, paused, abandoned, promotion_failed, released, rolled_back) and phased
rollouts at 1 %, 10 %, 50 % and 99 %, each with direct targets and an enrolled tester. For KEYS random targeting keys
(short, long enough for the CBOR heads of 1 and 2 bytes, non-ASCII) plus the targeted ones, every flag's value from
the provider must equal the value of vouchd's bulk OFREP answer for that key: 0 differences. The bulk answers come
over a few connections, each sending its requests in batches without waiting for each answer (HTTP/1.1
pipelining), so 100,000 answers take seconds.

Then changes: a key targeted, a rollout paused, and a rollout taking its next step by the daemon's timer. Each time
the endpoint must serve new definitions (a new ETag) within a second of the change, the file the CLI writes must be
those bytes, the provider must pick the file up, and agree with OFREP again on a sample of the keys.

Prints the figures: keys, evaluations, differences, and how long each part took.
"""

from __future__ import annotations

import json
import os
import pathlib
import random
import re
import socket
import subprocess
import threading
import time
import urllib.parse

import pytest
from openfeature import api
from openfeature.contrib.provider.flagd import FlagdProvider
from openfeature.contrib.provider.flagd.config import ResolverType
from openfeature.evaluation_context import EvaluationContext
from openfeature.event import ProviderEvent

KEYS = 100_000
SEED = 20261205
CONNECTIONS = 4
BATCH = 256
# Keys compared again after each change, and the longest a change may take to reach the endpoint.
SAMPLE = 10_000
WITHIN = 1.0
DIRECT_TARGETS = ["qa-iphone", "qa-pixel"]
TESTER_KEYS = ["tester-aiko-1", "tester-aiko-2"]
ROLLOUTS = [1, 10, 50, 99]
# An answer's head (status 200, its Content-Length) and each flag's key and value in a bulk answer's body.
HEAD = re.compile(rb"HTTP/1\.1 200 [^\r]*\r\n(?:[^\r]*\r\n)*?[Cc]ontent-[Ll]ength: *(\d+)\r\n(?:[^\r]*\r\n)*?\r\n")
FLAG_VALUE = re.compile(rb'\{"key":"([^"]+)","value":(true|false)')
MET_AT_ONCE = {"min_testers_passed": 0, "required_assistive_tech": [], "max_blocking": 0, "min_pass_ratio": 0,
               "min_soak": "0"}


@pytest.fixture
def vouchd_environment():
    # A required receiver that refuses every connection makes one promotion fail for good after two quick retries.
    return {"VOUCHD_WEBHOOKS_ALLOW_PRIVATE_NETWORKS": "true", "VOUCHD_WEBHOOKS_RETRY_SCHEDULE": "1s,1s"}


def random_keys(count: int) -> list[str]:
    """App user ids of several shapes: hex ids, UUID-like, long (CBOR heads of 1 and 2 bytes), and non-ASCII."""
    rng = random.Random(SEED)
    keys: set[str] = set()
    while len(keys) < count:
        shape = rng.random()
        if shape < 0.6:
            keys.add(f"user-{rng.getrandbits(40):010x}")
        elif shape < 0.85:
            keys.add("%08x-%04x-%04x-%04x-%012x" % tuple(rng.getrandbits(bits) for bits in (32, 16, 16, 16, 48)))
        elif shape < 0.95:
            keys.add("device-" + "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(rng.randint(17, 300))))
        else:
            keys.add(f"利用者-{rng.getrandbits(32)}-ñ")
    return sorted(keys)


class Pipelined:
    """Bulk OFREP answers for many keys: CONNECTIONS threads, each with one HTTP/1.1 connection that sends BATCH
    requests at once and then reads their answers in order."""

    def __init__(self, url: str, token: str):
        parsed = urllib.parse.urlsplit(url)
        self.address = (parsed.hostname, parsed.port)
        self.head = (f"POST /ofrep/v1/evaluate/flags HTTP/1.1\r\nHost: {parsed.netloc}\r\nAuthorization: Bearer {token}\r\n"
                     "Content-Type: application/json\r\n").encode()

    def request(self, key: str) -> bytes:
        body = json.dumps({"context": {"targetingKey": key}}, ensure_ascii=False).encode()
        return self.head + f"Content-Length: {len(body)}\r\n\r\n".encode() + body

    @staticmethod
    def read_answers(connection: socket.socket, count: int, buffer: bytearray) -> list[dict[str, bool]]:
        """The next `count` answers' flag values, read from the bulk answer's bytes as vouchd writes them (each flag
        `{"key":…,"value":…`); a flag answered otherwise is missing from its dict, so it counts as a difference."""
        answers = []
        position = 0
        while len(answers) < count:
            head = HEAD.match(buffer, position)
            if head is None or len(buffer) < head.end() + int(head.group(1)):
                assert head is not None or b"\r\n\r\n" not in buffer[position:], f"not a bulk answer: {bytes(buffer[position:position + 300])!r}"
                chunk = connection.recv(1 << 20)
                assert chunk, "vouchd closed the connection"
                buffer += chunk
                continue
            end = head.end() + int(head.group(1))
            answers.append({key.decode(): value == b"true" for key, value in FLAG_VALUE.findall(buffer, head.end(), end)})
            position = end
        del buffer[:position]
        return answers

    def values(self, keys: list[str]) -> dict[str, dict[str, bool]]:
        """Each key's flag values from vouchd's bulk answer."""
        results: dict[str, dict[str, bool]] = {}
        failures: list[BaseException] = []

        def work(part: list[str]) -> None:
            try:
                with socket.create_connection(self.address, timeout=30) as connection:
                    buffer = bytearray()
                    for start in range(0, len(part), BATCH):
                        batch = part[start:start + BATCH]
                        connection.sendall(b"".join(self.request(key) for key in batch))
                        results.update(zip(batch, self.read_answers(connection, len(batch), buffer)))
            except BaseException as error:  # noqa: BLE001 - reported by the main thread
                failures.append(error)

        threads = [threading.Thread(target=work, args=(keys[number::CONNECTIONS],)) for number in range(CONNECTIONS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert not failures, failures
        assert len(results) == len(keys)
        return results


class Flagd:
    """The flagd provider on a file, offline; `changed` is set on each PROVIDER_CONFIGURATION_CHANGED."""

    def __init__(self, path: pathlib.Path):
        self.path = path
        self.changed = threading.Event()
        self.provider = FlagdProvider(resolver_type=ResolverType.FILE, offline_flag_source_path=str(path), deadline_ms=100)
        api.add_handler(ProviderEvent.PROVIDER_CONFIGURATION_CHANGED, lambda details: self.changed.set())
        api.set_provider_and_wait(self.provider)

    def values(self, keys: list[str], flags: list[str]) -> dict[str, dict[str, bool]]:
        resolve = self.provider.resolve_boolean_details
        results = {}
        for key in keys:
            context = EvaluationContext(targeting_key=key)
            results[key] = {flag: resolve(flag, False, context).value for flag in flags}
        return results


def differences(vouch: dict[str, dict[str, bool]], flagd: dict[str, dict[str, bool]], flags: list[str]) -> list[str]:
    return [f"{flag} for {key!r}: vouch {vouch[key].get(flag)}, flagd {flagd[key][flag]}"
            for key in flagd for flag in flags if vouch[key].get(flag) != flagd[key][flag]]


def write_atomically(path: pathlib.Path, body: bytes) -> None:
    temporary = path.with_suffix(".tmp")
    temporary.write_bytes(body)
    os.replace(temporary, path)


def test_flagd_answers_every_key_as_vouch_does(vouchd, tmp_path, refusing_port):
    started = time.monotonic()
    manager = vouchd.create_token("flagd-release-manager", "release_manager")
    # flagd syncs with an sdk token made for flag definitions; an app's sdk token may not list every targeted key.
    app = vouchd.create_token("flagd-app", "sdk")
    refused = vouchd.call("GET", "/flagd/v1/flags.json", token=app)
    assert refused.status == 403 and "not made for flag definitions" in json.loads(refused.body)["detail"]
    made = vouchd.expect(201, "POST", "/v1/tokens", {"name": "flagd-sync", "role": "sdk", "flag_definitions": True})
    assert made["flag_definitions"] is True
    sdk = made["token"]
    tester = vouchd.expect(201, "POST", "/v1/testers", {"name": "Aiko", "consent": "2026-11", "assistive_tech": ["voiceover:ios"],
                                                        "targeting_keys": TESTER_KEYS})["id"]

    def make_fix(key: str) -> str:
        vouchd.expect(201, "POST", "/v1/fixes", {"key": key, "title": f"flagd {key}", "ui_area": "TV channel selector", "platforms": ["ios"]})
        vouchd.expect(200, "POST", f"/v1/fixes/{key}/targets", {"add": DIRECT_TARGETS})
        vouchd.expect(200, "POST", f"/v1/fixes/{key}/enrollments", {"testers": [tester]})
        return key

    def promote(key: str, steps: list[int] | None, interval: str = "90d") -> None:
        vouchd.expect(200, "POST", f"/v1/fixes/{key}/start")
        vouchd.expect(201, "POST", f"/v1/fixes/{key}/approvals", {"decision": "approve"}, token=manager)
        rollout = {"phased": True, "steps": steps, "interval": interval} if steps else {"phased": False}
        vouchd.expect(200, "PUT", f"/v1/fixes/{key}/rollout", rollout)
        vouchd.expect(200, "PUT", f"/v1/fixes/{key}/criteria", MET_AT_ONCE)

    def state(key: str) -> dict:
        return vouchd.expect(200, "GET", f"/v1/fixes/{key}")

    def wait_for(key: str, wanted: str, seconds: float = 10) -> dict:
        deadline = time.monotonic() + seconds
        while (fix := state(key))["state"] != wanted:
            assert time.monotonic() < deadline, f"{key} is {fix['state']}, not {wanted}"
            time.sleep(0.05)
        return fix

    fixes = {name: make_fix(f"flagd-{name}") for name in
             ["draft", "testing", "paused", "abandoned", "promotion-failed", "released", "rolled-back"]
             + [f"rollout-{percentage}" for percentage in ROLLOUTS]}
    vouchd.expect(200, "POST", f"/v1/fixes/{fixes['testing']}/start")
    vouchd.expect(200, "POST", f"/v1/fixes/{fixes['paused']}/start")
    vouchd.expect(200, "POST", f"/v1/fixes/{fixes['paused']}/pause")
    vouchd.expect(200, "POST", f"/v1/fixes/{fixes['abandoned']}/abandon")
    for name in ("released", "rolled-back"):
        promote(fixes[name], None)
        wait_for(fixes[name], "released")
    vouchd.expect(200, "POST", f"/v1/fixes/{fixes['rolled-back']}/rollback", {"reason": "flagd test"})
    for percentage in ROLLOUTS:
        promote(fixes[f"rollout-{percentage}"], [percentage, 100])
        assert wait_for(fixes[f"rollout-{percentage}"], "releasing")["rollout_percentage"] == percentage
    # Last: a required receiver that refuses, so this promotion, and only this one, fails for good.
    webhook = vouchd.expect(201, "POST", "/v1/webhooks", {"url": f"http://127.0.0.1:{refusing_port}/hooks", "events": ["fix.promoted"],
                                                           "required": True})["id"]
    promote(fixes["promotion-failed"], None)
    wait_for(fixes["promotion-failed"], "promotion_failed")
    vouchd.expect(204, "DELETE", f"/v1/webhooks/{webhook}")
    expected_states = {"draft": "draft", "testing": "testing", "paused": "paused", "abandoned": "abandoned",
                       "promotion-failed": "promotion_failed", "released": "released", "rolled-back": "rolled_back"}
    expected_states.update({f"rollout-{percentage}": "releasing" for percentage in ROLLOUTS})
    for name, wanted in expected_states.items():
        assert state(fixes[name])["state"] == wanted, name
    setup_seconds = time.monotonic() - started

    # The definitions, served to an sdk token and written as the CLI writes them.
    served = vouchd.call("GET", "/flagd/v1/flags.json", token=sdk)
    assert served.status == 200, served.body
    document = served.json()
    assert document["$schema"] == "https://flagd.dev/schema/v0/flags.json"
    flags = sorted(document["flags"])
    assert flags == sorted(fixes.values())
    for percentage in ROLLOUTS:
        text = json.dumps(document["flags"][fixes[f"rollout-{percentage}"]]["targeting"])
        assert f'["true", {percentage}], ["false", {100 - percentage}]' in text, text
    assert not any(flag["metadata"].get("vouchExact") is False for flag in document["flags"].values())
    flags_file = tmp_path / "vouch.flags.json"
    vouch = pathlib.Path(os.environ.get("VOUCHD") or "").with_name("vouch")
    exported = subprocess.run([str(vouch), "flags", "export", "--format", "flagd", "--output", str(flags_file)],
                              env={"VOUCH_URL": vouchd.url, "VOUCH_TOKEN": sdk, "PATH": os.environ.get("PATH", "")},
                              capture_output=True, text=True, timeout=30)
    assert exported.returncode == 0, exported
    assert exported.stdout == f"Flag definitions for flagd written to {flags_file}: {len(flags)} fixes.\n"
    assert flags_file.read_bytes() == served.body

    keys = random_keys(KEYS) + DIRECT_TARGETS + TESTER_KEYS
    flagd = Flagd(flags_file)
    try:
        clock = time.monotonic()
        ofrep = Pipelined(vouchd.url, sdk)
        vouch_values = ofrep.values(keys)
        ofrep_seconds = time.monotonic() - clock
        clock = time.monotonic()
        flagd_values = flagd.values(keys, flags)
        flagd_seconds = time.monotonic() - clock
        found = differences(vouch_values, flagd_values, flags)
        assert not found, f"{len(found)} differences, such as {found[:10]}"
        # The run covered what it claims: every rollout split the keys near its percentage, and targeted keys were on.
        for percentage in ROLLOUTS:
            share = sum(values[fixes[f"rollout-{percentage}"]] for values in vouch_values.values()) / len(keys)
            assert abs(share * 100 - percentage) < 1, (percentage, share)
        for key in DIRECT_TARGETS + TESTER_KEYS:
            assert flagd_values[key][fixes["testing"]] and flagd_values[key][fixes["promotion-failed"]]
            assert not flagd_values[key][fixes["paused"]] and flagd_values[key][fixes["released"]]

        # Changes: each must reach the endpoint within a second, and the provider must agree again once it has the file.
        sample = random.Random(SEED + 1).sample(keys, SAMPLE) + ["qa-new-device"]
        figures = []
        etag = served.header("ETag")

        def served_after(change: str, changed_at: float) -> tuple[float, bytes]:
            nonlocal etag
            while True:
                answer = vouchd.call("GET", "/flagd/v1/flags.json", token=sdk, headers={"If-None-Match": etag})
                if answer.status == 200:
                    etag = answer.header("ETag")
                    return time.time() - changed_at, answer.body
                assert answer.status == 304, answer.status
                assert time.time() - changed_at < WITHIN, f"{change}: the endpoint still served the old definitions after {WITHIN} s"
                time.sleep(0.02)

        def agree_again(change: str, changed_at: float) -> None:
            delay, body = served_after(change, changed_at)
            flagd.changed.clear()
            written = time.monotonic()
            run = subprocess.run([str(vouch), "flags", "export", "--format", "flagd", "--output", str(flags_file)],
                                 env={"VOUCH_URL": vouchd.url, "VOUCH_TOKEN": sdk, "PATH": os.environ.get("PATH", "")},
                                 capture_output=True, text=True, timeout=30)
            assert run.returncode == 0, run
            assert flags_file.read_bytes() == body, f"{change}: the CLI wrote other definitions than the endpoint serves"
            assert flagd.changed.wait(5), f"{change}: the provider did not pick up the new file"
            picked_up = time.monotonic() - written
            found = differences(ofrep.values(sample), flagd.values(sample, flags), flags)
            assert not found, f"{change}: {len(found)} differences, such as {found[:10]}"
            figures.append(f"{change}: served after {delay * 1000:.0f} ms, file picked up by the provider after "
                           f"{picked_up * 1000:.0f} ms, {len(sample):,} keys agree")

        changed_at = time.time()
        vouchd.expect(200, "POST", f"/v1/fixes/{fixes['testing']}/targets", {"add": ["qa-new-device"]})
        agree_again("a key targeted", changed_at)
        changed_at = time.time()
        vouchd.expect(200, "POST", f"/v1/fixes/{fixes['rollout-50']}/pause")
        agree_again("a rollout paused", changed_at)
        # A rollout whose timer takes its next step while the test watches.
        stepping = make_fix("flagd-stepping")
        flags.append(stepping)
        promote(stepping, [5, 30, 100], interval="6s")
        agree_again("a rollout started at 5 %", time.time())
        deadline = time.monotonic() + 20
        while (fix := state(stepping))["rollout_percentage"] != 30:
            assert fix["state"] == "releasing" and time.monotonic() < deadline, fix
            time.sleep(0.02)
        agree_again("the rollout's next step, 30 %", time.time())
    finally:
        api.shutdown()

    total = time.monotonic() - started
    print(f"keys compared: {len(keys):,}; flags: {len(flags) - 1} (then {len(flags)})")
    print(f"evaluations compared: {len(keys) * (len(flags) - 1):,}; differences: 0")
    print(f"setup (fixes in every state): {setup_seconds:.1f} s")
    print(f"vouchd's bulk OFREP answers for {len(keys):,} keys: {ofrep_seconds:.1f} s ({len(keys) / ofrep_seconds:,.0f} answers/s)")
    print(f"flagd provider evaluations: {flagd_seconds:.1f} s ({len(keys) * (len(flags) - 1) / flagd_seconds:,.0f} evaluations/s)")
    for line in figures:
        print(line)
    print(f"whole test: {total:.1f} s")
