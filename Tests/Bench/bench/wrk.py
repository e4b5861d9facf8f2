"""wrk: its output read, and one measurement of a server under it (a warm-up, then a timed run with the server's
CPU and the machine's read from /proc before and after)."""

from __future__ import annotations

import re
import subprocess
import time
from dataclasses import dataclass

from bench import arithmetic, procstat
from bench.report import BenchFailure, say, show


@dataclass(frozen=True)
class WrkOutput:
    """What the bench reads of wrk's report; empty text where wrk printed no such line."""
    requests: str
    requests_per_second: str
    p50: str
    p99: str
    socket_errors: str
    non_2xx: str
    # The run's latency tail, when the script's `done` printed it (`lua_latency_tail`).
    tail: LatencyTail | None

    @staticmethod
    def parse(text: str) -> "WrkOutput":
        requests = rate = p50 = p99 = errors = non_2xx = ""
        tail: LatencyTail | None = None
        for line in text.splitlines():
            fields = line.split()
            if fields[:1] == [TAIL_LABEL] and len(fields) > 2:
                tail = LatencyTail(int(fields[1]), {float(p): int(float(value))
                                                    for p, value in (pair.split(":") for pair in fields[2:])})
            if "requests in" in line and fields:
                requests = fields[0]
            if line.startswith("Requests/sec:") and len(fields) > 1:
                rate = fields[1]
            if fields[:1] == ["50%"] and len(fields) > 1:
                p50 = fields[1]
            if fields[:1] == ["99%"] and len(fields) > 1:
                p99 = fields[1]
            if "Socket errors:" in line:
                errors = re.sub(r".*Socket errors: ", "", line)
            if "Non-2xx or 3xx responses:" in line and fields:
                non_2xx = fields[-1]
        return WrkOutput(requests, rate, p50, p99, errors, non_2xx, tail)


@dataclass(frozen=True)
class Measurement:
    """One server's figures under wrk, as printed."""
    rps: str
    p50: str
    p99: str
    cpu_us: str
    user_us: str
    requests: str
    warmup_requests: str
    tail: LatencyTail | None


TAIL_LABEL = "latency-tail-us"


@dataclass(frozen=True)
class LatencyTail:
    """One run's latency from its 90th percentile up, as wrk's `done` printed it (`lua_latency_tail`): how many
    requests, and the latency in µs at each percentile from 90.00 to 99.99 by hundredths."""
    requests: int
    percentiles: dict[float, int]

    def share_within(self, microseconds: int) -> float:
        """The share of this run's requests that took at most `microseconds`, to a hundredth of a percent, counted
        from the 90th percentile up (a latency below it counts as 90 %)."""
        within = [p for p, value in self.percentiles.items() if value <= microseconds]
        return max(within, default=90.0) / 100


def lua_latency_tail() -> str:
    """A `done` for wrk's script that prints the run's request count and its latency at every percentile from 90.00
    to 99.99 by hundredths, on one line, so rounds can be pooled (`pooled_percentile`). wrk 4.1's latency object
    answers percentiles only (indexing it does not give its histogram, and its 100th percentile is 0)."""
    return ("function done(summary, latency, requests)\n"
            "  local items = {}\n"
            "  for hundredths = 9000, 9999 do\n"
            "    local p = hundredths / 100\n"
            "    items[#items + 1] = string.format(\"%.2f:%d\", p, latency:percentile(p))\n"
            "  end\n"
            f'  io.write("{TAIL_LABEL} " .. summary.requests .. " " .. table.concat(items, " ") .. "\\n")\n'
            "end\n")


def pooled_percentile(tails: list["LatencyTail | None"], percentile: float) -> str:
    """The percentile, in ms, of all the requests of several runs together: the smallest latency any run printed at
    which the runs' shares within it, weighed by their requests, reach `percentile`. Empty when a run printed none.
    For the 99th of runs whose 90th percentiles lie below it, the shares are exact to a hundredth of a percent."""
    if not tails or any(tail is None or not tail.requests for tail in tails):
        return ""
    total = sum(tail.requests for tail in tails)
    for value in sorted({value for tail in tails for value in tail.percentiles.values()}):
        within = sum(tail.requests * tail.share_within(value) for tail in tails)
        if within >= percentile / 100 * total - 1e-9:
            return f"{value / 1000:.3f}"
    return ""


def lua_request(body: str, token: str) -> str:
    """wrk's script for the OFREP request: a POST with a JSON body and a bearer token."""
    return (f'wrk.method = "POST"\nwrk.body = \'{body}\'\nwrk.headers["Content-Type"] = "application/json"\n'
            f'wrk.headers["Authorization"] = "Bearer {token}"\n')


def _wrk(threads: int, connections: int, seconds: int, lua: str, url: str, latency: bool) -> list[str]:
    command = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s"]
    if latency:
        command.append("--latency")
    return command + ["-s", lua, url]


def _refuse_non_2xx(name: str, text: str, when: str) -> None:
    non_2xx = WrkOutput.parse(text).non_2xx
    if non_2xx and non_2xx != "0":
        show(text)
        raise BenchFailure(f"{name}: {non_2xx} answers were not 2xx{when}; no result reported")


def measure(session, duration: int, label: str, name: str, url: str, server_pid: int, lua: str, threads: int,
            connections: int) -> Measurement:
    """A 2 s warm-up, then wrk for `duration` seconds; prints the `LABEL NAME …` figures. Fails if any answer was
    not 2xx."""
    out = session.path(f"wrk-{name}.txt")
    warmup = subprocess.run(_wrk(threads, connections, 2, lua, url, latency=False), stdout=subprocess.PIPE, text=True)
    with open(out + ".warmup", "w") as file:
        file.write(warmup.stdout)
    _refuse_non_2xx(name, warmup.stdout, " in the warm-up")
    warmup_requests = WrkOutput.parse(warmup.stdout).requests

    server0 = procstat.process_ticks(server_pid)
    user0 = procstat.process_user_ticks(server_pid)
    window = procstat.Window()
    _, wrk_cpu = session.timed(_wrk(threads, connections, duration, lua, url, latency=True), out)
    busy = procstat.machine_busy_ticks()
    server = procstat.process_ticks(server_pid) - server0
    user = procstat.process_user_ticks(server_pid) - user0
    end_ns = time.time_ns()
    with open(out) as file:
        text = file.read()
    _refuse_non_2xx(name, text, "")
    report = WrkOutput.parse(text)
    if not report.requests_per_second:
        show(text)
        raise BenchFailure(f"{name}: wrk printed no Requests/sec")
    ticks = procstat.TICKS_PER_SECOND
    p99 = arithmetic.to_ms(report.p99)
    say(f"{label} {name} requests: {report.requests}")
    say(f"{label} {name} requests per second: {report.requests_per_second}")
    say(f"{label} {name} latency p50 ms: {arithmetic.to_ms(report.p50)}")
    say(f"{label} {name} latency p99 ms: {p99}")
    say(f"{label} {name} socket errors: {report.socket_errors or 'none'}")
    say(f"{label} {name} non-2xx answers: 0")
    say(f"{label} {name} server CPU seconds: {arithmetic.cpu_seconds(server, ticks)}")
    # CPU per request moves less than the rate when the machine is shared: a steadier comparison of the two servers.
    cpu_us = arithmetic.microseconds_per(server, ticks, report.requests)
    say(f"{label} {name} server CPU microseconds per request: {cpu_us}")
    user_us = arithmetic.microseconds_per(user, ticks, report.requests)
    say(f"{label} {name} server user-mode CPU microseconds per request (the rest is the kernel's): {user_us}")
    say(f"{label} {name} wrk CPU seconds (user system): {wrk_cpu}")
    own = server + arithmetic.process_cpu_ticks(wrk_cpu, ticks)
    say(f"{label} {name} CPU taken by other processes, percent: {window.others_percent(own, busy, end_ns)}")
    return Measurement(report.requests_per_second, arithmetic.to_ms(report.p50), p99, cpu_us, user_us, report.requests, warmup_requests,
                       report.tail)
