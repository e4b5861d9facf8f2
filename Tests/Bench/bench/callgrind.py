"""One thread's profile as callgrind writes it with `--separate-threads=yes` (a file `OUT.PART-THREAD` per thread and
dump), read as far as the instructions part needs it: the thread's instruction count and every call arc, with the
objects and functions at both ends and the call's inclusive count.

The format is valgrind's "Callgrind Format Specification": names are compressed as `(id) name` the first time and
`(id)` afterwards, `cob=`/`cfi=`/`cfn=` name the target of the next `calls=` line only, and the cost line right
after `calls=` is the call's inclusive cost; every other cost line is the current function's own."""

import os
import re
from dataclasses import dataclass, field

NAME = re.compile(r"\((\d+)\)(?: (.*))?")
# The lines naming objects and functions, and the table of compressed names each shares.
NAMED = {"ob": "ob", "cob": "ob", "fn": "fn", "cfn": "fn"}
# Where every thread but the main one starts: glibc's `start_thread` calls the routine given to pthread_create, whose
# object tells whose thread it is.
THREAD_START = "start_thread"


@dataclass(frozen=True)
class Call:
    caller_object: str
    caller: str
    callee_object: str
    callee: str
    count: int
    instructions: int


@dataclass
class ThreadProfile:
    thread: str = ""
    # The thread's instructions since the counters were last zeroed: callgrind's `summary:` line (the same as the
    # inclusive count of the thread's first frame, calls still running at the dump included).
    instructions: int = 0
    calls: list[Call] = field(default_factory=list)

    def started_in(self) -> list[str]:
        """The objects (their file names) of what `start_thread` called on this thread: the routine it was started
        with, and glibc's own functions too when it began or ended after the counters were zeroed; empty for the
        main thread."""
        return [os.path.basename(call.callee_object) for call in self.calls if call.caller == THREAD_START]

    def calls_from(self, object_prefix: str, callee: re.Pattern) -> int:
        """Instructions in calls from any function of an object whose file name starts with `object_prefix` to a
        function whose name matches `callee`, callees' own calls included."""
        return sum(call.instructions for call in self.calls
                   if os.path.basename(call.caller_object).startswith(object_prefix) and callee.search(call.callee))

    @staticmethod
    def parse(text: str) -> "ThreadProfile":
        profile = ThreadProfile()
        names: dict[str, dict[str, str]] = {"ob": {}, "fn": {}}
        # The current object and function, and the next call's target (cob and cfn, None when not given).
        current: dict[str, str | None] = {"ob": "", "fn": "", "cob": None, "cfn": None}
        positions = 1
        event = 0
        pending_count: int | None = None

        for line in text.splitlines():
            if not line or line.startswith("#"):
                continue
            key, equals, value = line.partition("=")
            if equals and key in NAMED:
                found = NAME.fullmatch(value)
                table = names[NAMED[key]]
                if not found:
                    current[key] = value
                else:
                    identifier, defined = found.groups()
                    if defined is not None:
                        table[identifier] = defined
                    current[key] = table.get(identifier, "")
            elif equals and key == "calls":
                pending_count = int(value.split()[0])
            elif line[0].isdigit() or line[0] in "+-*":
                fields = line.split()
                if pending_count is not None:
                    cost = int(fields[positions + event]) if len(fields) > positions + event else 0
                    profile.calls.append(Call(current["ob"], current["fn"], current["cob"] or current["ob"],
                                              current["cfn"] or "", pending_count, cost))
                    pending_count = None
                    current["cob"] = current["cfn"] = None
            elif line.startswith("thread:"):
                profile.thread = line.split(":", 1)[1].strip()
            elif line.startswith("positions:"):
                positions = len(line.split()[1:])
            elif line.startswith("events:"):
                event = line.split()[1:].index("Ir")
            elif line.startswith("summary:"):
                profile.instructions = int(line.split()[1 + event])
        return profile
