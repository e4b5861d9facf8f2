"""Part 12, how cost grows: bulk evaluation, snapshot rebuild and the criteria report at 1×, 10× and 100× (by
default) of the sizes the other parts measure, with the time factor of every step and whether it is linear or
better."""

import shutil
import time
from dataclasses import dataclass, field

from bench import arithmetic, procstat
from bench.context import FIXES, TARGETS, Context
from bench.report import BenchFailure, figure, say

# Part 5's criteria and summary workload at 1×: one fix in testing with 100,000 feedback records from 20 testers.
# Records grow with the scale, testers stay: the report's work grows with the records it reads, not with its
# length (one line per tester and per approval).
RECORDS = 100_000
TESTERS = 20
# Timed calls per endpoint and scale: the median of five, after one warm-up call.
HTTP_CALLS = 5


@dataclass(frozen=True)
class Cost:
    """One cost measured at every scale: its name, unit, and per scale the median and the runs."""
    name: str
    unit: str
    medians: dict[int, str] = field(default_factory=dict)
    runs: dict[int, list[str]] = field(default_factory=dict)


@dataclass(frozen=True)
class Step:
    """A step between two scales: the size factor, the time factor of the medians and the factor allowed."""
    smaller: int
    larger: int
    factor: str
    bound: str


def steps(cost: Cost, scales: list[int]) -> list[Step]:
    """Each step between consecutive scales: the medians' time factor, and the bound it must stay within to be linear
    or better (the size factor, widened by the runs' noise; arithmetic.growth_bound)."""
    result = []
    for smaller, larger in zip(scales, scales[1:]):
        result.append(Step(smaller, larger, arithmetic.growth_factor(cost.medians[smaller], cost.medians[larger]),
                           arithmetic.growth_bound(larger / smaller, cost.runs[smaller], cost.runs[larger])))
    return result


def runs_of(text: str, label: str) -> list[str]:
    """The space-separated runs of a `label: a b c` line."""
    return figure(text, label).split()


def how_cost_grows(context: Context) -> dict:
    session = context.session
    scales = context.settings.growth_scales
    costs = {name: Cost(name, unit) for name, unit in (
        ("Bulk evaluation of every flag for one context (in-process evaluateAll)", " ms"),
        ("Snapshot load from SQLite and build", " ms"),
        ("Snapshot swap after one change", " ms"),
        ("Criteria report of a fix (GET /v1/fixes/{key}/status)", " ms"),
        ("Feedback summary of a fix (GET /v1/fixes/{key}/feedback/summary)", " ms"),
    )}
    bulk, build, swap, criteria, summary = costs.values()
    peak_mib: dict[str, str] = {}
    started = time.monotonic()
    for scale in scales:
        fixes, targets, records = FIXES * scale, TARGETS * scale, RECORDS * scale
        say()
        context.quiet()
        say(f"== 12. How cost grows, {scale}×: {fixes} fixes, {targets} targeted keys; {records} feedback records "
            f"from {TESTERS} testers ==")
        say(f"Load average at the start of scale {scale}×: {' '.join(open('/proc/loadavg').read().split()[:3])}")
        state = session.path(f"growth-{scale}")
        populated = session.tee(context.bench("populate", "--state-dir", state, "--fixes", str(fixes), "--targets",
                                              str(targets)))
        peak_mib[f"populate {scale}×"] = figure(populated, "Populate peak RSS MiB")
        text = session.tee(context.bench("growth", "--state-dir", state, "--runs", "3"))
        if figure(text, "Growth fixes loaded") != str(fixes) or figure(text, "Growth targeted keys loaded") != str(targets):
            raise BenchFailure(f"scale {scale}×: the database holds {figure(text, 'Growth fixes loaded')} fixes and "
                               f"{figure(text, 'Growth targeted keys loaded')} targeted keys; expected {fixes} and "
                               f"{targets}")
        peak_mib[f"growth {scale}×"] = figure(text, "Growth peak RSS MiB")
        for cost, median_label, runs_label in (
                (bulk, "Growth bulk evaluation ms per call (median)", "Growth bulk evaluation runs ms per call"),
                (build, "Growth snapshot load from SQLite and build ms (median)",
                 "Growth snapshot load from SQLite and build runs ms"),
                (swap, "Growth snapshot swap ms (median)", "Growth snapshot swap runs ms")):
            cost.medians[scale] = figure(text, median_label)
            cost.runs[scale] = runs_of(text, runs_label)
        shutil.rmtree(state, ignore_errors=True)

        feedback_state = session.path(f"growth-feedback-{scale}")
        populated = session.tee(context.bench("populate-feedback", "--state-dir", feedback_state, "--records",
                                              str(records), "--testers", str(TESTERS)))
        peak_mib[f"populate-feedback {scale}×"] = figure(populated, "Feedback populate peak RSS MiB")
        fix = figure(populated, "Feedback populated fix")
        server = context.start_vouchd(f"growth-feedback-{scale}", state=feedback_state, wait_seconds=120)
        token = server.read_admin_token()
        for cost, label, path, expect in (
                (criteria, "Criteria report", f"/v1/fixes/{fix}/status", '"criteria"'),
                (summary, "Feedback summary", f"/v1/fixes/{fix}/feedback/summary", f'"records":{records}')):
            timing = session.tee(context.bench("http-timing", "--label", label, "--url", f"{server.url}{path}",
                                               "--token", token, "--calls", str(HTTP_CALLS), "--warm-up", "1",
                                               "--expect", expect))
            cost.medians[scale] = figure(timing, f"{label} ms (median)")
            # http-timing prints the fastest, the median and the slowest call: enough for the spread.
            cost.runs[scale] = [figure(timing, f"{label} ms (min)"), cost.medians[scale],
                                figure(timing, f"{label} ms (max)")]
        rss = procstat.rss_kib(server.pid)
        peak_mib[f"vouchd {scale}× (RSS after the calls)"] = arithmetic.mib(rss)
        say(f"vouchd RSS after the criteria and summary calls, {records} records, MiB: {arithmetic.mib(rss)}")
        session.stop(server.process)
        shutil.rmtree(feedback_state, ignore_errors=True)
    minutes = f"{(time.monotonic() - started) / 60:.1f}"

    say()
    say(f"== 12. How cost grows: medians at {', '.join(f'{s}×' for s in scales)} and the time factor of each step ==")
    for cost in costs.values():
        say(f"{cost.name}, ms at each scale: " + ", ".join(f"{s}× {cost.medians[s]}" for s in scales))
        for step in steps(cost, scales):
            say(f"{cost.name}, growth {step.smaller}× to {step.larger}×: time ×{step.factor} for size "
                f"×{step.larger // step.smaller if step.larger % step.smaller == 0 else step.larger / step.smaller} "
                f"(linear or better up to ×{step.bound}, noise allowed)")
    for name, value in peak_mib.items():
        say(f"Peak memory, {name}, MiB: {value}")
    say(f"Part 12 wall time, minutes: {minutes}")
    return {"costs": list(costs.values()), "scales": scales, "peak_mib": peak_mib, "minutes": minutes}


# Memory the part may take on the 24 GiB machines: half, so the other processes of a shared machine keep the rest.
MEMORY_BOUND_MIB = "12288"


def checks(context: Context, figures: dict) -> None:
    check = context.summary.check
    scales = figures["scales"]
    for cost in figures["costs"]:
        for step in steps(cost, scales):
            check(f"{cost.name}, time factor {step.smaller}× to {step.larger}× ({cost.medians[step.smaller]} to "
                  f"{cost.medians[step.larger]} ms; linear or better, noise allowed)", "<=", step.bound, step.factor,
                  "")
    largest = max(figures["peak_mib"].items(), key=lambda item: arithmetic.number(item[1]))
    check(f"Part 12 peak memory of one process ({largest[0]})", "<=", MEMORY_BOUND_MIB, largest[1], " MiB")
    say(f"Part 12 wall time: {figures['minutes']} minutes (no target; about ten expected at the default scales)")
