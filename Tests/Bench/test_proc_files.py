"""/proc as the bench reads it, on files recorded from this kind of machine (Linux 6.18)."""

from bench import procstat


def test_busy_ticks_of_the_machine(sample):
    text = sample("proc-stat-cpu.txt")  # cpu  1344637 8649 167197 1127574 24695 0 6503 13488 0 0
    # user + nice + system + steal; and busy with interrupts, idle with iowait.
    assert procstat.machine_busy_ticks_of(text) == 1533971
    assert procstat.busy_and_idle_of(text) == (1540474, 1152269)


def test_busy_percent_over_an_interval():
    assert procstat.busy_percent((1000, 1000), (1150, 1050)) == 75
    assert procstat.busy_percent((1000, 1000), (1000, 1000)) == 0


def test_a_process_cpu_times(sample):
    # utime 117, stime 16, cutime 2598, cstime 154 (fields 14 to 17).
    assert procstat.stat_times(sample("proc-pid-stat.txt")) == (117, 16, 2598, 154)


def test_a_process_name_with_spaces_and_parentheses():
    line = "42 (nginx: a (b) c) S 1 42 42 0 -1 4194560 10 0 0 0 7 3 5 1 20 0 1 0 100 1000 10 18446744073709551615"
    assert procstat.stat_times(line) == (7, 3, 5, 1)


def test_resident_memory(sample):
    text = sample("proc-pid-status.txt")
    assert procstat.status_kib(text, "VmRSS") == "1644"
    assert procstat.status_kib(text, "RssAnon") == "116"
    assert procstat.status_kib(text, "NoSuchKey") == ""
