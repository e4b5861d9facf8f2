"""Part 7: OFREP event streams held by one vouchd: memory per stream, the fan-out of a change, and the OFREP rate
beside them against the same vouchd without them."""

import shutil
import subprocess
import time

from bench import arithmetic, vouchd, wrk
from bench.context import CONNECTIONS, THREADS, Context
from bench.report import BenchFailure, figure, say, show


def event_streams(context: Context) -> dict[str, str]:
    session = context.session
    count = context.settings.streams
    duration = context.settings.duration
    say()
    context.quiet()
    say(f"== 7. OFREP event streams: {count} streams held by one vouchd; memory, fan-out of a change, OFREP rate "
        "beside them ==")
    server = context.start_vouchd("streams")
    admin_token = server.read_admin_token()
    token, _ = server.prepare_ofrep("bench-streams-sdk")
    lua = session.path("streams.lua")
    with open(lua, "w") as file:
        file.write(wrk.lua_request(vouchd.REQUEST_BODY, token))
    url = f"{server.url}/ofrep/v1/evaluate/flags/{vouchd.FLAG}"

    def measure(name: str) -> wrk.Measurement:
        return wrk.measure(session, duration, "OFREP HTTP", name, url, server.pid, lua, THREADS, CONNECTIONS)

    # The reference, in the same run and on the same vouchd: OFREP without streams, before and after them.
    before = measure("nostreams_before")
    output_path = session.path("streams.txt")
    with open(output_path, "w") as output:
        client = session.start(context.bench("streams", "--url", server.url, "--admin-token", admin_token,
                                             "--sdk-token", token, "--fix", vouchd.FLAG, "--pid", str(server.pid),
                                             "--streams", str(count), "--addresses", "100", "--changes", "5",
                                             "--hold-seconds", str(duration + 8)),
                               stdout=output, stderr=subprocess.STDOUT)

    def held() -> bool:
        return any(line.startswith("Streams held s") for line in open(output_path).read().splitlines())

    for _ in range(1800):
        if held():
            break
        if client.poll() is not None:
            show(open(output_path).read())
            raise BenchFailure("the event stream client stopped early; no result reported")
        time.sleep(0.1)
    if not held():
        show(open(output_path).read())
        raise BenchFailure("the event streams did not open and measure within 180 s")
    beside = measure("withstreams")
    if client.wait() != 0:
        show(open(output_path).read())
        raise BenchFailure("the event stream client failed; no result reported")
    text = open(output_path).read()
    print(text, end="", flush=True)
    after = measure("nostreams_after")
    session.stop(server.process)
    without = arithmetic.mean_rounded(before.rps, after.rps)
    ratio = arithmetic.ratio(beside.rps, without)
    say(f"OFREP with {count} streams open / without (mean of before and after): {ratio}")
    shutil.rmtree(session.path("streams"), ignore_errors=True)
    return {
        "stream_kib": figure(text, "vouchd resident KiB per stream"),
        "fanout_p50": figure(text, "Fan-out ms p50"),
        "fanout_p99": figure(text, "Fan-out ms p99"),
        "fanout_last": figure(text, "Fan-out ms to the last stream (median of changes)"),
        "withstreams_rps": beside.rps,
        "nostreams_rps": without,
        "stream_ratio": ratio,
    }


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
