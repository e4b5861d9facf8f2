"""Parts 2 to 4: in-process evaluation and snapshot rebuild (`vouch-bench inprocess`), JSON parsing, and vouchd's
resident memory with a large database."""

import time

from bench import arithmetic, procstat, vouchd
from bench.context import FIXES, TARGETS, Context
from bench.report import BenchFailure, figure, say


def in_process(context: Context) -> dict[str, str]:
    session = context.session
    say()
    context.quiet()
    say(f"== 2 and 3. In-process evaluation and snapshot rebuild ({FIXES} fixes, {TARGETS} targeted keys) ==")
    big = session.path("big")
    session.tee(context.bench("populate", "--state-dir", big, "--fixes", str(FIXES), "--targets", str(TARGETS)))
    window = procstat.Window()
    output = session.path("inprocess.txt")
    status, bench_cpu = session.timed(context.bench("inprocess", "--state-dir", big, "--fixes", str(FIXES), "--targets",
                                                    str(TARGETS), "--calls", str(context.settings.calls)), output)
    text = open(output).read()
    print(text, end="", flush=True)
    if status != 0:
        raise BenchFailure(f"vouch-bench inprocess exited with status {status}")
    own = arithmetic.process_cpu_ticks(bench_cpu, procstat.TICKS_PER_SECOND)
    say(f"In-process part CPU taken by other processes, percent: {window.others_percent(own)}")
    json_text = session.tee(context.bench("json", "--runs", "200"))
    return {
        "json_ms": figure(json_text, "JSON parse and look-up of every member, 64 KiB object, ms (median)"),
        "json_members": figure(json_text, "JSON object members"),
        "eval_ns": figure(text, "In-process evaluation ns per call (median)"),
        "build_memory_ms": figure(text, "Snapshot build from memory ms (median)"),
        "build_store_ms": figure(text, "Snapshot load from SQLite and build ms (median)"),
        "swap_ms": figure(text, "Snapshot swap replacing() ms (median of 51)"),
        "big_flag": figure(text, "Sample flag key"),
    }


def loaded_memory(context: Context, big_flag: str) -> str:
    """Part 4b: vouchd's resident memory on the populated database; its VmRSS in KiB."""
    say()
    say(f"== 4. vouchd resident memory with {FIXES} fixes and {TARGETS} targeted keys ==")
    server = context.start_vouchd("big")
    time.sleep(1)
    token = server.read_admin_token()
    rss = procstat.rss_kib(server.pid)
    say(f"vouchd RSS after start, loaded database, MiB: {arithmetic.mib(rss)}")
    say(f"vouchd RssAnon (private) after start, loaded database, MiB: {arithmetic.mib(procstat.anon_kib(server.pid))}")
    if big_flag:
        status, body = vouchd.request(server.port, "POST", f"/ofrep/v1/evaluate/flags/{big_flag}", token,
                                      vouchd.REQUEST_BODY)
        if status != 200:
            raise BenchFailure(f"the loaded vouchd answered {status} to an OFREP request")
        say(f"Loaded vouchd OFREP answer checked (200): {body.decode(errors='replace')}")
    context.session.stop(server.process)
    return rss
