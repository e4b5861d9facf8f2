"""callgrind's dumps as part "instructions" reads them, on threads' profiles recorded from a real run (valgrind 3.19,
vouchd under `--separate-threads=yes`, 10,000 requests counted), trimmed to a few functions each; their `summary:`
lines are the real ones."""

import re

import pytest

from bench import arithmetic, instructions
from bench.callgrind import Call, ThreadProfile
from bench.instructions import InstructionCount
from bench.report import BenchFailure

MEMSET = re.compile("memset")


def test_the_libmicrohttpd_thread_that_served(sample):
    profile = ThreadProfile.parse(sample("callgrind-microhttpd-thread.txt"))
    assert (profile.thread, profile.instructions) == ("36", 515_863_431)
    assert profile.started_in() == ["libmicrohttpd.so.12.60.0"]
    # The pool's two memsets, 10,000 calls each from two functions libmicrohttpd's build leaves unnamed.
    assert [(call.caller, call.count, call.instructions) for call in profile.calls if MEMSET.search(call.callee)] == [
        ("0x0000000000013bb0", 10_000, 120_910_000), ("0x0000000000013ca0", 10_000, 245_920_000)]
    assert profile.calls_from("libmicrohttpd", MEMSET) == 366_830_000


def test_libmicrohttpds_idle_thread(sample):
    profile = ThreadProfile.parse(sample("callgrind-microhttpd-idle-thread.txt"))
    assert (profile.thread, profile.instructions, profile.started_in()) == ("35", 378, ["libmicrohttpd.so.12.60.0"])


def test_a_timer_thread(sample):
    # The connection reaper, a Foundation Thread: its start routine is in vouchd (Foundation linked statically).
    profile = ThreadProfile.parse(sample("callgrind-timer-thread.txt"))
    assert (profile.thread, profile.instructions, profile.started_in()) == ("37", 12_841_388, ["vouchd"])
    assert profile.calls_from("vouchd", re.compile("Semaphore.*wait")) == 19_680


def test_the_main_thread_was_started_by_no_one(sample):
    profile = ThreadProfile.parse(sample("callgrind-main-thread.txt"))
    assert (profile.thread, profile.instructions, profile.started_in()) == ("1", 0, [])


def test_compressed_names_and_the_target_of_one_call():
    text = "\n".join([
        "events: Ir", "summary: 90",
        "ob=(1) /lib/libmicrohttpd.so.12", "fn=(1) 0x10", "5 10",
        # cob/cfn name the next call's target only: the second call stays in the caller's object.
        "cob=(2) /lib/libc.so.6", "cfn=(2) memset", "calls=2 0", "5 40",
        "cfn=(3) 0x20", "calls=1 0", "+1 30",
        "fn=(3)", "0 30",
        "ob=(2)", "fn=(4) other", "cfn=(2)", "calls=1 0", "* 7",
    ])
    profile = ThreadProfile.parse(text)
    assert profile.instructions == 90
    assert profile.calls == [
        Call("/lib/libmicrohttpd.so.12", "0x10", "/lib/libc.so.6", "memset", 2, 40),
        Call("/lib/libmicrohttpd.so.12", "0x10", "/lib/libmicrohttpd.so.12", "0x20", 1, 30),
        Call("/lib/libc.so.6", "other", "/lib/libc.so.6", "memset", 1, 7),
    ]
    assert profile.calls_from("libmicrohttpd", MEMSET) == 40


def test_instructions_with_positions_of_two_kinds_and_more_events():
    text = "positions: instr line\nevents: Dr Ir\nsummary: 3 12\nfn=(1) f\ncfn=(2) g\ncalls=1 0x1 2\n0x5 2 4 11\n"
    profile = ThreadProfile.parse(text)
    assert profile.instructions == 12
    assert profile.calls[0].instructions == 11


def test_libmicrohttpds_threads_are_summed_and_its_pool_clearing_shown_apart(sample):
    profiles = [ThreadProfile.parse(sample(f"callgrind-{name}.txt"))
                for name in ("main-thread", "microhttpd-idle-thread", "microhttpd-thread", "timer-thread")]
    count = InstructionCount.of(profiles)
    assert count == InstructionCount(threads=["35", "36"], instructions=515_863_809, pool_clearing=366_830_000,
                                     other_instructions=12_841_388)
    assert count.lines(10_000) == [
        "OFREP instructions libmicrohttpd threads that ran, summed: 2 (callgrind's threads 35, 36)",
        "OFREP instructions per request, libmicrohttpd's pool clearing apart: 14903",
        "OFREP instructions per request, libmicrohttpd's pool clearing included: 51586",
        "OFREP instructions per request, libmicrohttpd's pool clearing alone: 36683",
        "OFREP instructions per request on the other threads (not summed; they run by wall time): 1284",
    ]


def test_instructions_per_request():
    assert arithmetic.per_request(515_863_809, 10_000) == "51586"
    assert arithmetic.per_request(149_033_809, 10_000) == "14903"
    assert arithmetic.per_request(14_999, 10_000) == "1"


def test_the_files_of_the_one_dump(tmp_path):
    out = str(tmp_path / "callgrind.out")
    for name in ("callgrind.out.1-35", "callgrind.out.1-2", "callgrind.out-35", "callgrind.out.cmd"):
        (tmp_path / name).write_text("")
    assert instructions.dumps(out) == [out + ".1-2", out + ".1-35"]
    (tmp_path / "callgrind.out.2-35").write_text("")
    with pytest.raises(BenchFailure) as refused:
        instructions.dumps(out)
    assert str(refused.value) == f"callgrind wrote 2 dumps, not 1, beside {out}; no result reported"
