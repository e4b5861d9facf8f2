"""Part 9: several vouchd on PostgreSQL, in one throwaway cluster in the scratch directory with one database per
measurement: OFREP on PostgreSQL against SQLite, a change converging over three nodes, feedback intake against
PostgreSQL's own commit rate."""

import os
import subprocess

from bench import arithmetic, feedback, procstat, vouchd, wrk
from bench.context import CONNECTIONS, THREADS, Context
from bench.report import BenchFailure, figure, say, show


def database_url(server_url: str, name: str) -> str:
    """The libpq URL of database `name` in the cluster whose `postgres` database is at `server_url`."""
    return server_url.replace(":///postgres?", f":///{name}?", 1)


def _psql(url: str, *arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run(["psql", "-X", *arguments, url], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


class Cluster:
    """A throwaway PostgreSQL cluster in the scratch directory, one database per measurement."""

    def __init__(self, context: Context):
        session = context.session
        self.session = session
        # As root the server runs as nobody (scripts/postgres-cluster), which must be able to reach its directory.
        os.chmod(session.tmp, os.stat(session.tmp).st_mode | 0o001)
        self.directory = session.path("pg")
        session.postgres_dir = self.directory
        started = session.scripts("postgres-cluster", "start", self.directory)
        if started.returncode != 0:
            show(started.stdout)
            raise BenchFailure("scripts/postgres-cluster could not start PostgreSQL")
        self.url = session.scripts("postgres-cluster", "url", self.directory).stdout.strip()
        with open(os.path.join(self.directory, "data", "postmaster.pid")) as file:
            self.pid = int(file.readline())
        say(f"PostgreSQL: {self.show_setting('server_version')} (synchronous_commit "
            f"{self.show_setting('synchronous_commit')}, fsync {self.show_setting('fsync')}, Unix socket)")

    def show_setting(self, name: str) -> str:
        return _psql(self.url, "-At", "-c", f"SHOW {name}").stdout.strip()

    def new_database(self, name: str) -> str:
        if _psql(self.url, "-q", "-v", "ON_ERROR_STOP=1", "-c", f"CREATE DATABASE {name}").returncode != 0:
            raise BenchFailure(f"could not create the database {name} in {self.directory}")
        return database_url(self.url, name)

    def stop(self) -> None:
        self.session.scripts("postgres-cluster", "stop", self.directory)
        self.session.postgres_dir = ""


def several_vouchd(context: Context) -> dict:
    session = context.session
    duration = context.settings.duration
    changes = context.settings.changes
    say()
    context.quiet()
    say("== 9. Several vouchd on PostgreSQL (one throwaway cluster in the scratch directory, one database per "
        "measurement) ==")
    cluster = Cluster(context)
    new_database = cluster.new_database
    postgres_pid = cluster.pid

    say()
    say(f"-- 9a. OFREP rate of a vouchd on PostgreSQL / the same on SQLite (wrk as in part 1, alternating, 3 runs of "
        f"{duration} s each)")
    servers = {}
    answers = {}
    for store in ("sqlite", "postgres"):
        settings = [f"VOUCHD_DATABASE_URL={new_database('ofrep')}"] if store == "postgres" else []
        server = context.start_vouchd(f"ofrep-{store}", settings)
        server.read_admin_token()
        token, answer = server.prepare_ofrep(f"bench-sdk-{store}")
        with open(session.path(f"ofrep-{store}.lua"), "w") as file:
            file.write(wrk.lua_request(vouchd.REQUEST_BODY, token))
        say(f"OFREP answer of vouchd on {store} checked (200): {answer.decode(errors='replace')}")
        servers[store] = server
        answers[store] = answer
    if answers["sqlite"] != answers["postgres"]:
        raise BenchFailure("the two vouchd answered different bytes")
    runs: dict[str, list[wrk.Measurement]] = {"sqlite": [], "postgres": []}
    for round_number in (1, 2, 3):
        for store in ("sqlite", "postgres"):
            server = servers[store]
            runs[store].append(wrk.measure(session, duration, "OFREP HTTP", f"{store}{round_number}",
                                           f"{server.url}/ofrep/v1/evaluate/flags/{vouchd.FLAG}", server.pid,
                                           session.path(f"ofrep-{store}.lua"), THREADS, CONNECTIONS))
    for server in servers.values():
        session.stop(server.process)
    rates = {store: [m.rps for m in runs[store]] for store in runs}
    cpu = {store: [m.cpu_us for m in runs[store]] for store in runs}
    sqlite_rps, postgres_rps = arithmetic.median(rates["sqlite"]), arithmetic.median(rates["postgres"])
    sqlite_cpu, postgres_cpu = arithmetic.median(cpu["sqlite"]), arithmetic.median(cpu["postgres"])
    store_ratio = arithmetic.ratio(postgres_rps, sqlite_rps)
    store_cpu_ratio = arithmetic.ratio(sqlite_cpu, postgres_cpu)
    say(f"OFREP on SQLite requests per second, runs and median: {' '.join(rates['sqlite'])}, {sqlite_rps}")
    say(f"OFREP on PostgreSQL requests per second, runs and median: {' '.join(rates['postgres'])}, {postgres_rps}")
    say(f"OFREP rate ratio PostgreSQL/SQLite (medians): {store_ratio}")
    say(f"OFREP server CPU microseconds per request, SQLite runs and median: {' '.join(cpu['sqlite'])}, {sqlite_cpu}")
    say("OFREP server CPU microseconds per request, PostgreSQL runs and median: "
        f"{' '.join(cpu['postgres'])}, {postgres_cpu}")
    say(f"OFREP CPU per request ratio SQLite/PostgreSQL (medians): {store_cpu_ratio}")

    say()
    say(f"-- 9b. A change through node A to nodes B and C: three vouchd on one database, {changes} changes")
    database = new_database("convergence")
    nodes = [context.start_vouchd(f"convergence-{node}", [f"VOUCHD_DATABASE_URL={database}"]) for node in "abc"]
    # Node A started first on the empty database, so it made the admin token.
    token_path = session.path("convergence-a", "admin.token")
    if not os.path.exists(token_path) or os.path.getsize(token_path) == 0:
        raise BenchFailure("node A wrote no admin.token on the empty database")
    ticks = procstat.TICKS_PER_SECOND
    pids = [node.pid for node in nodes] + [postgres_pid]
    own0 = procstat.processes_ticks(pids)
    window = procstat.Window()
    output = session.path("convergence.txt")
    status, bench_cpu = session.timed(context.bench("convergence", "--urls", ",".join(node.url for node in nodes),
                                                    "--admin-token", nodes[0].read_admin_token(), "--changes",
                                                    str(changes)), output)
    text = open(output).read()
    if status != 0:
        show(text)
        show(bench_cpu)
        raise BenchFailure("the convergence measurement failed; no result reported")
    print(text, end="", flush=True)
    own = procstat.processes_ticks(pids) - own0 + arithmetic.process_cpu_ticks(bench_cpu, ticks)
    say(f"Convergence CPU taken by other processes, percent: {window.others_percent(own)}")
    for node in nodes:
        session.stop(node.process)

    intake = feedback_intake(context, cluster)
    cluster.stop()
    return {
        "sqlite_rps": sqlite_rps, "postgres_rps": postgres_rps, "sqlite_cpu": sqlite_cpu,
        "postgres_cpu": postgres_cpu, "store_ratio": store_ratio, "store_cpu_ratio": store_cpu_ratio,
        "convergence_p50": figure(text, "Convergence ms p50"), "convergence_p99": figure(text, "Convergence ms p99"),
        "convergence_max": figure(text, "Convergence ms max"), **intake,
    }


def feedback_intake(context: Context, cluster: Cluster) -> dict:
    """Part 9c: the commit rate of one connection committing one row at a time, then 16 clients sending feedback to
    one vouchd on the same cluster."""
    ticks = procstat.TICKS_PER_SECOND
    say()
    context.quiet()
    say("-- 9c. Feedback intake on PostgreSQL (wrk as in part 5) against PostgreSQL's single-connection commit rate")
    postgres_ticks = procstat.process_ticks(cluster.pid)
    reference = context.session.tee(context.bench("commit-rate", "--database-url", cluster.new_database("commit_rate"),
                                                  "--seconds", str(context.settings.commit_seconds)))
    say("PostgreSQL reference server CPU seconds: "
        f"{arithmetic.cpu_seconds(procstat.process_ticks(cluster.pid) - postgres_ticks, ticks)}")
    commit_rate = figure(reference, "PostgreSQL reference commits per second")
    if not commit_rate:
        raise BenchFailure("the PostgreSQL reference printed no commit rate")
    postgres_ticks = procstat.process_ticks(cluster.pid)
    intake = feedback.run_intake(context, "postgres", commit_rate, "PostgreSQL's single-connection commit rate",
                                 [f"VOUCHD_DATABASE_URL={cluster.new_database('intake')}"])
    say("Feedback intake postgres PostgreSQL server CPU seconds (set-up, warm-up and run): "
        f"{arithmetic.cpu_seconds(procstat.process_ticks(cluster.pid) - postgres_ticks, ticks)}")
    return {"commit_rate": commit_rate, "intake": intake}


def feedback_intake_alone(context: Context) -> dict:
    """BENCH_PARTS=9c: part 9c on a cluster of its own, without 9a and 9b."""
    say()
    say("== 9c alone. Feedback intake on PostgreSQL (one throwaway cluster in the scratch directory) ==")
    cluster = Cluster(context)
    try:
        return feedback_intake(context, cluster)
    finally:
        cluster.stop()


def checks(context: Context, figures: dict) -> None:
    summary = context.summary
    changes = context.settings.changes
    summary.check(f"OFREP rate of vouchd on PostgreSQL / on SQLite, medians of 3 alternating runs "
                  f"({figures['postgres_rps']} / {figures['sqlite_rps']} requests/s)", ">=", "0.95",
                  figures["store_ratio"], "")
    say(f"OFREP server CPU per request on SQLite / on PostgreSQL, medians of 3: {figures['sqlite_cpu']} / "
        f"{figures['postgres_cpu']} µs = {figures['store_cpu_ratio']} (no target)")
    summary.check(f"A change through node A answered by nodes B and C, p99 of {changes} (p50 "
                  f"{figures['convergence_p50']} ms, max {figures['convergence_max']} ms)", "<", "1000",
                  figures["convergence_p99"], " ms")
    intake_checks(context, figures)


def intake_checks(context: Context, figures: dict) -> None:
    intake = figures["intake"]
    context.summary.check(f"Feedback intake on PostgreSQL / PostgreSQL's single-connection commits ({intake.rps} "
                          f"feedback/s / {figures['commit_rate']} commits/s)", ">=", "1.0", intake.ratio, "")
    say(f"Feedback intake on PostgreSQL p99 latency: {intake.p99} ms (no target)")
