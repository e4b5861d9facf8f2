"""Part "instructions": instructions per OFREP request, counted by callgrind on libmicrohttpd's threads. Unlike CPU
time, the count does not move with the other work on the machine, so it compares two builds to within a few
instructions per request."""

import glob
import http.client
import os
import re
from dataclasses import dataclass

from bench import arithmetic, vouchd
from bench.callgrind import ThreadProfile
from bench.context import Context
from bench.report import BenchFailure, say, show

WARM_UP_REQUESTS = 2000
MICROHTTPD = "libmicrohttpd"
# libmicrohttpd clears its connection memory with memset: the whole pool after every request (MHD_pool_reset) and,
# before each answer, what the read buffer gives back (MHD_pool_reallocate, from connection_shrink_read_buffer);
# 36 KiB a request with the 24 KiB pool of the default 16 KiB header limit. Debian's library keeps no names for its
# internal functions (the profile shows those two by address), so the clearing is found as every call from
# libmicrohttpd's code to memset; no other memset of libmicrohttpd's runs per request.
MEMSET = re.compile(r"memset")
# A dump of `--callgrind-out-file=OUT --separate-threads=yes` is OUT.PART-THREAD; the dump at exit OUT-THREAD.
DUMP = re.compile(r"\.([0-9]+)-([0-9]+)$")


@dataclass(frozen=True)
class InstructionCount:
    """The instructions of one dump, split between libmicrohttpd's threads and the others."""
    threads: list[str]
    instructions: int
    pool_clearing: int
    other_instructions: int

    @staticmethod
    def of(profiles: list[ThreadProfile]) -> "InstructionCount":
        """libmicrohttpd's threads are those started with a routine of libmicrohttpd's object (glibc's start_thread
        calls it). The others are the main thread and vouchd's timers (deadline reaper, delivery worker, promotion
        timer, …), which run by wall time, so under callgrind's slowdown they add one to several thousand instructions
        a request, as many as the run took seconds. Thread names from /proc would not do: callgrind numbers its
        threads itself, so they cannot be matched to its files."""
        served = [profile for profile in profiles if any(name.startswith(MICROHTTPD) for name in profile.started_in())]
        others = [profile for profile in profiles if profile not in served]
        return InstructionCount(
            threads=[profile.thread for profile in served],
            instructions=sum(profile.instructions for profile in served),
            pool_clearing=sum(profile.calls_from(MICROHTTPD, MEMSET) for profile in served),
            other_instructions=sum(profile.instructions for profile in others))

    def lines(self, requests: int) -> list[str]:
        """The part's `label: value` lines for `requests` requests counted."""
        return [
            # A thread that did not run since the counters were zeroed (an idle worker) has an empty profile.
            f"OFREP instructions libmicrohttpd threads that ran, summed: {len(self.threads)} (callgrind's threads "
            f"{', '.join(self.threads)})",
            "OFREP instructions per request, libmicrohttpd's pool clearing apart: "
            f"{arithmetic.per_request(self.instructions - self.pool_clearing, requests)}",
            "OFREP instructions per request, libmicrohttpd's pool clearing included: "
            f"{arithmetic.per_request(self.instructions, requests)}",
            "OFREP instructions per request, libmicrohttpd's pool clearing alone: "
            f"{arithmetic.per_request(self.pool_clearing, requests)}",
            "OFREP instructions per request on the other threads (not summed; they run by wall time): "
            f"{arithmetic.per_request(self.other_instructions, requests)}",
        ]


def send(connection: http.client.HTTPConnection, token: str, answer: bytes, count: int) -> None:
    """`count` OFREP single evaluations, part 1's request, one after another over one keep-alive connection, which
    stays open for the next call; each answer must be part 1's bytes."""
    path = f"/ofrep/v1/evaluate/flags/{vouchd.FLAG}"
    body = vouchd.REQUEST_BODY.encode()
    for _ in range(count):
        # The headers wrk sends in part 1 and no others (http.client would add Accept-Encoding): each header is work
        # for the server.
        connection.putrequest("POST", path, skip_accept_encoding=True)
        connection.putheader("Content-Type", "application/json")
        connection.putheader("Authorization", f"Bearer {token}")
        connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body)
        reply = connection.getresponse()
        text = reply.read()
        if reply.status != 200 or text != answer:
            raise BenchFailure(f"vouchd answered {reply.status} under callgrind, not the answer checked; no result "
                               "reported")
        if reply.will_close:
            raise BenchFailure("vouchd closed the keep-alive connection; no result reported")


def control(session, option: str, pid: int) -> None:
    """`callgrind_control -z` or `-d`, which asks valgrind through vgdb and waits for it. It exits 0 even when it
    found no such callgrind run or vgdb failed, and prints `OK.` only after valgrind answered."""
    printed = session.run(["callgrind_control", option, str(pid)])
    if "OK." not in printed.split():
        show(printed)
        raise BenchFailure(f"callgrind_control {option} did not reach valgrind; no result reported")


def dumps(out: str) -> list[str]:
    """The files of the one dump `callgrind_control -d` asked for: one per thread."""
    found = {}
    for path in glob.glob(out + ".*-*"):
        match = DUMP.search(path)
        if match:
            found.setdefault(match.group(1), []).append(path)
    if len(found) != 1:
        raise BenchFailure(f"callgrind wrote {len(found)} dumps, not 1, beside {out}; no result reported")
    return sorted(next(iter(found.values())))


def per_request(context: Context) -> None:
    session = context.session
    requests = context.settings.instruction_requests
    say()
    say(f"== OFREP instructions per request (callgrind; {WARM_UP_REQUESTS} requests, counters zeroed, {requests} "
        "counted, over one keep-alive connection) ==")
    say(f"OFREP instructions vouchd measured: {context.vouchd_binary}")
    # The fix and the token are made by the same binary without valgrind (quicker), then that vouchd is stopped and
    # the state directory served again under callgrind.
    server = context.start_vouchd("instructions")
    server.read_admin_token()
    token, answer = server.prepare_ofrep("bench-sdk")
    session.stop(server.process)
    out = session.path("callgrind", "callgrind.out")
    os.makedirs(os.path.dirname(out))
    wrapper = ["valgrind", "--tool=callgrind", "--separate-threads=yes", f"--callgrind-out-file={out}"]
    server = context.start_vouchd("instructions-callgrind", state=server.state, wrapper=wrapper, wait_seconds=300)
    connection = http.client.HTTPConnection("127.0.0.1", int(server.port), timeout=300)
    try:
        send(connection, token, answer, WARM_UP_REQUESTS)
        control(session, "-z", server.pid)
        send(connection, token, answer, requests)
        control(session, "-d", server.pid)
    finally:
        connection.close()
    profiles = []
    for path in dumps(out):
        with open(path) as file:
            profiles.append(ThreadProfile.parse(file.read()))
    session.stop(server.process)
    count = InstructionCount.of(profiles)
    if not count.threads:
        raise BenchFailure("no thread of the dump was started by libmicrohttpd; no result reported")
    say(f"OFREP instructions requests counted: {requests}")
    for line in count.lines(requests):
        say(line)
