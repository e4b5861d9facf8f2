"""The ratios, medians and shares the bench prints; expected values as the replaced shell script printed them."""

import pytest

from bench import arithmetic
from bench.report import Summary, figure


@pytest.mark.parametrize("values, middle", [
    (["98517.23", "116817.50", "87000.10"], "98517.23"),  # odd: the middle figure as given
    (["98517.23", "116817.50"], "107667"),  # even: the mean, with six significant digits
    (["3", "4"], "3.5"),
    (["1234567.5", "1234568.25"], "1.23457e+06"),
    (["7.89", "8.14", "7.40", "8.01"], "7.95"),
    (["0.5"], "0.5"),
    (["10.0", "9.5", "100"], "10.0"),  # ordered as numbers, not as text
])
def test_median_of_rounds(values, middle):
    assert arithmetic.median(values) == middle


def test_ratios_have_three_decimals():
    assert arithmetic.ratio("98517.23", "116817.50") == "0.843"
    assert arithmetic.ratio("8.32", "10.44") == "0.797"
    assert arithmetic.ratio("54271", 51287) == "1.058"


def test_cpu_per_request():
    # 268 ticks of 100 per second over 26,422 requests.
    assert arithmetic.microseconds_per(268, 100, "26422") == "101.43"
    assert arithmetic.microseconds_per(120, 100, 5000, decimals=1) == "240.0"
    assert arithmetic.cpu_seconds(268, 100) == "2.68"


def test_others_percent_is_the_rest_of_the_busy_time():
    # Two CPUs for 10 s at 100 ticks a second: 2,000 ticks; 1,500 busy, 1,000 of them the measured processes'.
    assert arithmetic.others_percent(1500, 1000, "10.000", 2, 100) == "25"
    assert arithmetic.others_percent(900, 1000, "10.000", 2, 100) == "0"


def test_a_childs_cpu_time_in_ticks():
    assert arithmetic.process_cpu_ticks("0.170 0.528", 100) == 70


def test_memory_in_mib():
    assert arithmetic.mib("40346") == "39.4"


@pytest.mark.parametrize("measured, operator, target, met", [
    ("0.973", ">=", "0.9", True), ("0.885", ">=", "0.9", False), ("0.9", ">=", "0.9", True),
    ("203.7", "<=", "300", True), ("300.1", "<=", "300", False),
    ("999.9", "<", "1000", True), ("1000", "<", "1000", False),
    ("", "<=", "5", False), ("nan", "<=", "5", False),
])
def test_a_target_is_met(measured, operator, target, met):
    assert arithmetic.met(measured, operator, target) is met


def test_summary_lines_and_missed_targets(capsys):
    summary = Summary()
    summary.check("OFREP p99 vouchd / nginx, same run", "<=", "1.1", "1.027", "")
    summary.check("Feedback intake vouchd/SQLite commits", ">=", "1.0", "0.704", "")
    assert summary.end(strict=False) == 0
    assert summary.end(strict=True) == 1
    assert capsys.readouterr().out.splitlines() == [
        "OFREP p99 vouchd / nginx, same run: target <= 1.1 / measured 1.027 / met: yes",
        "Feedback intake vouchd/SQLite commits: target >= 1.0 / measured 0.704 / met: no",
        "Targets missed: 1",
        "Targets missed: 1",
    ]


def test_figures_of_a_vouch_bench_part(sample):
    text = sample("vouch-bench-json.txt")
    assert figure(text, "JSON object members") == "8354"
    assert figure(text, "JSON parse and look-up of every member, 64 KiB object, ms (median)") == "201.866"
    assert figure(text, "JSON object") == ""
