"""What the bench prints: one `label: value` line per figure on standard output, errors as `Error: …` on standard
error, and the summary's `name: target … / measured … / met: yes|no` lines."""

import sys

from bench import arithmetic


class BenchFailure(Exception):
    """A measurement that cannot be reported (a non-2xx answer, a server that did not start): the run ends with it."""


def say(line: str = "") -> None:
    print(line, flush=True)


def figure(text: str, label: str) -> str:
    """The value of every `label: value` line of `text` (a `vouch-bench` part's output), one per line."""
    values = []
    for line in text.splitlines():
        fields = line.split(": ")
        if fields[0] == label:
            values.append(fields[1] if len(fields) > 1 else "")
    return "\n".join(values)


def error(message: str) -> None:
    print(f"Error: {message}", file=sys.stderr, flush=True)


def show(text: str) -> None:
    """Text a failing step printed, on standard error, for the person reading the failure."""
    sys.stderr.write(text if text.endswith("\n") or not text else text + "\n")
    sys.stderr.flush()


class Summary:
    """The summary block: each target's line, and how many were missed."""

    TITLE = "== Summary (target / measured / met) =="

    def __init__(self) -> None:
        self.missed = 0

    def check(self, name: str, operator: str, target: str, measured: str, unit: str) -> None:
        met = arithmetic.met(measured, operator, target)
        if not met:
            self.missed += 1
        say(f"{name}: target {operator} {target}{unit} / measured {measured}{unit} / met: {'yes' if met else 'no'}")

    def end(self, strict: bool) -> int:
        """Prints the count of missed targets; the exit status is 1 only when strict and a target was missed."""
        say(f"Targets missed: {self.missed}")
        return 1 if strict and self.missed > 0 else 0
