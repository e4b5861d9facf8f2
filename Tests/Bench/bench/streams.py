"""Part 7: OFREP event streams held by one vouchd: memory per stream, the fan-out of a change, and the OFREP rate
beside them against the same vouchd without them; in rounds, each on a fresh vouchd. With more than the default
10,000 streams (BENCH_STREAMS=100000), one round, with vouchd's connection caps and both processes' open file limits
raised to fit."""

import math
import os
import re
import resource
import shutil
import subprocess
import time
from dataclasses import dataclass

from bench import arithmetic, vouchd, wrk
from bench.context import CONNECTIONS, THREADS, Context
from bench.report import BenchFailure, figure, say, show

DEFAULT_STREAMS = 10_000
# Rounds at the default count: each ratio of OFREP with streams to without must meet its target.
ROUNDS = 3
# What the defaults of vouchd hold: `ofrep.max_streams`, and `http.max_connections`, of which vouchd sheds waiting
# connections past seven eighths (ConnectionShedding).
DEFAULT_MAX_STREAMS = 12_288
DEFAULT_MAX_CONNECTIONS = 16_384
# Connections besides the streams: wrk's, the API's, and room to spare.
OTHER_CONNECTIONS = 256
# Descriptors vouchd keeps for everything but connections (FileDescriptorLimit.reserved), and some more.
RESERVED_FILES = 256
STREAMS_PER_ADDRESS = 100
LARGE_RSS_TARGET_MIB = 1024


@dataclass(frozen=True)
class StreamPlan:
    """What holding `count` streams takes: vouchd's settings, the client's source addresses, and the open file limit
    vouchd and the client each need."""
    count: int
    settings: list[str]
    addresses: int
    open_files: int

    @property
    def large(self) -> bool:
        return self.count > DEFAULT_STREAMS

    @property
    def rounds(self) -> int:
        return 1 if self.large else ROUNDS

    @staticmethod
    def of(count: int) -> "StreamPlan":
        # At most 100 streams per loopback address, under `http.max_connections_per_ip` (128).
        addresses = max(100, math.ceil(count / STREAMS_PER_ADDRESS))
        connections = DEFAULT_MAX_CONNECTIONS
        settings = []
        if count > DEFAULT_MAX_STREAMS or (count + OTHER_CONNECTIONS) * 8 > DEFAULT_MAX_CONNECTIONS * 7:
            # The streams and the others stay under seven eighths of the cap, where shedding starts.
            connections = max(DEFAULT_MAX_CONNECTIONS, math.ceil((count + OTHER_CONNECTIONS) * 8 / 7) + 1)
            settings = [f"VOUCHD_HTTP_MAX_CONNECTIONS={connections}", f"VOUCHD_OFREP_MAX_STREAMS={count}"]
        return StreamPlan(count, settings, addresses, max(connections, count) + RESERVED_FILES)


def raise_open_files(plan: StreamPlan) -> None:
    """Raises this process's open file limit, soft and hard, to what the plan needs when it is lower; vouchd and
    vouch-bench, started from here, inherit it. Raising the hard limit takes CAP_SYS_RESOURCE (root has it, unless a
    container drops it)."""
    needed = plan.open_files
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft >= needed:
        return
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (needed, max(needed, hard)))
    except (ValueError, OSError):
        raise BenchFailure(f"BENCH_STREAMS={plan.count} needs an open file limit of {needed} for vouchd and for "
                           f"vouch-bench; the hard limit here is {hard} and this process may not raise it (that takes "
                           "CAP_SYS_RESOURCE): raise it before running (ulimit -Hn), or lower BENCH_STREAMS") from None


def open_streams(metrics: str) -> int:
    """`vouch_http_open_streams` in vouchd's /metrics text; -1 when it is missing."""
    found = re.search(r"^vouch_http_open_streams ([0-9]+)$", metrics, re.MULTILINE)
    return int(found.group(1)) if found else -1


def load_average() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def event_streams(context: Context) -> dict:
    count = context.settings.streams
    plan = StreamPlan.of(count)
    say()
    # Before the wait for a quiet machine: a limit that cannot be raised ends the part at once.
    raise_open_files(plan)
    context.quiet()
    rounds_text = f"{plan.rounds} rounds, each on a fresh vouchd" if plan.rounds > 1 else "one round on a fresh vouchd"
    say(f"== 7. OFREP event streams: {count} streams held by one vouchd; memory, fan-out of a change, OFREP rate "
        f"beside them; {rounds_text} ==")
    say(f"Open file limit for vouchd and vouch-bench: {resource.getrlimit(resource.RLIMIT_NOFILE)[0]}")
    say(f"vouchd settings for part 7 (besides the defaults): {' '.join(plan.settings) or 'none'}")
    rounds = [_round(context, plan, number) for number in range(1, plan.rounds + 1)]

    def middle(key: str) -> str:
        return arithmetic.median([each[key] for each in rounds])

    return {
        "count": str(count),
        "rounds": rounds,
        "stream_kib": middle("stream_kib"),
        "rss_before_mib": middle("rss_before_mib"),
        "rss_mib": middle("rss_mib"),
        "fanout_p50": middle("fanout_p50"),
        "fanout_p99": middle("fanout_p99"),
        "fanout_last": middle("fanout_last"),
        "fanout_max": middle("fanout_max"),
    }


def _round(context: Context, plan: StreamPlan, number: int) -> dict:
    """One vouchd: OFREP measured, the streams opened (memory, fan-out), OFREP measured while they are held, then
    again once vouchd has seen them all close. The run with the streams is taken between the two without them and
    compared with their mean, so a drift of the shared host's speed during the round moves both sides alike."""
    session = context.session
    duration = context.settings.duration
    name = f"streams-{number}"
    server = context.start_vouchd(name, plan.settings)
    admin_token = server.read_admin_token()
    token, _ = server.prepare_ofrep("bench-streams-sdk")
    lua = session.path(f"{name}.lua")
    with open(lua, "w") as file:
        file.write(wrk.lua_request(vouchd.REQUEST_BODY, token))
    url = f"{server.url}/ofrep/v1/evaluate/flags/{vouchd.FLAG}"

    def measure(label: str) -> wrk.Measurement:
        return wrk.measure(session, duration, "OFREP HTTP", f"{label}_round{number}", url, server.pid, lua, THREADS,
                           CONNECTIONS)

    say(f"Round {number} load average at start: {load_average()}")
    first = measure("nostreams_before")
    output_path = session.path(f"{name}.txt")
    with open(output_path, "w") as output:
        # Held through wrk's warm-up and run, with room for the keep-alives to go on meanwhile.
        client = session.start(context.bench("streams", "--url", server.url, "--admin-token", admin_token,
                                             "--sdk-token", token, "--fix", vouchd.FLAG, "--pid", str(server.pid),
                                             "--streams", str(plan.count), "--addresses", str(plan.addresses),
                                             "--changes", "5", "--hold-seconds", str(duration + 8)),
                               stdout=output, stderr=subprocess.STDOUT)

    def held() -> bool:
        return any(line.startswith("Streams held s") for line in open(output_path).read().splitlines())

    # About 2,000 streams open a second on two shared cores, then five changes fan out.
    patience = max(180, plan.count // 500)
    waited = 0.0
    while not held() and waited < patience:
        if client.poll() is not None:
            show(open(output_path).read())
            raise BenchFailure("the event stream client stopped early; no result reported")
        time.sleep(0.1)
        waited += 0.1
    if not held():
        show(open(output_path).read())
        raise BenchFailure(f"the event streams did not open and measure within {patience} s")
    say(f"Round {number} load average with the streams open: {load_average()}")
    beside = measure("withstreams")
    if client.wait() != 0:
        show(open(output_path).read())
        raise BenchFailure("the event stream client failed; no result reported")
    text = open(output_path).read()
    print(text, end="", flush=True)
    # A parked stream notices its client left at its next keep-alive: wait until vouchd has let every one go.
    closed = _wait_until_streams_closed(server, seconds=20 + plan.count // 5_000)
    say(f"Round {number} streams still open in vouchd before the run without them: {closed}")
    last = measure("nostreams")
    session.stop(server.process)
    without_rps = arithmetic.median([first.rps, last.rps])
    without_cpu = arithmetic.median([first.cpu_us, last.cpu_us])
    ratio = arithmetic.ratio(beside.rps, without_rps)
    say(f"Round {number} OFREP with {plan.count} streams open / without, the mean of the runs before and after "
        f"({beside.rps} / {without_rps} requests/s; without: {first.rps} before, {last.rps} after): {ratio}")
    # Steadier than the rates when other processes share the cores: vouchd's own CPU per request.
    cpu_ratio = arithmetic.ratio(without_cpu, beside.cpu_us)
    say(f"Round {number} OFREP server CPU per request without / with the streams ({without_cpu} / {beside.cpu_us} "
        f"µs): {cpu_ratio}")
    shutil.rmtree(session.path(name), ignore_errors=True)
    return {
        "stream_kib": figure(text, "vouchd resident KiB per stream"),
        "rss_before_mib": figure(text, "vouchd resident MiB before streams"),
        "rss_mib": figure(text, "vouchd resident MiB with streams"),
        "fanout_p50": figure(text, "Fan-out ms p50"),
        "fanout_p99": figure(text, "Fan-out ms p99"),
        "fanout_last": figure(text, "Fan-out ms to the last stream (median of changes)"),
        "fanout_max": figure(text, "Fan-out ms to the last stream (max)"),
        "withstreams_rps": beside.rps,
        "nostreams_rps": without_rps,
        "nostreams_before_rps": first.rps,
        "nostreams_after_rps": last.rps,
        "ratio": ratio,
        "cpu_ratio": cpu_ratio,
    }


def _wait_until_streams_closed(server: vouchd.Vouchd, seconds: int) -> int:
    """Polls vouchd's /metrics until no stream is open or `seconds` pass; the streams still open."""
    remaining = -1
    for _ in range(seconds * 10):
        status, body = vouchd.request(server.port, "GET", "/metrics", "")
        remaining = open_streams(body.decode(errors="replace")) if status == 200 else -1
        if remaining == 0:
            break
        time.sleep(0.1)
    return remaining


def checks(context: Context, figures: dict) -> None:
    """The summary lines of part 7: at the default count, memory per stream, the fan-out and each round's OFREP
    ratio; with more streams, vouchd's whole RSS and the fan-out to all of them."""
    check = context.summary.check
    count = figures["count"]
    rounds = figures["rounds"]
    if int(count) <= DEFAULT_STREAMS:
        check(f"vouchd resident memory per open event stream, {count} streams (median of {len(rounds)} rounds: "
              f"{', '.join(each['stream_kib'] for each in rounds)})", "<=", "8", figures["stream_kib"], " KiB")
        check(f"Event stream fan-out p99, change to each of {count} streams (p50 {figures['fanout_p50']} ms, last "
              f"stream {figures['fanout_last']} ms; medians of {len(rounds)} rounds)", "<=", "250",
              figures["fanout_p99"], " ms")
        for number, each in enumerate(rounds, start=1):
            check(f"OFREP rate with {count} streams open / without, round {number} ({each['withstreams_rps']} / "
                  f"{each['nostreams_rps']} requests/s)", ">=", "0.9", each["ratio"], "")
        say(f"OFREP server CPU per request without / with {count} streams, by round: "
            f"{', '.join(each['cpu_ratio'] for each in rounds)} (no target)")
        return
    check(f"vouchd RSS with {count} event streams open ({figures['rss_before_mib']} MiB before them, "
          f"{figures['stream_kib']} KiB per stream)", "<=", str(LARGE_RSS_TARGET_MIB), figures["rss_mib"], " MiB")
    check(f"Event stream fan-out p99, change to each of {count} streams (p50 {figures['fanout_p50']} ms, max "
          f"{figures['fanout_max']} ms)", "<=", "1000", figures["fanout_p99"], " ms")
    if int(count) < 100_000:
        say(f"Note: the two targets above are for 100,000 streams; this run held {count}. At the same cost per stream, "
            f"100,000 would take {extrapolated_mib(figures['rss_before_mib'], figures['stream_kib'], 100_000)} MiB "
            "(no target)")
    for number, each in enumerate(rounds, start=1):
        say(f"OFREP rate with {count} streams open / without, round {number}: {each['ratio']} "
            f"({each['withstreams_rps']} / {each['nostreams_rps']} requests/s; server CPU per request without / with "
            f"{each['cpu_ratio']}; no target at this count)")


def extrapolated_mib(before_mib: str, kib_per_stream: str, count: int) -> str:
    """vouchd's RSS with `count` streams at the cost per stream measured: before + count × per stream, in MiB."""
    return f"{arithmetic.number(before_mib) + arithmetic.number(kib_per_stream) * count / 1024:.1f}"


def console(context: Context) -> dict[str, str]:
    """Part 8: a tester's feedback page at 50 sessions opened by personal links; page weights."""
    session = context.session
    say()
    context.quiet()
    say("== 8. Web console: a tester's feedback page at 50 sessions opened by personal links; page weights ==")
    server = context.start_vouchd("console")
    result = subprocess.run(context.bench("console", "--url", server.url, "--admin-token", server.read_admin_token(),
                                          "--sessions", "50", "--seconds", "10", "--rate", "20"),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0:
        show(result.stdout)
        raise BenchFailure("the console benchmark failed")
    print(result.stdout, end="", flush=True)
    session.stop(server.process)
    text = result.stdout
    return {
        "paced_p99": figure(text, "Console feedback page, paced, ms p99"),
        "paced_rate": figure(text, "Console feedback page, paced, pages per second"),
        "busy_p99": figure(text, "Console feedback page, back to back, ms p99"),
        "busy_rate": figure(text, "Console feedback page, back to back, pages per second"),
        "heaviest_kb": figure(text, "Console heaviest page KB"),
        "english_p99": figure(text, "Console feedback page, paced, English, ms p99"),
        "japanese_p99": figure(text, "Console feedback page, paced, Japanese, ms p99"),
        "language_ratio": figure(text, "Console feedback page, paced, Japanese p99 over English p99"),
    }
