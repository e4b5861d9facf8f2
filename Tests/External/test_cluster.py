"""Three vouchd on one PostgreSQL database (docs/storage.md): what one node is told, every node answers; a node that
dies or freezes in the middle of a promotion leaves exactly one promotion, finished by another; the database going
away and coming back loses no acknowledged write; and OFREP clients never see a node's configuration go backwards.

Each test gets a fresh database and nodes A, B and C on it (cluster_fixtures.py), with a webhook lease of
LEASE_SECONDS, 1 s attempts and retries a second apart. Skipped without VOUCH_TEST_POSTGRES_URL, unless
VOUCH_REQUIRE_POSTGRES=1 (scripts/test), when it fails. Figures are printed and shown in pytest's summary.
"""

from __future__ import annotations

import collections
import http.client
import json
import random
import re
import signal
import threading
import time
from typing import Any

from cluster_fixtures import (LEASE_SECONDS, NODE_NAMES, Arrival, Cluster, Connection, HoldingReceiver, percentile,
                              process_with_socket, report, wait_until)
from postgres_cluster import cluster_directory, kill_server, postgres_url, rows, start_server_again

FIX = "cluster-channel-labels"
KEY = "qa-iphone-cluster"
# A change must be in every node's answers this soon after it was sent.
CONVERGENCE_LIMIT = 1.0
POLL_EVERY = 0.01
# Every criterion but the approval at its weakest; a release manager's approval is never optional.
MET_AT_ONCE = {"min_testers_passed": 0, "required_assistive_tech": [], "max_blocking": 0, "min_pass_ratio": 0,
               "min_soak": "0"}


def create_fix(connection: Connection, key: str = FIX) -> None:
    connection.expect(201, "POST", "/v1/fixes", {"key": key, "title": f"Cluster {key}", "ui_area": "TV channel selector",
                                                 "platforms": ["ios"]})


def bulk(connection: Connection, key: str, etag: str | None = None):
    return connection.request("POST", "/ofrep/v1/evaluate/flags", {"context": {"targetingKey": key}},
                              headers={"If-None-Match": etag} if etag else None)


def flag_answer(reply, fix: str = FIX) -> tuple[Any, Any] | None:
    """(value, reason) of `fix` in a bulk answer; None when the answer does not carry it."""
    if reply.status != 200:
        return None
    flags = [flag for flag in reply.json().get("flags", []) if flag.get("key") == fix]
    return (flags[0]["value"], flags[0]["reason"]) if flags else None


def configuration_revision(reply) -> int:
    text = reply.headers.get("vouch-configuration-revision")
    assert text is not None and text.isdigit(), f"Vouch-Configuration-Revision is {text!r} ({reply.status})"
    return int(text)


# --- 1. convergence --------------------------------------------------------------------------------------------------

# What each change does to the flag for KEY, a direct target of the fix in testing.
CYCLE = [
    ("POST", f"/v1/fixes/{FIX}/pause", None, (False, "DISABLED")),
    ("POST", f"/v1/fixes/{FIX}/resume", None, (True, "TARGETING_MATCH")),
    ("POST", f"/v1/fixes/{FIX}/targets", {"remove": [KEY]}, (False, "DEFAULT")),
    ("POST", f"/v1/fixes/{FIX}/targets", {"add": [KEY]}, (True, "TARGETING_MATCH")),
]
CYCLES = 5


def test_a_change_through_one_node_is_in_every_node_s_answers_within_a_second(cluster: Cluster):
    admins = {name: cluster.connect(name) for name in NODE_NAMES}
    sdk = cluster.create_token("cluster-app", "sdk")
    readers = {name: cluster.connect(name, sdk) for name in NODE_NAMES}
    create_fix(admins["A"])
    admins["A"].expect(200, "POST", f"/v1/fixes/{FIX}/start")
    changes = [("A", "POST", f"/v1/fixes/{FIX}/targets", {"add": [KEY]}, (True, "TARGETING_MATCH"))]
    changes += [(NODE_NAMES[(number + 1) % 3], *CYCLE[number % len(CYCLE)]) for number in range(CYCLES * len(CYCLE))]

    spreads: list[float] = []
    for through, method, path, body, expected in changes:
        sent = time.monotonic()
        admins[through].expect(200, method, path, body)
        seen: dict[str, float] = {}
        last: dict[str, str] = {}
        while len(seen) < len(NODE_NAMES):
            for name in NODE_NAMES:
                if name in seen:
                    continue
                reply = bulk(readers[name], KEY)
                if flag_answer(reply) == expected:
                    seen[name] = time.monotonic() - sent
                else:
                    last[name] = (f"{reply.status} {flag_answer(reply)} at revision "
                                  f"{reply.headers.get('vouch-configuration-revision')}")
            elapsed = time.monotonic() - sent
            assert len(seen) == len(NODE_NAMES) or elapsed < CONVERGENCE_LIMIT, (
                f"{method} {path} {body or ''} through node {through}: after {elapsed:.3f} s, "
                + "; ".join(f"node {name} still answers {last[name]}" for name in NODE_NAMES if name not in seen)
                + f", expected {expected}")
            time.sleep(POLL_EVERY)
        spreads.append(max(seen.values()))
        answers = {name: bulk(readers[name], KEY) for name in NODE_NAMES}
        etags = {name: reply.headers.get("etag") for name, reply in answers.items()}
        revisions = {name: configuration_revision(reply) for name, reply in answers.items()}
        assert len(set(etags.values())) == 1 and None not in etags.values(), \
            f"after {method} {path} through node {through} the nodes' bulk ETags differ: {etags}"
        assert len(set(revisions.values())) == 1, \
            f"after {method} {path} through node {through} the nodes are at different configuration revisions: {revisions}"

    report(f"convergence: {len(spreads)} changes through alternating nodes, sent to in every node's answers: "
           f"p50 {percentile(spreads, 0.5) * 1000:.0f} ms, p99 {percentile(spreads, 0.99) * 1000:.0f} ms, "
           f"max {max(spreads) * 1000:.0f} ms; a token made through node A was accepted by B and C "
           f"within {cluster.token_spreads[0] * 1000:.0f} ms (polled every 150 ms)")


# --- 2 and 3. a node dies or freezes mid-promotion ------------------------------------------------------------------

def start_promotion(cluster: Cluster, receiver: HoldingReceiver) -> str:
    """A fix in testing, approved, a required endpoint for fix.promoted, and criteria met at once: the cluster
    promotes it and sends fix.promoted. Returns the endpoint's id."""
    admin = cluster.connect("A")
    create_fix(admin)
    endpoint = admin.expect(201, "POST", "/v1/webhooks", {"url": receiver.url, "events": ["fix.promoted"], "required": True})
    receiver.secret = endpoint["secret"]
    cluster.secrets.append(endpoint["secret"])
    admin.expect(200, "POST", f"/v1/fixes/{FIX}/start")
    manager = cluster.create_token("rita", "release_manager")
    # The criteria by the admin who wrote the fix: a release manager who changed them could not approve this revision.
    cluster.connect("C").expect(200, "PUT", f"/v1/fixes/{FIX}/criteria", MET_AT_ONCE)
    cluster.connect("B", manager).expect(201, "POST", f"/v1/fixes/{FIX}/approvals", {"decision": "approve"})
    return endpoint["id"]


def sender_of(cluster: Cluster, receiver: HoldingReceiver, client_port: int) -> str | None:
    pid = process_with_socket(client_port, receiver.port, [cluster.nodes[name].process.pid for name in cluster.alive()])
    return None if pid is None else cluster.name_of(pid)


def hold_fix_promoted(cluster: Cluster, receiver: HoldingReceiver) -> tuple[str, Arrival, str]:
    """Starts a promotion and waits for the receiver to hold fix.promoted: the endpoint, the held request, and the
    node that sent it."""
    endpoint = start_promotion(cluster, receiver)
    [held] = receiver.wait_for(1, timeout=10)
    sender = sender_of(cluster, receiver, held.client_port)
    assert sender, f"no node holds the connection from port {held.client_port} that sent {held}"
    return endpoint, held, sender


def fix_on(connection: Connection) -> dict[str, Any]:
    return connection.expect(200, "GET", f"/v1/fixes/{FIX}")


def wait_for_release(connection: Connection, timeout: float = 30.0) -> dict[str, Any]:
    shown: dict[str, Any] = {}

    def released() -> bool:
        shown.update(fix_on(connection))
        return shown["state"] == "released"

    wait_until(released, timeout, lambda: f"fix {FIX} is {shown.get('state')!r}, not released", every=0.1)
    return shown


def audit_actions(connection: Connection) -> list[dict[str, Any]]:
    return connection.expect(200, "GET", f"/v1/audit?fix={FIX}&limit=500")["events"]


def assert_one_promotion(connection: Connection, receiver: HoldingReceiver, endpoint: str) -> dict[str, Any]:
    """One fix.promote in the audit, one fix.promoted event, one succeeded delivery of it: returns the delivery."""
    events = audit_actions(connection)
    promotions = [event for event in events if event["action"] == "fix.promote"]
    assert len(promotions) == 1, f"expected one fix.promote, the audit has {[(e['action'], e['principal']) for e in events]}"
    assert promotions[0]["after"]["revision"] == 1 and promotions[0]["after"]["state"] == "promoting", promotions[0]
    succeeded = [event for event in events if event["action"] == "fix.promotion-succeeded"]
    assert len(succeeded) == 1, f"expected one fix.promotion-succeeded, the audit has {[e['action'] for e in events]}"
    problems = [arrival for arrival in receiver.arrivals if arrival.problem or arrival.type != "fix.promoted"]
    assert not problems, f"requests that were not a verified fix.promoted: {problems}"
    ids = {arrival.webhook_id for arrival in receiver.arrivals}
    assert len(ids) == 1, f"the receiver saw several fix.promoted events: {ids}"
    deliveries = connection.expect(200, "GET", f"/v1/webhooks/{endpoint}/deliveries?limit=100")["deliveries"]
    assert [(d["type"], d["event"], d["status"]) for d in deliveries] == [("fix.promoted", *ids, "succeeded")], deliveries
    return deliveries[0]


def test_a_node_killed_while_sending_fix_promoted_leaves_one_promotion_finished_by_another(holding_receiver, cluster):
    receiver = holding_receiver
    endpoint, held, sender = hold_fix_promoted(cluster, receiver)
    killed_at = time.monotonic()
    cluster.kill(sender)

    taken_over = receiver.wait_for(2, timeout=LEASE_SECONDS + 5)[1]
    taker = sender_of(cluster, receiver, taken_over.client_port)
    # The lease was taken when the delivery was claimed, just before the held request was sent.
    assert taken_over.at - held.at >= LEASE_SECONDS - 0.5, \
        f"another node sent the delivery {taken_over.at - held.at:.2f} s after the first attempt, within its lease"
    survivor = cluster.connect(cluster.alive()[0])
    wait_for_release(survivor)
    delivery = assert_one_promotion(survivor, receiver, endpoint)
    # The killed node's attempt was never recorded; the one that took over recorded its own, the first.
    assert (delivery["attempts"], delivery["last_status_code"]) == (1, 200), delivery
    assert len(receiver.arrivals) == 2, receiver.arrivals
    report(f"SIGKILL mid-promotion: node {sender} killed holding fix.promoted; node {taker or '?'} delivered it "
           f"{taken_over.at - killed_at:.2f} s later (lease {LEASE_SECONDS} s); one promotion, one webhook-id")


def test_a_node_frozen_past_its_lease_cannot_record_its_late_attempt(holding_receiver, cluster):
    receiver = holding_receiver
    endpoint, held, sender = hold_fix_promoted(cluster, receiver)
    frozen = cluster.nodes[sender].process
    frozen.send_signal(signal.SIGSTOP)
    stopped_at = time.monotonic()
    cluster.expected_errors[sender] = re.compile(r"lease")
    try:
        taken_over = receiver.wait_for(2, timeout=LEASE_SECONDS + 5)[1]
        survivor_name = next(name for name in NODE_NAMES if name != sender)
        survivor = cluster.connect(survivor_name)
        before = wait_for_release(survivor)
        delivery_before = assert_one_promotion(survivor, receiver, endpoint)
        audit_before = audit_actions(survivor)
        time.sleep(max(0.0, stopped_at + LEASE_SECONDS + 2 - time.monotonic()))
        receiver.release()
    finally:
        frozen.send_signal(signal.SIGCONT)
    resumed_at = time.monotonic()

    lost = wait_until(lambda: [line for line in cluster.logged(sender, "lease")
                               if "level=warning" in line or "level=error" in line], 10,
                      lambda: f"node {sender} logged no lost lease after SIGCONT:\n" + "\n".join(cluster.nodes[sender].log[-20:]))
    time.sleep(3)
    for name in NODE_NAMES:
        assert fix_on(cluster.connect(name)) == before, f"node {name}: the fix changed after node {sender} resumed"
    delivery = assert_one_promotion(survivor, receiver, endpoint)
    assert delivery == delivery_before, f"the delivery's record changed after node {sender} resumed"
    assert (delivery["attempts"], delivery["last_status_code"]) == (1, 200), delivery
    assert audit_actions(survivor) == audit_before, f"the audit grew after node {sender} resumed"
    assert len(receiver.arrivals) == 2, receiver.arrivals
    report(f"SIGSTOP past the lease: node {sender} frozen {resumed_at - stopped_at:.1f} s holding fix.promoted; "
           f"another delivered it {taken_over.at - stopped_at:.2f} s after the freeze; the resumed node logged: "
           f"{lost[0].split('msg=', 1)[-1][:120]}")


# --- 4. the database goes away ---------------------------------------------------------------------------------------

def feedback(tester: str) -> dict[str, Any]:
    return {"tester": tester, "verdict": "passed", "task_outcome": "completed_independently", "severity": "none",
            "platform": "ios", "os_version": "18.2", "app_build": "4.12.0 (881)", "assistive_tech": "voiceover"}


class Writer:
    """Creates testers and submits feedback through the three nodes in turn until stopped, counting what each
    answer acknowledged (201) with the id it gave; 503 is a refusal. Anything else is a failure of the test."""

    LIMIT = 120.0

    def __init__(self, cluster: Cluster, tester: str):
        self.connections = {name: cluster.connect(name) for name in NODE_NAMES}
        self.tester = tester
        self.testers: list[str] = []
        self.feedback: list[str] = []
        self.statuses: collections.Counter[int] = collections.Counter()
        self.failures: list[str] = []
        # The monotonic time of each node's latest acknowledged write.
        self.acknowledged_at = {name: 0.0 for name in NODE_NAMES}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="cluster-writer")

    def _write(self, name: str, number: int) -> None:
        if number % 2:
            path, body, into = "/v1/testers", {"name": f"Tester {number}", "consent": "2026-11",
                                               "assistive_tech": ["voiceover:ios"], "targeting_keys": [f"writer-{number}"]}, self.testers
        else:
            path, body, into = f"/v1/fixes/{FIX}/feedback", feedback(self.tester), self.feedback
        try:
            reply = self.connections[name].request("POST", path, body)
        except (OSError, http.client.HTTPException) as error:  # vouchd itself must always answer, database or not
            self.failures.append(f"node {name}: POST {path}: {type(error).__name__}: {error}")
            return
        self.statuses[reply.status] += 1
        if reply.status == 201:
            into.append(reply.json()["id"])
            self.acknowledged_at[name] = time.monotonic()
        elif reply.status != 503 or not reply.headers.get("retry-after"):
            self.failures.append(f"node {name}: POST {path}: {reply.status} (Retry-After "
                                 f"{reply.headers.get('retry-after')!r}): {reply.body[:300]!r}")

    def _run(self) -> None:
        started = time.monotonic()
        number = 0
        while not self._stop.is_set() and time.monotonic() - started < self.LIMIT:
            number += 1
            self._write(NODE_NAMES[number % 3], number)
            time.sleep(0.005)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=30)
        assert not self._thread.is_alive(), "the writer did not stop"

    def wait_for_writes_after(self, moment: float, timeout: float, what: str) -> float:
        """Waits until every node acknowledged a write after `moment`; returns how long after `moment` the last did."""
        wait_until(lambda: min(self.acknowledged_at.values()) > moment, timeout,
                   lambda: f"{what}: nodes without an acknowledged write since: "
                           f"{[name for name, at in self.acknowledged_at.items() if at <= moment]}; "
                           f"answers so far {dict(self.statuses)}; failures {self.failures[:5]}")
        return max(self.acknowledged_at.values()) - moment


def readiness(cluster: Cluster) -> dict[str, int]:
    return {name: Connection(cluster.nodes[name].url, None).request("GET", "/readyz").status for name in NODE_NAMES}


def test_nodes_recover_by_themselves_when_the_database_goes_away_and_lose_no_acknowledged_write(cluster):
    directory = cluster_directory(postgres_url())
    for name in NODE_NAMES:
        # Work that found the database away (following, dispatching, the timer's lock) says so at level error.
        cluster.expected_errors[name] = re.compile(r'error="PostgreSQL error: ')
    admin = cluster.connect("A")
    create_fix(admin)
    admin.expect(200, "POST", f"/v1/fixes/{FIX}/start")
    tester = admin.expect(201, "POST", "/v1/testers", {"name": "Aiko", "consent": "2026-11",
                                                       "assistive_tech": ["voiceover:ios"], "targeting_keys": ["aiko-1"]})["id"]
    admin.expect(200, "POST", f"/v1/fixes/{FIX}/enrollments", {"testers": [tester]})
    writer = Writer(cluster, tester)
    writer.start()
    server_down = False
    try:
        writer.wait_for_writes_after(time.monotonic(), 10, "before anything went away")
        # (a) Every connection to the database is cut, three times, while writes go on.
        terminated = 0
        for _ in range(3):
            terminated += len(rows(postgres_url(), "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                                  f"WHERE datname = '{cluster.database}' AND pid <> pg_backend_pid()"))
            time.sleep(0.4)
        cut_at = time.monotonic()
        after_cut = writer.wait_for_writes_after(cut_at, 10, "after the connections were cut")

        # (b) The server stops at once for about 3 s; every node says it is not ready meanwhile.
        kill_server(directory)
        server_down = True
        down_at = time.monotonic()
        seen_down: collections.Counter[int] = collections.Counter()
        while time.monotonic() - down_at < 3:
            for name, status in readiness(cluster).items():
                seen_down[status] += 1
                assert status == 503, f"node {name}: /readyz answered {status} while the database was down"
            time.sleep(0.25)
        start_server_again(directory)
        server_down = False
        up_at = time.monotonic()
        wait_until(lambda: set(readiness(cluster).values()) == {200}, 15,
                   lambda: f"/readyz after the database came back: {readiness(cluster)}", every=0.1)
        ready_after = time.monotonic() - up_at
        writes_after = writer.wait_for_writes_after(up_at, 15, "after the database came back")
    finally:
        writer.stop()
        if server_down:
            start_server_again(directory)
    assert not writer.failures, f"{len(writer.failures)} writes failed otherwise than 201 or 503 with Retry-After:\n" \
        + "\n".join(writer.failures[:10])

    readers = [cluster.connect(name) for name in NODE_NAMES]
    missing = [tester_id for number, tester_id in enumerate(writer.testers)
               if readers[number % 3].request("GET", f"/v1/testers/{tester_id}").status != 200]
    stored: set[str] = set()
    cursor = ""
    # The admin's connection sat idle through all of the above, longer than vouchd keeps an idle connection open
    # (http.header_timeout) when many writes were acknowledged: a new one.
    admin.close()
    while True:
        page = admin.expect(200, "GET", f"/v1/fixes/{FIX}/feedback?limit=500{cursor}")
        stored |= {record["id"] for record in page["feedback"]}
        if not page["next_cursor"]:
            break
        cursor = f"&cursor={page['next_cursor']}"
    missing += [feedback_id for feedback_id in writer.feedback if feedback_id not in stored]
    acknowledged = len(writer.testers) + len(writer.feedback)
    report(f"database away: {terminated} connections cut in 3 rounds, every node writing again "
           f"{after_cut:.2f} s after the last; server stopped (immediate) 3 s: /readyz 503 on every node "
           f"({seen_down[503]} checks), 200 on all {ready_after:.2f} s after it was back, writes on all {writes_after:.2f} s after")
    report(f"database away: writes answered {dict(sorted(writer.statuses.items()))}; "
           f"acknowledged: {acknowledged}, found after recovery: {acknowledged - len(missing)}, lost: {len(missing)}")
    assert not missing, f"{len(missing)} acknowledged writes are gone: {missing[:10]}"
    assert writer.statuses[503] > 0, "no write was refused: the database never seemed away to the nodes"


# --- 5. 64 OFREP clients ---------------------------------------------------------------------------------------------

CLIENTS = 64
LOAD_SECONDS = 10.0
SEED = 20261202
LOAD_FIXES = ["cluster-logos", "cluster-focus-order", "cluster-captions"]
LOAD_KEYS = [f"user-{number}" for number in range(40)] + ["vip-1", "vip-2"]


def ofrep_client(number: int, connection: Connection, stop_at: float, results: list[dict[str, Any]]) -> None:
    """Bulk evaluations on one connection until `stop_at`; counts answers and what was wrong with any."""
    rng = random.Random(SEED * 100 + number)
    etags: dict[str, str] = {}
    latest = -1
    tally: dict[str, Any] = {"requests": 0, "statuses": collections.Counter(), "regressions": [], "problems": [],
                             "revisions": set()}
    while time.monotonic() < stop_at:
        key = rng.choice(LOAD_KEYS)
        sent_etag = etags.get(key) if rng.random() < 0.5 else None
        tally["requests"] += 1
        try:
            reply = bulk(connection, key, sent_etag)
        except (OSError, http.client.HTTPException) as error:
            tally["problems"].append(f"{type(error).__name__}: {error}")
            continue
        tally["statuses"][reply.status] += 1
        revision_text = reply.headers.get("vouch-configuration-revision", "")
        if not revision_text.isdigit():
            tally["problems"].append(f"{reply.status} with Vouch-Configuration-Revision {revision_text!r}")
            continue
        if int(revision_text) < latest:
            tally["regressions"].append(f"revision {revision_text} after {latest}")
        latest = max(latest, int(revision_text))
        tally["revisions"].add(latest)
        if reply.status == 304 and sent_etag and reply.headers.get("etag") == sent_etag and not reply.body:
            continue
        try:
            document = json.loads(reply.body) if reply.status == 200 else None
        except ValueError:
            document = None
        flags = document.get("flags") if isinstance(document, dict) else None
        if not (isinstance(flags, list) and sorted(flag.get("key") for flag in flags) == sorted(LOAD_FIXES)
                and reply.headers.get("etag")):
            tally["problems"].append(f"{reply.status} for {key} (If-None-Match {sent_etag}): {reply.body[:200]!r}")
            continue
        etags[key] = reply.headers["etag"]
    connection.close()
    results.append(tally)


def drive(cluster: Cluster, stop_at: float, changes: list[str]) -> None:
    """Pauses, resumes and moves direct targets of the fixes through random nodes until `stop_at`."""
    rng = random.Random(SEED)
    admins = {name: cluster.connect(name) for name in NODE_NAMES}
    paused = {fix: False for fix in LOAD_FIXES}
    targeted = {fix: False for fix in LOAD_FIXES}
    while time.monotonic() < stop_at:
        fix, name = rng.choice(LOAD_FIXES), rng.choice(NODE_NAMES)
        if rng.random() < 0.5:
            action, body = ("resume" if paused[fix] else "pause"), None
            paused[fix] = not paused[fix]
            path = f"/v1/fixes/{fix}/{action}"
        else:
            body = {("remove" if targeted[fix] else "add"): ["vip-1"]}
            targeted[fix] = not targeted[fix]
            path = f"/v1/fixes/{fix}/targets"
        admins[name].expect(200, "POST", path, body)
        changes.append(f"{name} {path}")
        time.sleep(0.02)


def test_64_ofrep_clients_never_see_a_node_s_configuration_go_backwards(cluster):
    admin = cluster.connect("A")
    for fix in LOAD_FIXES:
        create_fix(admin, fix)
        admin.expect(200, "POST", f"/v1/fixes/{fix}/targets", {"add": ["vip-2"]})
        admin.expect(200, "POST", f"/v1/fixes/{fix}/start")
    sdk = cluster.create_token("cluster-load-app", "sdk")

    started = time.monotonic()
    stop_at = started + LOAD_SECONDS
    results: list[dict[str, Any]] = []
    changes: list[str] = []
    driver_failure: list[BaseException] = []

    def driver() -> None:
        try:
            drive(cluster, stop_at, changes)
        except BaseException as error:  # reported by the test, not lost in the thread
            driver_failure.append(error)

    threads = [threading.Thread(target=ofrep_client, name=f"cluster-ofrep-{number}",
                                args=(number, cluster.connect(NODE_NAMES[number % 3], sdk), stop_at, results))
               for number in range(CLIENTS)]
    threads.append(threading.Thread(target=driver, name="cluster-driver"))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=LOAD_SECONDS + 30)
    elapsed = time.monotonic() - started
    assert not any(thread.is_alive() for thread in threads), "a client or the driver did not finish"
    if driver_failure:
        raise driver_failure[0]

    requests = sum(tally["requests"] for tally in results)
    statuses = sum((tally["statuses"] for tally in results), collections.Counter())
    regressions = [f"client {number}: {text}" for number, tally in enumerate(results) for text in tally["regressions"]]
    problems = [text for tally in results for text in tally["problems"]]
    revisions = set().union(*(tally["revisions"] for tally in results))
    report(f"64 OFREP clients: {requests} bulk requests in {elapsed:.1f} s ({requests / elapsed:.0f}/s) on "
           f"{CLIENTS} connections over 3 nodes while {len(changes)} changes went through random nodes (configuration revisions {min(revisions)} to "
           f"{max(revisions)} seen); answers "
           f"{dict(sorted(statuses.items()))}; revision regressions: {len(regressions)}; other problems: {len(problems)}")
    assert len(results) == CLIENTS
    assert not regressions, f"{len(regressions)} answers went back to an older configuration:\n" + "\n".join(regressions[:10])
    assert not problems, f"{len(problems)} answers were not 200/304 with valid OFREP JSON:\n" + "\n".join(problems[:10])
    # The run went through what it is meant to: changes the clients saw, and answers to If-None-Match.
    assert statuses[304] > 0 and len(changes) >= 10 and len(revisions) > len(changes) / 2, (statuses, len(changes), revisions)


# --- 5. revocation across nodes --------------------------------------------------------------------------------------

REVOCATION_TRIALS = 20


def token_known_everywhere(cluster: Cluster, name: str, role: str) -> tuple[str, str]:
    """(id, secret) of a new token made through node A, once every node accepts it."""
    made = cluster.connect("A").expect(201, "POST", "/v1/tokens", {"name": name, "role": role})
    cluster.secrets.append(made["token"])
    for node in NODE_NAMES[1:]:
        connection = cluster.connect(node, made["token"])
        wait_until(lambda: connection.request("GET", "/v1/fixes?limit=1").status != 401, 5.0,
                   lambda: f"node {node} does not know the token {name!r} yet", every=0.15)
    return made["id"], made["token"]


def test_a_token_revoked_on_one_node_writes_nothing_on_another(cluster: Cluster):
    """The attack: right after node A answered 200 to the revocation, the revoked token writes through node B, whose
    copy of the tokens has not heard yet. No write may commit: node B checks the token inside its write transaction,
    under the write lock the revocation committed under (docs/storage.md, "Revocation across nodes")."""
    admin_a = cluster.connect("A")
    refused: collections.Counter[int] = collections.Counter()
    for trial in range(REVOCATION_TRIALS):
        role = "admin" if trial % 2 == 0 else "maintainer"
        token_id, secret = token_known_everywhere(cluster, f"revoked-{trial}", role)
        writer_b = cluster.connect("B", secret)
        writer_b.request("GET", "/v1/fixes?limit=1")  # the connection is open before the race starts
        admin_a.expect(200, "DELETE", f"/v1/tokens/{token_id}")
        if role == "admin":
            reply = writer_b.request("POST", "/v1/tokens", {"name": f"made-by-revoked-{trial}", "role": "admin"})
        else:
            reply = writer_b.request("POST", "/v1/fixes", {"key": f"revoked-fix-{trial}", "title": "Written after revocation",
                                                           "ui_area": "TV channel selector", "platforms": ["ios"]})
        refused[reply.status] += 1
        assert reply.status == 401, f"trial {trial}: the {role} token revoked on node A got {reply.status} on node B: {reply.body[:200]!r}"
        # And its next request is refused at once, without counting against the address as a guess.
        assert writer_b.request("GET", "/v1/fixes?limit=1").status == 401
    tokens = admin_a.expect(200, "GET", "/v1/tokens?limit=200")["tokens"]
    assert not [token for token in tokens if token["name"].startswith("made-by-revoked-")], "a revoked token made a token"
    assert admin_a.request("GET", "/v1/fixes/revoked-fix-1").status == 404
    report(f"revocation across nodes: {REVOCATION_TRIALS} writes right after revocation on another node, answers {dict(refused)}")
