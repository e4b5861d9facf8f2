"""Part 6: webhook deliveries to a loopback nginx receiver, and the promotion delay after the last criterion."""

import os
import shutil
import time
from dataclasses import dataclass

from bench import arithmetic, nginx, procstat, vouchd
from bench.context import Context
from bench.report import BenchFailure, figure, say


@dataclass(frozen=True)
class ReceiverLog:
    """The receiver's access log lines for `POST /hook` (`$msec $connection $connection_requests $status …`)."""
    lines: list[str]

    @staticmethod
    def parse(text: str) -> "ReceiverLog":
        return ReceiverLog([line for line in text.splitlines() if line.endswith(" POST /hook")])

    @property
    def received(self) -> int:
        return len(self.lines)

    @property
    def answered_204(self) -> int:
        return sum(1 for line in self.lines if line.split()[3] == "204")

    @property
    def connections(self) -> list[str]:
        return [line.split()[1] for line in self.lines]

    @property
    def requests_per_connection(self) -> str:
        """How many requests each connection carried, most first."""
        counts: dict[str, int] = {}
        for connection in self.connections:
            counts[connection] = counts.get(connection, 0) + 1
        return " ".join(str(count) for count in sorted(counts.values(), reverse=True))

    @staticmethod
    def milliseconds(line: str) -> int:
        return int(f"{float(line.split()[0]) * 1000:.0f}")


def delivery_rates(deliveries: int, first_ms: int, last_ms: int, done_ms: int) -> tuple[str, str]:
    """Deliveries per second from the first arrival to all recorded succeeded, and at the receiver alone (first to
    last arrival)."""
    return (f"{deliveries / ((done_ms - first_ms) / 1000):.0f}",
            f"{(deliveries - 1) / ((last_ms - first_ms) / 1000):.0f}")


def _count_hooks(path: str) -> int:
    try:
        with open(path) as file:
            return ReceiverLog.parse(file.read()).received
    except OSError:
        return 0


def deliveries(context: Context) -> dict[str, str]:
    session = context.session
    count = context.settings.deliveries
    say()
    context.quiet()
    say(f"== 6. Webhook deliveries to a loopback receiver ({count} deliveries; nginx answering 204, keep-alive) ==")
    port = context.free_port()
    directory = session.path("hook")

    def answers() -> bool:
        try:
            return vouchd.request(port, "GET", "/probe", "")[0] == 404
        except OSError:
            return False

    receiver = nginx.start(session, directory, nginx.receiver_config(directory, port), answers,
                           "the receiver's nginx")
    state = session.path("webhooks")
    # The endpoint and the events go into the outbox of the stopped vouchd (the calls the API makes); on start all
    # are due.
    print(session.run(context.bench("enqueue-deliveries", "--state-dir", state, "--url",
                                    f"http://127.0.0.1:{port}/hook", "--events", str(count))), end="", flush=True)
    window = procstat.Window()
    server = context.start_vouchd("webhooks", ["VOUCHD_WEBHOOKS_ALLOW_PRIVATE_NETWORKS=true"], state=state)
    server.read_admin_token()
    access_log = os.path.join(directory, "access.log")
    waited = 0
    while _count_hooks(access_log) < count:
        time.sleep(0.02)
        waited += 1
        if waited >= 3000:
            raise BenchFailure(f"the receiver got {_count_hooks(access_log)} of {count} deliveries within 60 s")
    # Then until vouchd has recorded every attempt: no delivery left pending.
    while '"deliveries":[]' not in server.api("GET", "/v1/deliveries?status=pending&limit=1"):
        time.sleep(0.005)
    done_ns = time.time_ns()
    server_ticks = procstat.process_ticks(server.pid)
    busy = procstat.machine_busy_ticks()
    session.stop(server.process)
    status = session.tee(context.bench("delivery-status", "--state-dir", state))
    if f"Webhook deliveries by status: succeeded={count}" not in status.splitlines():
        raise BenchFailure("not every delivery succeeded; no result reported")
    log = ReceiverLog.parse(open(access_log).read())
    if log.received != count or log.answered_204 != count:
        raise BenchFailure(f"the receiver logged {log.received} deliveries ({log.answered_204} answered 204) for "
                           f"{count}; no result reported")
    connections_used = len(set(log.connections))
    first_ms = ReceiverLog.milliseconds(log.lines[0])
    last_ms = ReceiverLog.milliseconds(log.lines[-1])
    start_ms, done_ms = window.start_ns // 1_000_000, done_ns // 1_000_000
    rate, receiver_rate = delivery_rates(count, first_ms, last_ms, done_ms)
    ticks = procstat.TICKS_PER_SECOND
    say(f"Webhook receiver requests (POST /hook answered 204): {log.received}")
    say(f"Webhook receiver TCP connections used: {connections_used} (vouchd sends from 4 threads)")
    say(f"Webhook receiver requests per connection: {log.requests_per_connection}")
    say(f"Webhook vouchd start to first delivery ms: {first_ms - start_ms}")
    say(f"Webhook first to last delivery at the receiver ms: {last_ms - first_ms}")
    say(f"Webhook first delivery to all recorded succeeded ms: {done_ms - first_ms}")
    say(f"Webhook deliveries per second (first arrival to all recorded succeeded): {rate}")
    say(f"Webhook deliveries per second at the receiver (first to last arrival): {receiver_rate}")
    say("Webhook vouchd CPU microseconds per delivery (whole process life): "
        f"{arithmetic.microseconds_per(server_ticks, ticks, count, decimals=1)}")
    own = server_ticks + procstat.process_ticks(receiver.pid)
    say(f"Webhook part CPU taken by other processes, percent: {window.others_percent(own, busy, done_ns)}")
    session.stop(receiver)
    shutil.rmtree(state, ignore_errors=True)
    return {"delivery_rate": rate, "connections_used": str(connections_used)}


CRITERIA = ["VOUCHD_CRITERIA_MIN_TESTERS_PASSED=1", "VOUCHD_CRITERIA_REQUIRED_ASSISTIVE_TECH=ios:voiceover",
            "VOUCHD_WEBHOOKS_ALLOW_PRIVATE_NETWORKS=true"]


def promotion_delays(context: Context) -> tuple[str, str]:
    """The delay from the last criterion met to the first fix.promoted request, after an approval and after a soak;
    their medians in ms."""
    session = context.session
    say()
    say("== 6. Promotion delay: last criterion met → first fix.promoted request at a required receiver (10 fixes "
        "each) ==")
    server = context.start_vouchd("promotion-approval", CRITERIA + ["VOUCHD_CRITERIA_MIN_SOAK=0"])
    approval = session.tee(context.bench("promotion-delay", "--url", server.url, "--token", server.read_admin_token(),
                                         "--mode", "approval", "--repetitions", "10"))
    session.stop(server.process)
    server = context.start_vouchd("promotion-soak", CRITERIA + ["VOUCHD_CRITERIA_MIN_SOAK=2s"])
    soak = session.tee(context.bench("promotion-delay", "--url", server.url, "--token", server.read_admin_token(),
                                     "--mode", "soak", "--soak-seconds", "2", "--repetitions", "10"))
    session.stop(server.process)
    return (figure(approval, "Promotion delay after the approval ms (median)"),
            figure(soak, "Promotion delay after the soak ended ms (median)"))
