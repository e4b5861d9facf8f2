"""The environment `scripts/bench` takes, read and checked once before anything runs.

BENCH_DURATION (wrk seconds per server, default 10), BENCH_CALLS (in-process calls, default 10000000),
BENCH_COMMIT_SECONDS (SQLite reference commit loop, default 5), BENCH_DELIVERIES (webhook deliveries, default 5000),
BENCH_STREAMS (event streams held, default 10000; more, such as 100000, for one round with vouchd's caps and the open
file limits raised), BENCH_STRICT=1 (exit 1 when a target is missed; by default only a
failed measurement exits non-zero), BENCH_SKIP_BUILD=1 (use the binaries already in .build/release), BENCH_PARTS=1
(only part 1, OFREP against nginx), BENCH_PARTS=5 (only part 5's feedback intake, BENCH_ROUNDS rounds each
alternating SQLite's reference and vouchd, with the medians), BENCH_PARTS=7 (only part 7, event streams),
BENCH_PARTS=8 (only part 8, the web console), BENCH_PARTS=9 (only part 9, several vouchd on PostgreSQL), BENCH_PARTS=9c (only part 9c, feedback intake on
PostgreSQL, on a cluster of its own),
BENCH_PARTS=11 (only part 11, the conformance report) or BENCH_PARTS=12 (only part 12, how cost grows, at the scales
BENCH_GROWTH_SCALES lists: whole numbers, ascending, separated by spaces, default "1 10 100"), BENCH_ROUNDS (part 1's
rounds alternating vouchd and nginx, and part 5's alone, default 3), BENCH_CHANGES (part 9's changes to converge, default 200),
BENCH_IDLE_WAIT (seconds to wait for a quiet machine before a part, default 30), BENCH_OFREP_SETTINGS (VOUCHD_*=value
settings, separated by spaces, for part 1's vouchd; default none, so the defaults), BENCH_INTAKE_SETTINGS (the same for
the vouchd of part 5's rounds when it runs alone, to compare settings; the targets are for the defaults).
BENCH_PARTS=instructions counts
instructions per OFREP request under callgrind instead (no target), on BENCH_INSTRUCTION_REQUESTS requests (default
10000), of .build/release/vouchd or of the vouchd that BENCH_VOUCHD names (another build, for before/after).
"""

import os
import re
from dataclasses import dataclass, field

from bench.report import BenchFailure

SETTING = re.compile(r"VOUCHD_[A-Z0-9_]+=\S*")


# The parts BENCH_PARTS may name to run alone, in the order the whole run takes them.
PARTS_ALONE = ("1", "5", "7", "8", "9", "9c", "11", "12")


@dataclass(frozen=True)
class Settings:
    duration: int = 10
    calls: int = 10_000_000
    commit_seconds: int = 5
    deliveries: int = 5000
    streams: int = 10_000
    strict: bool = False
    skip_build: bool = False
    parts: str = "all"
    rounds: int = 3
    changes: int = 200
    idle_wait: int = 30
    ofrep_settings: list[str] = field(default_factory=list)
    ofrep_settings_text: str = ""
    intake_settings: list[str] = field(default_factory=list)
    intake_settings_text: str = ""
    instruction_requests: int = 10_000
    vouchd: str = ""
    growth_scales: list[int] = field(default_factory=lambda: [1, 10, 100])

    @staticmethod
    def from_environment(environment: dict[str, str]) -> "Settings":
        def whole(name: str, default: int) -> int:
            text = environment.get(name, "") or str(default)
            if not re.fullmatch(r"[0-9]+", text):
                raise BenchFailure(f"{name} is '{text}'; allowed: a whole number")
            return int(text)

        parts = environment.get("BENCH_PARTS", "") or "all"
        if parts not in ("all", *PARTS_ALONE, "instructions"):
            alone = ", ".join(f"{part} (part {part} alone)" for part in PARTS_ALONE)
            raise BenchFailure(f"BENCH_PARTS is '{parts}'; allowed: {alone}, "
                               "instructions (instructions per OFREP request), or unset for every part")
        vouchd = environment.get("BENCH_VOUCHD", "")
        if vouchd and parts != "instructions":
            raise BenchFailure("BENCH_VOUCHD is for BENCH_PARTS=instructions; the other parts measure the vouchd they "
                               "build")
        if vouchd and not (os.path.isfile(vouchd) and os.access(vouchd, os.X_OK)):
            raise BenchFailure(f"BENCH_VOUCHD is '{vouchd}'; allowed: the path of an executable vouchd")
        def vouchd_settings(name: str) -> tuple[str, list[str]]:
            text = environment.get(name, "")
            items = text.split()
            for item in items:
                if not SETTING.fullmatch(item):
                    raise BenchFailure(f"{name} holds '{item}'; allowed: VOUCHD_NAME=value items separated by spaces")
            return text, items

        text, items = vouchd_settings("BENCH_OFREP_SETTINGS")
        intake_text, intake_items = vouchd_settings("BENCH_INTAKE_SETTINGS")
        instruction_requests = whole("BENCH_INSTRUCTION_REQUESTS", 10_000)
        if instruction_requests == 0:
            raise BenchFailure("BENCH_INSTRUCTION_REQUESTS is '0'; allowed: a whole number above 0")
        scales_text = environment.get("BENCH_GROWTH_SCALES", "") or "1 10 100"
        scales = scales_text.split()
        if (not all(re.fullmatch(r"[1-9][0-9]*", scale) for scale in scales)
                or [int(scale) for scale in scales] != sorted(set(int(scale) for scale in scales))):
            raise BenchFailure(f"BENCH_GROWTH_SCALES is '{scales_text}'; allowed: whole numbers above 0, ascending, "
                               "separated by spaces, such as '1 10 100'")
        return Settings(
            duration=whole("BENCH_DURATION", 10),
            calls=whole("BENCH_CALLS", 10_000_000),
            commit_seconds=whole("BENCH_COMMIT_SECONDS", 5),
            deliveries=whole("BENCH_DELIVERIES", 5000),
            streams=whole("BENCH_STREAMS", 10_000),
            strict=environment.get("BENCH_STRICT", "0") == "1",
            skip_build=environment.get("BENCH_SKIP_BUILD", "0") == "1",
            parts=parts,
            rounds=whole("BENCH_ROUNDS", 3),
            changes=whole("BENCH_CHANGES", 200),
            idle_wait=whole("BENCH_IDLE_WAIT", 30),
            ofrep_settings=items,
            ofrep_settings_text=text,
            intake_settings=intake_items,
            intake_settings_text=intake_text,
            instruction_requests=instruction_requests,
            vouchd=os.path.abspath(vouchd) if vouchd else "",
            growth_scales=[int(scale) for scale in scales],
        )
