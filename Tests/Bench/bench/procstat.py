"""CPU time and memory read from /proc: the machine's busy time, a process's with its children, resident memory.

Each reader has a parse function of the file's text, so tests can check it on recorded samples."""

import glob
import os
import time

from bench import arithmetic

TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK")


def cpus() -> int:
    """The CPUs this process may run on, as `nproc` counts them."""
    return len(os.sched_getaffinity(0))


def _read(path: str) -> str:
    with open(path) as file:
        return file.read()


def cpu_fields(proc_stat: str) -> list[int]:
    """The aggregate `cpu` line of /proc/stat: user, nice, system, idle, iowait, irq, softirq, steal, …"""
    for line in proc_stat.splitlines():
        if line.startswith("cpu "):
            return [int(value) for value in line.split()[1:]]
    raise ValueError("no cpu line in /proc/stat")


def machine_busy_ticks_of(proc_stat: str) -> int:
    """user + nice + system + steal (a hypervisor's other guests); interrupt time is left out, as it is charged to no
    process."""
    fields = cpu_fields(proc_stat)
    return fields[0] + fields[1] + fields[2] + fields[7]


def busy_and_idle_of(proc_stat: str) -> tuple[int, int]:
    """All busy time (interrupts included) and idle time (idle + iowait), for the share of the CPUs in use."""
    fields = cpu_fields(proc_stat)
    return fields[0] + fields[1] + fields[2] + fields[5] + fields[6] + fields[7], fields[3] + fields[4]


def machine_busy_ticks() -> int:
    return machine_busy_ticks_of(_read("/proc/stat"))


def busy_percent(before: tuple[int, int], after: tuple[int, int]) -> int:
    busy = after[0] - before[0]
    idle = after[1] - before[1]
    total = busy + idle
    if total <= 0:
        total = 1
    return int(f"{100 * busy / total:.0f}")


def cpu_busy() -> int:
    """Share of all CPUs busy over one second, in percent: a check that the machine is quiet."""
    before = busy_and_idle_of(_read("/proc/stat"))
    time.sleep(1)
    return busy_percent(before, busy_and_idle_of(_read("/proc/stat")))


def stat_times(pid_stat: str) -> tuple[int, int, int, int]:
    """utime, stime, cutime and cstime of a /proc/PID/stat line (fields 14 to 17; the name in parentheses may hold
    spaces, so fields are counted after its closing parenthesis)."""
    fields = pid_stat[pid_stat.rindex(")") + 2:].split()
    return int(fields[11]), int(fields[12]), int(fields[13]), int(fields[14])


def _family(pid: int) -> list[int]:
    """The process and its children (nginx's workers are children of its master, PostgreSQL's backends of the
    postmaster)."""
    pids = [pid]
    for path in glob.glob(f"/proc/{pid}/task/*/children"):
        try:
            pids += [int(child) for child in _read(path).split()]
        except OSError:
            pass
    return pids


def _sum_times(pid: int, pick) -> int:
    total = 0
    for member in _family(pid):
        try:
            total += pick(stat_times(_read(f"/proc/{member}/stat")))
        except (OSError, ValueError, IndexError):
            pass
    return total


def process_ticks(pid: int) -> int:
    """utime + stime, and the children that ended (cutime, cstime): PostgreSQL's backends end with their sessions,
    its autovacuum workers after each round, and their time then moves to the postmaster's cutime."""
    return _sum_times(pid, lambda times: sum(times))


def process_user_ticks(pid: int) -> int:
    """The user-mode part (utime + cutime): what the server's own code costs, apart from the kernel's work for its
    sockets, which is most of a small request's CPU and moves most with the host's load."""
    return _sum_times(pid, lambda times: times[0] + times[2])


def processes_ticks(pids: list[int]) -> int:
    return sum(process_ticks(pid) for pid in pids)


class Window:
    """The machine's busy time and the wall clock from a moment on: for the share of the CPUs that processes other
    than the measured ones took meanwhile."""

    def __init__(self) -> None:
        self.busy_ticks = machine_busy_ticks()
        self.start_ns = time.time_ns()

    def others_percent(self, own_ticks: int, busy_ticks: int | None = None, end_ns: int | None = None) -> str:
        """Percent of all CPUs busy with other processes since the start (up to `end_ns`, when busy time read
        `busy_ticks`; by default now), the measured processes having used `own_ticks`."""
        busy = (machine_busy_ticks() if busy_ticks is None else busy_ticks) - self.busy_ticks
        seconds = arithmetic.seconds_between(self.start_ns, time.time_ns() if end_ns is None else end_ns)
        return arithmetic.others_percent(busy, own_ticks, seconds, cpus(), TICKS_PER_SECOND)


def status_kib(pid_status: str, key: str) -> str:
    """A `/proc/PID/status` figure in KiB (`VmRSS`, `RssAnon`), as text."""
    for line in pid_status.splitlines():
        if line.startswith(key + ":"):
            return line.split()[1]
    return ""


def rss_kib(pid: int) -> str:
    return status_kib(_read(f"/proc/{pid}/status"), "VmRSS")


def anon_kib(pid: int) -> str:
    """Private memory (RssAnon): VmRSS less the pages of mapped files, mostly shared libraries' code."""
    return status_kib(_read(f"/proc/{pid}/status"), "RssAnon")
