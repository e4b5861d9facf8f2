"""The arithmetic behind the printed figures, as plain functions of the values read, so tests can check it.

Figures are printed with a fixed number of decimals (rates of ratios with three, CPU with two); a value given as
text (wrk's `Requests/sec`, a `vouch-bench` figure) is printed as it came.
"""

import math


def number(text: str) -> float:
    """The leading number of `text`, as awk reads it: 0 when there is none."""
    text = text.strip()
    end = 0
    for end in range(len(text), 0, -1):
        try:
            return float(text[:end])
        except ValueError:
            continue
    return 0.0


def plain(value: float) -> str:
    """A computed number printed as awk prints one: whole numbers as integers, others with six significant digits."""
    if value == int(value) and abs(value) < 1e16:
        return str(int(value))
    return f"{value:.6g}"


def median(values: list[str]) -> str:
    """The median of figures given as text: the middle one as given, or the mean of the two middle ones."""
    ordered = sorted(values, key=number)
    count = len(ordered)
    if count == 0:
        return ""
    if count % 2:
        return ordered[count // 2]
    return plain((number(ordered[count // 2 - 1]) + number(ordered[count // 2])) / 2)


def ratio(numerator: str | float, denominator: str | float) -> str:
    """`numerator / denominator` with three decimals: the form of every ratio the bench prints."""
    return f"{_value(numerator) / _value(denominator):.3f}"


def cpu_seconds(ticks: int, ticks_per_second: int) -> str:
    return f"{ticks / ticks_per_second:.2f}"


def microseconds_per(ticks: int, ticks_per_second: int, count: str | int, decimals: int = 2) -> str:
    """CPU time in microseconds per request (or per delivery)."""
    return f"{ticks / ticks_per_second * 1e6 / _value(count):.{decimals}f}"


def seconds_between(start_ns: int, end_ns: int) -> str:
    return f"{(end_ns - start_ns) / 1e9:.3f}"


def process_cpu_ticks(user_system: str, ticks_per_second: int) -> int:
    """A child's CPU time given as `user system` seconds (the form `wrk CPU seconds` prints), in whole clock ticks."""
    user, system = (float(part) for part in user_system.split())
    return int(f"{(user + system) * ticks_per_second:.0f}")


def others_percent(busy_ticks: float, own_ticks: float, seconds: str | float, cpus: int, ticks_per_second: int) -> str:
    """Percent of the machine's CPUs used by other processes: all busy time minus the measured processes' own,
    over CPUs times wall time; never below 0."""
    value = 100 * (busy_ticks - own_ticks) / (ticks_per_second * cpus * _value(seconds))
    return f"{max(value, 0):.0f}"


def to_ms(latency: str) -> str:
    """wrk's latency (`812.00us`, `1.20ms`, `1.01s`) in milliseconds with three decimals; `nan` for anything else."""
    for suffix, scale in (("us", 1e-3), ("ms", 1.0), ("s", 1e3)):
        if latency.endswith(suffix):
            return f"{number(latency[: -len(suffix)]) * scale:.3f}"
    return "nan"


def mib(kib: str | int) -> str:
    return f"{_value(kib) / 1024:.1f}"


def mean_rounded(first: str, second: str) -> str:
    return f"{(number(first) + number(second)) / 2:.0f}"


def met(measured: str, operator: str, target: str) -> bool:
    """Whether a figure meets its target; a figure that is missing or `nan` never does."""
    if measured == "" or measured == "nan":
        return False
    value, bound = number(measured), number(target)
    if operator == ">=":
        return value >= bound
    if operator == "<":
        return value < bound
    return value <= bound


def _value(value: str | float | int) -> float:
    result = number(value) if isinstance(value, str) else float(value)
    if math.isnan(result):
        return 0.0
    return result


def per_request(total: int, requests: int) -> str:
    """A count (instructions) per request, to the whole number."""
    return f"{total / requests:.0f}"


def ratio_of_figures(numerator: str, denominator: str) -> str:
    """`ratio` of two printed figures, or `nan` when either is missing or `nan` or the denominator is 0 (a latency
    wrk did not report), so the check it feeds is not met rather than divided by zero."""
    if any(value in ("", "nan") for value in (numerator, denominator)) or number(denominator) == 0:
        return "nan"
    return ratio(numerator, denominator)


def spread(values: list[str]) -> float:
    """How far a scale's runs lie apart: (slowest − fastest) / median; 0 for fewer than two runs."""
    numbers = [number(value) for value in values]
    middle = number(median(values)) if values else 0.0
    if len(numbers) < 2 or middle == 0:
        return 0.0
    return (max(numbers) - min(numbers)) / middle


# The most of the runs' spread a growth check allows for noise: a step is still "linear or better" when the time grew
# by the size's factor times (1 + the larger spread of its two scales), but never by more than a quarter over it.
NOISE_CAP = 0.25


def growth_bound(size_factor: float, smaller_runs: list[str], larger_runs: list[str]) -> str:
    """The largest time factor a step of `size_factor` in size may show and still count as linear or better: the size
    factor, widened by the measurement's noise (the larger spread of the two scales' runs, at most NOISE_CAP)."""
    noise = min(NOISE_CAP, max(spread(smaller_runs), spread(larger_runs)))
    return f"{size_factor * (1 + noise):.2f}"


def growth_factor(smaller_median: str, larger_median: str) -> str:
    """The time factor between two scales' medians, with two decimals; `nan` when the smaller is 0 or missing."""
    if smaller_median in ("", "nan") or larger_median in ("", "nan") or number(smaller_median) == 0:
        return "nan"
    return f"{number(larger_median) / number(smaller_median):.2f}"
