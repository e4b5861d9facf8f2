"""What every part shares: the settings, the session's processes and scratch files, the binaries, the summary, and
the wait for a quiet machine."""

import os

from bench import procstat, vouchd
from bench.processes import Session
from bench.report import Summary, say
from bench.settings import Settings

# wrk's load for the HTTP parts: one thread per core of the two-core machines measured, 64 connections; 16 for
# feedback intake, as the 16 clients of its target.
THREADS = 2
CONNECTIONS = 64
INTAKE_CONNECTIONS = 16
FIXES = 10_000
TARGETS = 100_000


class Context:
    def __init__(self, settings: Settings, session: Session) -> None:
        self.settings = settings
        self.session = session
        self.summary = Summary()
        release = os.path.join(session.root, ".build", "release")
        # BENCH_VOUCHD (part "instructions" alone) measures another build.
        self.vouchd_binary = settings.vouchd or os.path.join(release, "vouchd")
        self.bench_binary = os.path.join(release, "vouch-bench")
        self.figures: dict[str, str] = {}

    def bench(self, *arguments: str) -> list[str]:
        """A `vouch-bench` command line."""
        return [self.bench_binary, *arguments]

    def free_port(self) -> str:
        return self.session.run(self.bench("free-port")).strip()

    def start_vouchd(self, name: str, settings: list[str] = (), state: str | None = None, wrapper: list[str] = (),
                     wait_seconds: int = 15) -> vouchd.Vouchd:
        """vouchd on the scratch directory `name` (or `state`), made if missing, with its log beside it; run by
        `wrapper` (valgrind) when one is given."""
        state = state or self.session.path(name)
        os.makedirs(state, exist_ok=True)
        return vouchd.start(self.session, self.vouchd_binary, state, self.session.path(f"vouchd-{name}.log"), settings,
                            wrapper, wait_seconds)

    def quiet(self) -> None:
        """Waits (up to BENCH_IDLE_WAIT seconds) for other processes to leave the CPUs alone, then says how busy they
        were."""
        busy = procstat.cpu_busy()
        waited = 0
        while busy > 10 and waited < self.settings.idle_wait:
            busy = procstat.cpu_busy()
            waited += 1
        say(f"CPU busy before this part (other processes), percent: {busy}")
        if busy > 10:
            say("Warning: the machine is busy; the figures below are pessimistic")
