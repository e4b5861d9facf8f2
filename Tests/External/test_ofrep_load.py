"""OFREP under load while the fixes change state: every answer must be one the fix really could give at that moment.

64 client threads, each with one persistent HTTP/1.1 connection (http.client), evaluate three fixes for many
targeting keys, single and bulk (a bulk request for a key the client asked about before sends the ETag of that
answer as If-None-Match half the time), with an `sdk` token (Authorization: Bearer, or X-API-Key). Meanwhile one driver thread takes the fixes, in
turn, through their lifecycle with the admin token: start (enabled for targeted keys and enrolled testers), a
direct target added, pause, resume, a phased rollout profile (two percentages, then 100 %, one step a second) or
none, criteria that are met at once (so the daemon promotes by itself: promoting, then releasing at the first
percentage, or released), the timer's rollout steps up to released, the target removed, pause, resume, rollback,
and again from the start with a new revision.

The driver records every change with the monotonic time before it was sent and after its answer (and the fixes'
state read right after it), and polls the fixes every few tens of milliseconds, so the steps the daemon's timer
takes are seen too. From that record each fix gets a list of states (state, revision, rollout percentage, targeted
keys) with the interval in which each may have been in force: from the start of the change that made it (or of the
last poll that still showed the one before) to the end of the first poll that showed the next one. A state the
timer ended stays possible LAG seconds longer: the timer commits to the database before it swaps the evaluation
snapshot, and the polls read the database. A change the driver makes is in the snapshot before its answer (the
swap is in the request), so it gets no such grace.

After the run every answer is checked: status 200 (or 304 when If-None-Match was sent; the answer it stands for,
the client's previous one for that key, is checked again against the 304's time), valid OFREP JSON, a strong ETag
on bulk answers, and for each flag in it a value, reason, variant, revision and state that one of the fix's states
possible during the request (from sending to the end of the answer) gives that targeting key, by docs/lifecycle.md's rules
and flagd's bucketing, which every rollout started since the flagd bridge uses (murmur3 of a canonical CBOR array,
checked against Tests/VouchDomainTests/Fixtures/flagd-bucketing-vectors.tsv). Errors and inconsistencies
must both be zero. Fixed seed, LOAD_SECONDS of load; prints requests, answers checked, inconsistencies and rps.
"""

from __future__ import annotations

import collections
import http.client
import json
import pathlib
import random
import re
import threading
import time
import urllib.parse
from dataclasses import dataclass, field

import pytest

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]
VECTORS = REPOSITORY / "Tests" / "VouchDomainTests" / "Fixtures" / "flagd-bucketing-vectors.tsv"

CLIENTS = 64
LOAD_SECONDS = 20.0
SEED = 20251130
# How long a state the daemon's timer replaced may still be seen after the first poll that showed the new one.
LAG = 0.25
# How long the driver lets each state stand (polling meanwhile) before its next change.
DWELL = 0.15
POLL_EVERY = 0.04
FIXES = ["load-channel-logos", "load-epg-focus-order", "load-player-captions"]
DIRECT_TARGETS = ["qa-iphone", "qa-pixel"]
TESTER_KEYS = ["tester-aiko-1", "tester-aiko-2"]
KEYS = DIRECT_TARGETS + TESTER_KEYS + [f"vip-{n}" for n in range(12)] + [f"user-{n}" for n in range(300)]
# Phased rollouts the cycles go through, in turn; None releases to everyone at once.
ROLLOUTS = [[10, 40, 100], None, [25, 60, 100], [1, 50, 100], None, [5, 20, 100]]
# Every criterion but the approval at its weakest; a release manager's approval is never optional.
MET_AT_ONCE = {"min_testers_passed": 0, "required_assistive_tech": [], "max_blocking": 0, "min_pass_ratio": 0,
               "min_soak": "0"}
OFF_STATES = {"draft", "paused", "rolled_back", "abandoned"}
AS_IN_TESTING = {"testing", "promoting", "promotion_failed"}
ETAG = re.compile(r'"[0-9a-f]{16}"')


# --- flagd's bucketing, written from its description ----------------------------------------------------------

def murmur3_x86_32(data: bytes, seed: int = 0) -> int:
    c1, c2 = 0xCC9E2D51, 0x1B873593
    length = len(data)
    h = seed & 0xFFFFFFFF
    rounded = length - length % 4
    for index in range(0, rounded, 4):
        k = int.from_bytes(data[index:index + 4], "little")
        k = (k * c1) & 0xFFFFFFFF
        k = ((k << 15) | (k >> 17)) & 0xFFFFFFFF
        k = (k * c2) & 0xFFFFFFFF
        h ^= k
        h = ((h << 13) | (h >> 19)) & 0xFFFFFFFF
        h = (h * 5 + 0xE6546B64) & 0xFFFFFFFF
    k = 0
    tail = data[rounded:]
    if len(tail) >= 3:
        k ^= tail[2] << 16
    if len(tail) >= 2:
        k ^= tail[1] << 8
    if tail:
        k ^= tail[0]
        k = (k * c1) & 0xFFFFFFFF
        k = ((k << 15) | (k >> 17)) & 0xFFFFFFFF
        k = (k * c2) & 0xFFFFFFFF
        h ^= k
    h ^= length
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & 0xFFFFFFFF
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & 0xFFFFFFFF
    h ^= h >> 16
    return h


def cbor_text(text: str) -> bytes:
    """A CBOR text string with the shortest head (RFC 8949, 4.2.1)."""
    data = text.encode()
    if len(data) < 24:
        return bytes([0x60 | len(data)]) + data
    for code, size in ((24, 1), (25, 2), (26, 4), (27, 8)):
        if len(data) < 1 << (8 * size):
            return bytes([0x60 | code]) + len(data).to_bytes(size, "big") + data
    raise ValueError("text too long")


def bucket(flag: str, targeting_key: str) -> int:
    """flagd's fractional with the weights [p, 100 - p]: 1 to 100, on when at most the percentage."""
    hash_value = murmur3_x86_32(b"\x82" + cbor_text(flag) + cbor_text(targeting_key))
    return ((hash_value * 100) >> 32) + 1


def test_bucketing_matches_the_shared_vectors():
    rows = [line.split("\t") for line in VECTORS.read_text().splitlines() if line and not line.startswith("#")]
    assert rows[0] == ["flag_key", "targeting_key", "cbor", "hash", "bucket"]
    expand = lambda text: text.split("*")[0] * int(text.split("*")[1]) if "*" in text else text
    for flag, key, cbor, hash_value, expected in rows[1:]:
        flag, key = expand(flag), expand(key)
        encoded = b"\x82" + cbor_text(flag) + cbor_text(key)
        assert encoded.hex() == cbor, (flag, key)
        assert murmur3_x86_32(encoded) == int(hash_value), (flag, key)
        assert bucket(flag, key) == int(expected), (flag, key)


# --- what the driver did ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class FlagState:
    state: str
    revision: int
    percentage: int | None
    targeted: frozenset[str]


@dataclass
class Candidate:
    flag_state: FlagState
    start: float
    end: float


def expected_answer(flag: str, state: FlagState, key: str) -> tuple[bool, str]:
    """The value and reason docs/lifecycle.md ("States and flag values") gives this targeting key in this state."""
    if state.state in OFF_STATES:
        return False, "DISABLED"
    if state.state == "released":
        return True, "STATIC"
    if key in state.targeted:
        return True, "TARGETING_MATCH"
    if state.state in AS_IN_TESTING:
        return False, "DEFAULT"
    assert state.state == "releasing", state
    return bucket(flag, key) <= (state.percentage or 0), "SPLIT"


class Admin:
    """The driver's own persistent connection with the admin token."""

    def __init__(self, url: str, token: str):
        parts = urllib.parse.urlsplit(url)
        self.connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
        self.headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}

    def call(self, method: str, path: str, body=None, expect: int = 200):
        self.connection.request(method, path, body=None if body is None else json.dumps(body), headers=self.headers)
        response = self.connection.getresponse()
        data = response.read()
        assert response.status == expect, f"{method} {path}: expected {expect}, got {response.status}: {data[:300]!r}"
        return json.loads(data) if data else None


@dataclass
class Record:
    """The driver's log: changes and polls in order, each with its monotonic time window."""
    # ("change", start, fix, states it passes through) and ("poll", start, end, {fix: (state, revision, percentage)},
    # {fix: targeted keys}); a change's window runs from its start to the end of the poll that follows it.
    events: list[tuple] = field(default_factory=list)
    changes: int = 0
    timer_steps: int = 0


class Driver:
    def __init__(self, admin: Admin, manager: Admin, stop_at: float, record: Record):
        self.admin = admin
        self.manager = manager
        self.stop_at = stop_at
        self.record = record
        self.targets = {fix: set(DIRECT_TARGETS) | set(TESTER_KEYS) for fix in FIXES}
        self.plans: dict[str, list[list[int]]] = collections.defaultdict(list)  # the phased plans each fix had
        self.failure: BaseException | None = None
        self.latest: dict[str, tuple[str, int, int | None]] = {}

    def poll(self) -> dict[str, tuple[str, int, int | None]]:
        start = time.monotonic()
        fixes = self.admin.call("GET", "/v1/fixes?limit=500")["fixes"]
        end = time.monotonic()
        seen = {fix["key"]: (fix["state"], fix["revision"], fix["rollout_percentage"]) for fix in fixes if fix["key"] in FIXES}
        self.latest = seen
        self.record.events.append(("poll", start, end, seen, {fix: frozenset(keys) for fix, keys in self.targets.items()}))
        return seen

    def change(self, fix: str, method: str, path: str, body=None, *, targets: set[str] | None = None,
               passes_through: list[str] | None = None) -> dict[str, tuple[str, int, int | None]]:
        """One change and the poll right after it; the two together make the change's window."""
        start = time.monotonic()
        self.admin.call(method, path, body)
        if targets is not None:
            self.targets[fix] = targets
        self.record.events.append(("change", start, fix, passes_through or []))
        self.record.changes += 1
        return self.poll()

    def dwell(self) -> None:
        """Lets the states stand for DWELL seconds, polling meanwhile (so the timer's steps are seen)."""
        started = time.monotonic()
        while time.monotonic() - started < DWELL:
            time.sleep(POLL_EVERY)
            self.poll()

    def cycle(self, fix: str, number: int):
        """One lifecycle of one fix, a step per `next()`; yields the latest poll's view while it waits for the timer."""
        base = f"/v1/fixes/{fix}"
        if self.latest[fix][0] == "rolled_back":
            # The defaults (two passing testers, 24 h of soak) keep the next revision in testing until the driver says.
            yield self.change(fix, "PUT", f"{base}/criteria", {})
        yield self.change(fix, "POST", f"{base}/start")
        # The release manager approves the new revision; it changes no flag, so it is no change of the record.
        self.manager.call("POST", f"{base}/approvals", {"decision": "approve"}, expect=201)
        vip = f"vip-{number % 12}"
        yield self.change(fix, "POST", f"{base}/targets", {"add": [vip]}, targets=self.targets[fix] | {vip})
        yield self.change(fix, "POST", f"{base}/pause")
        yield self.change(fix, "POST", f"{base}/resume")
        plan = ROLLOUTS[number % len(ROLLOUTS)]
        if plan:
            self.plans[fix].append(plan)
            yield self.change(fix, "PUT", f"{base}/rollout", {"phased": True, "steps": plan, "interval": "1s"})
        else:
            yield self.change(fix, "PUT", f"{base}/rollout", {"phased": False})
        # Met at once: the daemon promotes within this request (no webhook to wait for) to releasing or released.
        yield self.change(fix, "PUT", f"{base}/criteria", MET_AT_ONCE, passes_through=["promoting"])
        # The timer takes the rollout steps, one a second; no change to this fix until it is released.
        waited_since = time.monotonic()
        while self.latest[fix][0] != "released":
            assert time.monotonic() - waited_since < 10, f"{fix} not released within 10 s: {self.latest[fix]}"
            yield None
        yield self.change(fix, "POST", f"{base}/targets", {"remove": [vip]}, targets=self.targets[fix] - {vip})
        yield self.change(fix, "POST", f"{base}/pause")
        yield self.change(fix, "POST", f"{base}/resume")
        yield self.change(fix, "POST", f"{base}/rollback", {"reason": "load test"})

    def run(self) -> None:
        """Takes a step of each fix's lifecycle in turn, the three fixes at different points, until time is up."""
        try:
            cycles = {fix: self.cycle(fix, number) for number, fix in enumerate(FIXES)}
            started = {fix: number for number, fix in enumerate(FIXES)}
            while time.monotonic() < self.stop_at:
                for fix in FIXES:
                    if next(cycles[fix], StopIteration) is StopIteration:
                        started[fix] += len(FIXES)
                        cycles[fix] = self.cycle(fix, started[fix])
                self.dwell()
        except BaseException as error:  # reported by the test, not lost in the thread
            self.failure = error


def candidates_from(record: Record, plans_seen: dict[str, list[list[int]]]) -> dict[str, list[Candidate]]:
    """Each fix's states, each with the interval in which it may have been in force."""
    result: dict[str, list[Candidate]] = {fix: [] for fix in FIXES}
    current: dict[str, Candidate] = {}
    last_seen_start: dict[str, float] = {}
    pending_change: dict[str, tuple[float, list[str]]] = {}
    for event in record.events:
        if event[0] == "change":
            _, start, fix, passes_through = event
            pending_change[fix] = (start, passes_through)
            continue
        _, start, end, seen, targets = event
        for fix in FIXES:
            state, revision, percentage = seen[fix]
            observed = FlagState(state, revision, percentage, targets[fix])
            previous = current.get(fix)
            change = pending_change.pop(fix, None)
            if previous is None:
                current[fix] = Candidate(observed, float("-inf"), float("inf"))
                result[fix].append(current[fix])
            elif change is not None:
                # A change by the driver: in the snapshot before its answer, so before this poll's end.
                change_start, passes_through = change
                for middle in passes_through:
                    result[fix].append(Candidate(FlagState(middle, revision, None, targets[fix]), change_start, end))
                if observed != previous.flag_state:
                    previous.end = end
                    current[fix] = Candidate(observed, change_start, float("inf"))
                    result[fix].append(current[fix])
            elif observed != previous.flag_state:
                # The daemon's timer: after the last poll that showed the old state began, before this one ended;
                # the snapshot may follow the database by up to LAG. Steps of the plan it went past count too.
                record.timer_steps += 1
                begun = last_seen_start[fix]
                previous.end = end + LAG
                old = previous.flag_state.percentage or 0
                new = observed.percentage if observed.percentage is not None else 100
                for plan in plans_seen.get(fix, []):
                    for step in plan:
                        if old < step < new and step < 100:
                            result[fix].append(Candidate(FlagState("releasing", revision, step, targets[fix]),
                                                         begun, end + LAG))
                current[fix] = Candidate(observed, begun, float("inf"))
                result[fix].append(current[fix])
            last_seen_start[fix] = start
    return result


# --- the clients -------------------------------------------------------------------------------------------------

@dataclass
class Answer:
    start: float
    end: float
    kind: str  # "single" or "bulk"
    flag: str | None
    key: str
    status: int
    body: bytes
    etag: str | None
    sent_etag: str | None
    remembered: bytes | None  # for a 304: the body of the previous answer it stands for


def client(number: int, url: str, token: str, stop_at: float, answers: list[Answer], errors: list[str]) -> None:
    rng = random.Random(SEED * 100 + number)
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    auth = {"Authorization": f"Bearer {token}"} if number % 4 else {"X-API-Key": token}
    previous: dict[str, tuple[str, bytes]] = {}
    mine: list[Answer] = []
    while time.monotonic() < stop_at:
        key = rng.choice(KEYS)
        headers = {"Content-Type": "application/json", **auth}
        sent_etag = None
        if rng.random() < 0.5:
            kind, flag, path = "single", rng.choice(FIXES), None
            path = f"/ofrep/v1/evaluate/flags/{flag}"
        else:
            kind, flag, path = "bulk", None, "/ofrep/v1/evaluate/flags"
            if key in previous and rng.random() < 0.5:
                sent_etag = previous[key][0]
                headers["If-None-Match"] = sent_etag
        body = json.dumps({"context": {"targetingKey": key, "platform": "ios"}})
        start = time.monotonic()
        try:
            connection.request("POST", path, body=body, headers=headers)
            response = connection.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException) as error:
            errors.append(f"client {number}: {kind} for {key}: {type(error).__name__}: {error}")
            connection.close()
            connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
            continue
        end = time.monotonic()
        etag = response.getheader("ETag")
        remembered = previous[key][1] if response.status == 304 and key in previous else None
        mine.append(Answer(start, end, kind, flag, key, response.status, data, etag, sent_etag, remembered))
        if kind == "bulk" and response.status == 200 and etag:
            previous[key] = (etag, data)
    connection.close()
    answers.extend(mine)  # list.extend is atomic under the GIL


# --- checking ----------------------------------------------------------------------------------------------------

def check_flag(flag_answer, flag: str | None, key: str, start: float, end: float,
               candidates: dict[str, list[Candidate]]) -> str | None:
    """None when the flag's answer is valid OFREP and one of its possible states gives it; else what is wrong."""
    if not isinstance(flag_answer, dict) or set(flag_answer) != {"key", "value", "reason", "variant", "metadata"}:
        return f"not an OFREP evaluation: {flag_answer!r}"
    if flag is not None and flag_answer["key"] != flag:
        return f"answered for {flag_answer['key']!r} instead of {flag!r}"
    flag = flag_answer["key"]
    if flag not in candidates:
        return f"unknown flag {flag!r}"
    value, reason, variant, metadata = (flag_answer[name] for name in ("value", "reason", "variant", "metadata"))
    if not isinstance(value, bool) or variant != ("on" if value else "off"):
        return f"value {value!r} with variant {variant!r}"
    if not isinstance(metadata, dict) or set(metadata) != {"revision", "state"} or not isinstance(metadata["revision"], int):
        return f"metadata {metadata!r}"
    possible = [candidate for candidate in candidates[flag] if candidate.start <= end and candidate.end >= start]
    for candidate in possible:
        state = candidate.flag_state
        if (state.state, state.revision) == (metadata["state"], metadata["revision"]) \
                and expected_answer(flag, state, key) == (value, reason):
            return None
    described = "; ".join(f"{c.flag_state.state} r{c.flag_state.revision} {c.flag_state.percentage}% "
                          f"targeted={key in c.flag_state.targeted} [{c.start:.3f}, {c.end:.3f}]" for c in possible)
    return (f"{flag} for {key} in [{start:.3f}, {end:.3f}] answered {value} {reason} {metadata}; "
            f"possible then: {described}")


def check(answer: Answer, candidates: dict[str, list[Candidate]]) -> list[str]:
    """What is wrong with one answer (nothing, usually); also returns how many flags it checked via the caller."""
    if answer.status == 304:
        if answer.sent_etag is None or answer.remembered is None:
            return [f"304 without an If-None-Match to stand for ({answer.key})"]
        if answer.body:
            return [f"304 with a body for {answer.key}"]
        if answer.etag != answer.sent_etag:
            return [f"304 with ETag {answer.etag!r}, not the {answer.sent_etag!r} sent"]
        body = answer.remembered
    elif answer.status == 200:
        body = answer.body
    else:
        return [f"{answer.kind} for {answer.key}: status {answer.status}: {answer.body[:200]!r}"]
    try:
        document = json.loads(body)
    except ValueError:
        return [f"{answer.kind} for {answer.key}: not JSON: {body[:200]!r}"]
    if answer.kind == "single":
        problem = check_flag(document, answer.flag, answer.key, answer.start, answer.end, candidates)
        return [problem] if problem else []
    if answer.status == 200 and (answer.etag is None or not ETAG.fullmatch(answer.etag)):
        return [f"bulk for {answer.key}: ETag {answer.etag!r}"]
    # `eventStreams` names this token's event stream (OFREP ADR-0008); nothing else may stand beside `flags`.
    if not isinstance(document, dict) or set(document) - {"eventStreams"} != {"flags"} or not isinstance(document["flags"], list) \
            or sorted(flag.get("key") for flag in document["flags"] if isinstance(flag, dict)) != sorted(FIXES):
        return [f"bulk for {answer.key}: {body[:300]!r}"]
    return [problem for flag in document["flags"]
            if (problem := check_flag(flag, None, answer.key, answer.start, answer.end, candidates))]


def test_ofrep_answers_follow_the_state_changes_under_load(vouchd):
    admin = Admin(vouchd.url, vouchd.admin_token)
    for fix in FIXES:
        admin.call("POST", "/v1/fixes", {"key": fix, "title": f"Load {fix}", "ui_area": "TV channel selector",
                                         "platforms": ["ios"]}, expect=201)
        admin.call("POST", f"/v1/fixes/{fix}/targets", {"add": DIRECT_TARGETS})
    tester = admin.call("POST", "/v1/testers", {"name": "Aiko", "consent": "2026-11", "assistive_tech": ["voiceover:ios"],
                                                "targeting_keys": TESTER_KEYS}, expect=201)["id"]
    for fix in FIXES:
        admin.call("POST", f"/v1/fixes/{fix}/enrollments", {"testers": [tester]})
    sdk = vouchd.create_token("load-app", "sdk")

    record = Record()
    started = time.monotonic()
    stop_at = started + LOAD_SECONDS
    manager = Admin(vouchd.url, vouchd.create_token("load-release-manager", "release_manager"))
    driver = Driver(admin, manager, stop_at, record)
    driver.poll()
    answers: list[Answer] = []
    errors: list[str] = []
    threads = [threading.Thread(target=client, args=(number, vouchd.url, sdk, stop_at, answers, errors),
                                name=f"ofrep-client-{number}") for number in range(CLIENTS)]
    for thread in threads:
        thread.start()
    driver_thread = threading.Thread(target=driver.run, name="lifecycle-driver")
    driver_thread.start()
    for thread in threads:
        thread.join(timeout=LOAD_SECONDS + 30)
    driver_thread.join(timeout=LOAD_SECONDS + 30)
    elapsed = time.monotonic() - started
    assert not any(thread.is_alive() for thread in threads + [driver_thread]), "a thread did not finish"
    if driver.failure is not None:
        raise driver.failure
    driver.poll()

    candidates = candidates_from(record, driver.plans)

    statuses = collections.Counter(answer.status for answer in answers)
    inconsistencies: list[str] = []
    flags_checked = 0
    seen_reasons: collections.Counter[str] = collections.Counter()
    seen_states: collections.Counter[str] = collections.Counter()
    for answer in answers:
        problems = check(answer, candidates)
        inconsistencies += problems
        if answer.status in (200, 304) and not problems:
            document = json.loads(answer.body if answer.status == 200 else answer.remembered)
            for flag in document["flags"] if answer.kind == "bulk" else [document]:
                flags_checked += 1
                seen_reasons[flag["reason"]] += 1
                seen_states[flag["metadata"]["state"]] += 1

    print(f"\nOFREP load: {CLIENTS} clients for {elapsed:.1f} s")
    print(f"requests: {len(answers) + len(errors)}")
    print(f"requests per second: {(len(answers) + len(errors)) / elapsed:.0f}")
    for status, count in sorted(statuses.items()):
        print(f"status {status}: {count}")
    print(f"single evaluations: {sum(answer.kind == 'single' for answer in answers)}")
    print(f"bulk evaluations: {sum(answer.kind == 'bulk' for answer in answers)}")
    print(f"flag answers checked: {flags_checked}")
    print(f"state changes by the driver: {record.changes}")
    print(f"rollout steps taken by the daemon's timer: {record.timer_steps}")
    print(f"states possible over the run: {sum(len(states) for states in candidates.values())}")
    for reason, count in sorted(seen_reasons.items()):
        print(f"reason {reason}: {count}")
    for state, count in sorted(seen_states.items()):
        print(f"state {state}: {count}")
    print(f"errors: {len(errors)}")
    print(f"inconsistencies: {len(inconsistencies)}")

    assert not errors, f"{len(errors)} requests failed; the first:\n" + "\n".join(errors[:10])
    assert not inconsistencies, f"{len(inconsistencies)} answers no state could give; the first:\n" + "\n".join(inconsistencies[:10])
    # The run went through what it is meant to: every reason, the rollout, and 304s.
    assert set(seen_reasons) == {"DISABLED", "TARGETING_MATCH", "DEFAULT", "SPLIT", "STATIC"}, seen_reasons
    assert {"testing", "paused", "releasing", "released", "rolled_back"} <= set(seen_states), seen_states
    assert statuses[304] > 0 and record.timer_steps > 0
