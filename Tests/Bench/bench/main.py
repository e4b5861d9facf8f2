"""`scripts/bench`: the tools checked, the release binaries built, then every part in order and the summary."""

import glob
import os
import platform
import shutil
import signal
import subprocess
import sys
import time

from bench import (arithmetic, evidence, feedback, growth, inprocess, instructions, mail, nginx, ofrep, postgres, procstat,
                   streams, vouchd, webhooks, wrk)
from bench.context import FIXES, TARGETS, Context
from bench.processes import Session
from bench.report import BenchFailure, Summary, error, say
from bench.settings import Settings


def install_tools(parts: str) -> None:
    missing = []
    if parts == "instructions":
        if not shutil.which("valgrind"):
            missing.append("valgrind")
    else:
        if not shutil.which("wrk"):
            missing.append("wrk")
        if not shutil.which("nginx") and not os.access("/usr/sbin/nginx", os.X_OK):
            missing.append("nginx-light")
    if missing:
        say(f"Installing: {' '.join(missing)}")
        sudo = [] if os.getuid() == 0 else ["sudo"]
        subprocess.run(sudo + ["apt-get", "update", "-qq"], check=True)
        subprocess.run(sudo + ["apt-get", "install", "-y", "-qq", *missing], check=True, stdout=subprocess.DEVNULL,
                       env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))


def setup_system(root: str, parts: str) -> None:
    # Part 9 needs PostgreSQL's server binaries, which setup-system installs with --test (without starting any
    # cluster).
    needed = parts != "instructions" and not glob.glob("/usr/lib/postgresql/*/bin/initdb")
    arguments = ["--test"] if needed else []
    subprocess.run([os.path.join(root, "scripts", "setup-system"), *arguments], check=True, stdout=subprocess.DEVNULL)


def build(root: str, products: tuple[str, ...]) -> None:
    log = os.path.join(os.environ.get("TMPDIR") or "/tmp", "vouch-bench-build.log")
    # Product by product: a whole-package release build also compiles the tests' support target (VouchTestSupport),
    # which imports Testing and stops with "no such module 'Testing'" here.
    for product in products:
        command = ["swift", "build", "-c", "release", "--static-swift-stdlib", "--product", product]
        say(f"Building: {' '.join(command)}")
        with open(log, "w") as file:
            result = subprocess.run(command, cwd=root, stdout=file, stderr=subprocess.STDOUT)
        lines = open(log).read().splitlines()
        if result.returncode != 0:
            sys.stderr.write("".join(line + "\n" for line in [line for line in lines if "error:" in line][:20]))
            raise BenchFailure(f"swift build -c release failed (log: {log})")
        if lines:
            say(lines[-1])


def first_line(command: list[str]) -> str:
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return (result.stdout.splitlines() or [""])[0]


def machine(parts: str) -> None:
    say("== Machine ==")
    say(f"Date: {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}")
    say(f"CPUs (nproc): {procstat.cpus()}")
    model = next((line.split(": ", 1)[1] for line in open("/proc/cpuinfo") if line.startswith("model name")), "")
    say(f"CPU model: {model.rstrip()}")
    total = next(int(line.split()[1]) for line in open("/proc/meminfo") if line.startswith("MemTotal:"))
    say(f"Memory total: {total / 1048576:.1f} GiB")
    say(f"Kernel: {platform.system()} {platform.release()}")
    say(f"Swift: {first_line(['swift', '--version'])}")
    if parts == "instructions":
        say(f"valgrind: {first_line(['valgrind', '--version'])}")
    else:
        say(f"wrk: {' '.join(first_line(['wrk', '-v']).split()[:2])}")
        say(f"nginx: {first_line([nginx.binary(), '-v']).replace('nginx version: ', '', 1)}")
    say(f"Load average at start: {' '.join(open('/proc/loadavg').read().split()[:3])}")


def console_checks(context: Context, pages: dict[str, str]) -> None:
    check = context.summary.check
    check(f"Console feedback page p99, 50 sessions at 20 pages/s each ({pages['paced_rate']} pages/s)", "<=", "5",
          pages["paced_p99"], " ms")
    say(f"Console feedback page p99, 50 sessions back to back: {pages['busy_p99']} ms at {pages['busy_rate']} pages/s "
        "(saturation; no target)")
    check("Console heaviest page (stylesheet apart)", "<=", "30", pages["heaviest_kb"], " KB")
    check(f"Console feedback page p99 in Japanese over English, same run, 25 sessions each ({pages['japanese_p99']} / "
          f"{pages['english_p99']} ms)", "<=", "1.5", pages["language_ratio"], "")


def run(context: Context) -> int:
    settings = context.settings
    machine(settings.parts)
    if settings.parts == "instructions":
        # No target: the count compares builds (BENCH_VOUCHD), which speed targets against nginx cannot.
        instructions.per_request(context)
        return 0
    # A part alone: what it measures, then its checks.
    alone = {"5": (feedback.intake_alone, feedback.alone_checks), "7": (streams.event_streams, streams.checks),
             "8": (streams.console, console_checks), "9": (postgres.several_vouchd, postgres.checks),
             "9c": (postgres.feedback_intake_alone, postgres.intake_checks),
             "11": (evidence.report_of_many, evidence.checks), "12": (growth.how_cost_grows, growth.checks)}
    if settings.parts in alone:
        measure, checks = alone[settings.parts]
        figures = measure(context)
        say()
        say(Summary.TITLE)
        checks(context, figures)
        return context.summary.end(settings.strict)

    # 4a. vouchd idle memory, then 1. OFREP over HTTP against nginx.
    say()
    say("== vouchd, empty database ==")
    server = context.start_vouchd("empty", settings.ofrep_settings)
    say(f"vouchd settings for part 1 (besides the defaults): {settings.ofrep_settings_text or 'none'}")
    time.sleep(1)
    idle_rss = procstat.rss_kib(server.pid)
    say(f"vouchd idle RSS after start, empty database, MiB: {arithmetic.mib(idle_rss)}")
    say("vouchd idle RssAnon (private) after start, empty database, MiB: "
        f"{arithmetic.mib(procstat.anon_kib(server.pid))}")
    server.read_admin_token()
    token, answer = server.prepare_ofrep("bench-sdk")
    lua = context.session.path("ofrep.lua")
    with open(lua, "w") as file:
        file.write(wrk.lua_request(vouchd.REQUEST_BODY, token) + wrk.lua_latency_tail())
    http = ofrep.against_nginx(context, server, token, answer, lua)
    if settings.parts == "1":
        context.session.stop(server.process)
        say()
        say(Summary.TITLE)
        ofrep.checks(context, http)
        return context.summary.end(settings.strict)
    bulk_small_ms, bulk_large_ms = ofrep.bulk_context(context, server, token)
    context.session.stop(server.process)

    memory = inprocess.in_process(context)
    big_rss = inprocess.loaded_memory(context, memory["big_flag"])
    intake = feedback.intake_on_sqlite(context)
    summary_ms, summary_max_ms = feedback.summary_of_many(context)
    hooks = webhooks.deliveries(context)
    approval_delay_ms, soak_delay_ms = webhooks.promotion_delays(context)
    held = streams.event_streams(context)
    pages = streams.console(context)
    mails = mail.mail_rate(context)
    several = postgres.several_vouchd(context)
    report = evidence.report_of_many(context)

    say()
    say(Summary.TITLE)
    check = context.summary.check
    ofrep.checks(context, http)
    check("In-process evaluation per call", "<=", "300", memory["eval_ns"], " ns")
    check("Snapshot build from rules in memory", "<=", "100", memory["build_memory_ms"], " ms")
    check("Snapshot load from SQLite and build", "<=", "100", memory["build_store_ms"], " ms")
    check("Snapshot swap after one change", "<=", "100", memory["swap_ms"], " ms")
    check("vouchd idle RSS, empty database", "<=", "30", arithmetic.mib(idle_rss), " MiB")
    say(f"vouchd RSS with {FIXES} fixes and {TARGETS} targeted keys: {arithmetic.mib(big_rss)} MiB (no target; "
        "for reference)")
    check(f"JSON parse and look-up of every member of a 64 KiB object ({memory['json_members']} members)", "<=", "2",
          memory["json_ms"], " ms")
    say(f"OFREP bulk evaluation with a 6,400-member context (median of 50): {bulk_large_ms} ms; with the targeting key "
        f"alone: {bulk_small_ms} ms (no target)")
    default, threads16 = intake["default"], intake["threads16"]
    check(f"Feedback intake vouchd/SQLite commits ({default.rps} feedback/s with http.threads default / "
          f"{intake['commit_rate']} commits/s)", ">=", "1.0", default.ratio, "")
    say(f"Feedback intake p99 latency, http.threads default: {default.p99} ms (no target)")
    say(f"Feedback intake with VOUCHD_HTTP_THREADS=16 (for information): {threads16.rps} feedback/s, ratio "
        f"{threads16.ratio}, p99 {threads16.p99} ms")
    check(f"Feedback summary with 100,000 records (median of 50 calls; max {summary_max_ms} ms)", "<=", "20",
          summary_ms, " ms")
    check(f"Webhook deliveries per second to a loopback receiver ({hooks['connections_used']} connections)", ">=",
          "1000", hooks["delivery_rate"], "/s")
    check("Promotion delay after the approval (median of 10)", "<=", "100", approval_delay_ms, " ms")
    check("Promotion delay after the soak ended (median of 10)", "<=", "100", soak_delay_ms, " ms")
    streams.checks(context, held)
    console_checks(context, pages)
    say(f"Notifications by email sent per second to a loopback SMTP server: {mails}/s ({mail.MAILS} mails; no target)")
    postgres.checks(context, several)
    evidence.checks(context, report)
    return context.summary.end(settings.strict)


def main() -> int:
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    os.chdir(root)
    # SIGTERM ends the run as Ctrl-C does: the processes it started are stopped on the way out.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        settings = Settings.from_environment(dict(os.environ))
        install_tools(settings.parts)
        setup_system(root, settings.parts)
        # Part "instructions" needs vouchd alone, and no build when BENCH_VOUCHD names the one to measure.
        products = ("vouchd",) if settings.parts == "instructions" else ("vouchd", "vouch-bench")
        if not settings.skip_build and not settings.vouchd:
            build(root, products)
    except BenchFailure as failure:
        error(str(failure))
        return 1
    context = Context(settings, Session(root))
    binaries = [context.vouchd_binary] + ([] if settings.parts == "instructions" else [context.bench_binary])
    if not all(os.access(binary, os.X_OK) for binary in binaries):
        context.session.cleanup()
        error("release binaries missing in .build/release")
        return 1
    try:
        return run(context)
    except BenchFailure as failure:
        error(str(failure))
        return 1
    finally:
        context.session.cleanup()
