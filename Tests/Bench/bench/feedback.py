"""Feedback intake over HTTP against a database's own single-connection commit rate (parts 5 and 9), and the
summary of a fix with 100,000 records (part 5). Part 5's intake alone (BENCH_PARTS=5) alternates the reference and
vouchd for BENCH_ROUNDS rounds and reports the medians."""

import re
import shutil
from dataclasses import dataclass

from bench import arithmetic, procstat, vouchd, wrk
from bench.context import INTAKE_CONNECTIONS, THREADS, Context
from bench.report import BenchFailure, figure, say, show

INTAKE_FIX = "ios.player-controls.intake-bench"


def feedback_body(tester: str) -> str:
    """A valid feedback record (the fields the API requires) from one tester."""
    return (f'{{"tester":"{tester}","verdict":"passed","task_outcome":"completed_independently","severity":"none",'
            '"platform":"ios","os_version":"18","app_build":"1","assistive_tech":"voiceover"}')


def intake_lua(testers: list[str], admin_token: str) -> str:
    """wrk's script: each thread starts at a different tester and moves to the next one on every request."""
    listed = ",".join(f'"{tester}"' for tester in testers)
    head, tail = feedback_body("X").split('"X"')
    return (f"local testers = {{{listed}}}\n"
            "local requests = {}\n"
            "local counter = 0\n"
            "local threads_started = 0\n"
            "function setup(thread)\n"
            '  thread:set("first", threads_started)\n'
            "  threads_started = threads_started + 1\n"
            "end\n"
            "function init(args)\n"
            "  counter = first * 5\n"
            "  for i, tester in ipairs(testers) do\n"
            '    requests[i] = wrk.format("POST", nil, {["Content-Type"] = "application/json", '
            f'["Authorization"] = "Bearer {admin_token}"}},\n'
            f"      '{head}\"' .. tester .. '\"{tail}')\n"
            "  end\n"
            "end\n"
            "function request()\n"
            "  counter = counter + 1\n"
            "  return requests[(counter % #requests) + 1]\n"
            "end\n")


def records_stored_are_answered(records: int, answered: int, connections: int) -> bool:
    """Every 201 was stored: the sample's, the warm-up's and the run's, plus up to two per connection in flight when
    wrk stopped."""
    return answered <= records <= answered + 2 * connections


@dataclass
class Intake:
    rps: str
    p50: str
    p99: str
    ratio: str
    cpu_us: str


def run_intake(context: Context, name: str, reference_rate: str, reference_name: str,
               settings: list[str] = ()) -> Intake:
    """A fresh vouchd (on SQLite with sqlite.synchronous full, its default, unless the settings give
    VOUCHD_DATABASE_URL), one fix in testing, 16 enrolled VoiceOver testers, then wrk with 16 connections POSTing
    valid feedback, each request from the next tester in turn."""
    session = context.session
    state = session.path(f"intake-{name}")
    server = context.start_vouchd(f"intake-{name}", settings, state=state)
    server.read_admin_token()
    threads = [s.split("=", 1)[1] for s in settings if s.startswith("VOUCHD_HTTP_THREADS=")]
    threads_text = threads[0] if threads else f"default ({procstat.cpus()}, the cores)"
    say(f"Feedback intake {name} vouchd http.threads: {threads_text}")
    server.api("POST", "/v1/fixes", f'{{"key":"{INTAKE_FIX}","title":"Label the playback controls",'
                                    '"ui_area":"Player controls","platforms":["ios"]}')
    server.api("POST", f"/v1/fixes/{INTAKE_FIX}/start")
    testers = []
    for n in range(1, INTAKE_CONNECTIONS + 1):
        answer = server.api("POST", "/v1/testers", f'{{"name":"Bench tester {n}","assistive_tech":["voiceover:ios"],'
                                                   f'"targeting_keys":["k-{n}"],"consent":"v1"}}')
        found = re.match(r'\{"id":"([^"]*)"', answer)
        if not found or not found.group(1):
            raise BenchFailure("no tester id in the answer of POST /v1/testers")
        testers.append(found.group(1))
    listed = ",".join(f'"{tester}"' for tester in testers)
    server.api("POST", f"/v1/fixes/{INTAKE_FIX}/enrollments", f'{{"testers":[{listed}]}}')
    # A sample first: it must be 201 and carry the record back.
    status, body = vouchd.request(server.port, "POST", f"/v1/fixes/{INTAKE_FIX}/feedback", server.admin_token,
                                  feedback_body(testers[0]))
    text = body.decode(errors="replace")
    if status != 201:
        show(text)
        raise BenchFailure(f"vouchd answered {status} to a feedback submission; no result reported")
    if f'"tester":"{testers[0]}"' not in text:
        raise BenchFailure(f"unexpected feedback answer: {text}")
    say(f"Feedback intake {name} sample answer checked (201): {body[:100].decode(errors='replace')}…")
    lua = session.path(f"intake-{name}.lua")
    with open(lua, "w") as file:
        file.write(intake_lua(testers, server.admin_token))
    measured = wrk.measure(session, context.settings.duration, "Feedback intake", name,
                           f"{server.url}/v1/fixes/{INTAKE_FIX}/feedback", server.pid, lua, THREADS, INTAKE_CONNECTIONS)
    summary = server.api("GET", f"/v1/fixes/{INTAKE_FIX}/feedback/summary")
    found = re.search(r'"records":([0-9]*)', summary)
    records = found.group(1) if found else ""
    answered = 1 + int(measured.warmup_requests) + int(measured.requests)
    say(f"Feedback intake {name} records stored / 201 answers counted by wrk and curl: {records} / {answered}")
    if not records or not records_stored_are_answered(int(records), answered, INTAKE_CONNECTIONS):
        raise BenchFailure(f"{name}: {records} records stored for {answered} 201 answers; no result reported")
    ratio = arithmetic.ratio(measured.rps, reference_rate)
    say(f"Feedback intake {name} ratio to {reference_name}: {ratio}")
    session.stop(server.process)
    shutil.rmtree(state, ignore_errors=True)
    return Intake(measured.rps, measured.p50, measured.p99, ratio, measured.cpu_us)


def sqlite_commit_rate(context: Context) -> str:
    """The reference: one connection, one single-row INSERT per transaction, WAL and synchronous=FULL as vouchd, same
    disk."""
    session = context.session
    window = procstat.Window()
    output = session.path("commit-rate.txt")
    status, bench_cpu = session.timed(context.bench("commit-rate", "--state-dir", session.path("commit-rate"),
                                                    "--seconds", str(context.settings.commit_seconds),
                                                    "--synchronous", "full"), output)
    text = open(output).read()
    print(text, end="", flush=True)
    if status != 0:
        raise BenchFailure(f"vouch-bench commit-rate exited with status {status}")
    own = arithmetic.process_cpu_ticks(bench_cpu, procstat.TICKS_PER_SECOND)
    say(f"SQLite reference CPU taken by other processes, percent: {window.others_percent(own)}")
    commit_rate = figure(text, "SQLite reference commits per second")
    if not commit_rate:
        raise BenchFailure("the SQLite reference printed no commit rate")
    shutil.rmtree(session.path("commit-rate"), ignore_errors=True)
    return commit_rate


SQLITE_REFERENCE = "SQLite's single-connection commit rate"


def intake_heading(context: Context) -> None:
    say(f"== 5. Feedback intake over HTTP (wrk, {THREADS} threads, {INTAKE_CONNECTIONS} connections, "
        f"{context.settings.duration} s) against SQLite's own commit rate ==")


def intake_on_sqlite(context: Context) -> dict:
    say()
    context.quiet()
    intake_heading(context)
    commit_rate = sqlite_commit_rate(context)
    default = run_intake(context, "default", commit_rate, SQLITE_REFERENCE)
    context.quiet()
    threads16 = run_intake(context, "threads16", commit_rate, SQLITE_REFERENCE, ["VOUCHD_HTTP_THREADS=16"])
    return {"commit_rate": commit_rate, "default": default, "threads16": threads16}


def intake_alone(context: Context) -> dict:
    """Part 5's intake alone: BENCH_ROUNDS rounds, each the SQLite reference then vouchd with the default threads, so
    each ratio compares figures of the same moment; the medians of the rounds."""
    say()
    intake_heading(context)
    say(f"vouchd settings for part 5 (besides the defaults): {context.settings.intake_settings_text or 'none'}")
    rounds: list[tuple[str, Intake]] = []
    for number in range(1, context.settings.rounds + 1):
        context.quiet()
        say(f"-- Round {number} of {context.settings.rounds}")
        commit_rate = sqlite_commit_rate(context)
        rounds.append((commit_rate, run_intake(context, f"round{number}", commit_rate, SQLITE_REFERENCE,
                                               context.settings.intake_settings)))

    def runs_and_median(label: str, values: list[str]) -> str:
        median = arithmetic.median(values)
        say(f"Feedback intake {label}, runs and median: {' '.join(values)}, {median}")
        return median

    return {
        "commit_rate": runs_and_median("SQLite reference commits per second", [rate for rate, _ in rounds]),
        "rps": runs_and_median("feedback per second", [intake.rps for _, intake in rounds]),
        "ratio": runs_and_median("ratio to SQLite's commits", [intake.ratio for _, intake in rounds]),
        "p50": runs_and_median("latency p50 ms", [intake.p50 for _, intake in rounds]),
        "p99": runs_and_median("latency p99 ms", [intake.p99 for _, intake in rounds]),
        "cpu_us": runs_and_median("vouchd CPU microseconds per submission", [intake.cpu_us for _, intake in rounds]),
    }


def alone_checks(context: Context, figures: dict) -> None:
    context.summary.check(f"Feedback intake vouchd/SQLite commits, median of {context.settings.rounds} rounds "
                          f"({figures['rps']} feedback/s / {figures['commit_rate']} commits/s)", ">=", "1.0",
                          figures["ratio"], "")
    say(f"Feedback intake latency, medians: p50 {figures['p50']} ms, p99 {figures['p99']} ms (no target); vouchd CPU "
        f"per submission {figures['cpu_us']} µs")


def summary_of_many(context: Context) -> tuple[str, str]:
    """The summary of a fix with 100,000 records; its median and max in ms."""
    session = context.session
    say()
    say("== 5. Feedback summary of a fix with 100,000 records (GET over HTTP, keep-alive) ==")
    populated = session.tee(context.bench("populate-feedback", "--state-dir", session.path("summary"), "--records",
                                          "100000", "--testers", "20"))
    fix = figure(populated, "Feedback populated fix")
    server = context.start_vouchd("summary")
    token = server.read_admin_token()
    timing = session.tee(context.bench("http-timing", "--label", "Feedback summary", "--url",
                                       f"{server.url}/v1/fixes/{fix}/feedback/summary", "--token", token, "--calls",
                                       "50", "--warm-up", "5", "--expect", '"records":100000'))
    answer = server.api("GET", f"/v1/fixes/{fix}/feedback/summary").encode()[:100].decode(errors="replace")
    say(f'Feedback summary answer checked (200, "records":100000): {answer}…')
    median = figure(timing, "Feedback summary ms (median)")
    maximum = figure(timing, "Feedback summary ms (max)")
    session.stop(server.process)
    shutil.rmtree(session.path("summary"), ignore_errors=True)
    return median, maximum
