"""wrk's report as the bench reads it, on real wrk 4.1.0 output recorded against nginx. The expected values are what
the shell script this program replaced read from the same files."""

import pytest

from bench import arithmetic
from bench.wrk import LatencyTail, WrkOutput, lua_request, pooled_percentile


@pytest.mark.parametrize("name, requests, rate, p50_ms, p99_ms, errors, non_2xx", [
    ("wrk-milliseconds.txt", "82017", "38915.80", "1.030", "27.700", "", ""),
    ("wrk-microseconds.txt", "15908", "15793.17", "0.030", "7.200", "", ""),
    ("wrk-non2xx.txt", "15675", "7690.64", "8.000", "19.980", "", "15675"),
    ("wrk-socket-errors.txt", "8288", "3939.33", "39.660", "169.870", "connect 0, read 11609, write 0, timeout 0", ""),
])
def test_a_report_gives_its_figures(sample, name, requests, rate, p50_ms, p99_ms, errors, non_2xx):
    report = WrkOutput.parse(sample(name))
    assert report.requests == requests
    assert report.requests_per_second == rate
    assert arithmetic.to_ms(report.p50) == p50_ms
    assert arithmetic.to_ms(report.p99) == p99_ms
    assert report.socket_errors == errors
    assert report.non_2xx == non_2xx


def test_a_warm_up_without_latency_has_no_percentiles(sample):
    report = WrkOutput.parse(sample("wrk-warmup.txt"))
    assert report.requests == "12159"
    assert report.requests_per_second == "11744.94"
    assert (report.p50, report.p99) == ("", "")
    assert arithmetic.to_ms(report.p99) == "nan"


def test_no_report_gives_empty_figures():
    assert WrkOutput.parse("unable to connect to 127.0.0.1:1 Connection refused\n") == WrkOutput("", "", "", "", "", "", None)


@pytest.mark.parametrize("latency, milliseconds", [
    ("812.00us", "0.812"), ("1.20ms", "1.200"), ("1.01s", "1010.000"), ("2.00m", "nan"), ("", "nan"),
])
def test_latencies_in_milliseconds(latency, milliseconds):
    assert arithmetic.to_ms(latency) == milliseconds


def test_the_ofrep_request_script():
    assert lua_request('{"context":{"targetingKey":"user-1"}}', "SECRET") == (
        'wrk.method = "POST"\n'
        "wrk.body = '{\"context\":{\"targetingKey\":\"user-1\"}}'\n"
        'wrk.headers["Content-Type"] = "application/json"\n'
        'wrk.headers["Authorization"] = "Bearer SECRET"\n')


def test_a_latency_tail_is_read_with_its_request_count(sample):
    report = WrkOutput.parse(sample("wrk-latency-tail-1.txt"))
    assert report.tail is not None
    assert report.tail.requests == 936
    assert len(report.tail.percentiles) == 1000
    assert min(report.tail.percentiles) == 90.0 and max(report.tail.percentiles) == 99.99
    # The same rank as wrk's own "99%" line, which rounds to hundredths of a millisecond.
    assert f"{report.tail.percentiles[99.0] / 1000:.2f}" == "13.93"
    assert report.p99 == "13.93ms"


def test_one_run_pooled_is_its_own_percentile(sample):
    tail = WrkOutput.parse(sample("wrk-latency-tail-1.txt")).tail
    assert pooled_percentile([tail], 99) == f"{tail.percentiles[99.0] / 1000:.3f}"


def test_two_runs_pooled_lie_between_their_percentiles(sample):
    first = WrkOutput.parse(sample("wrk-latency-tail-1.txt")).tail
    second = WrkOutput.parse(sample("wrk-latency-tail-2.txt")).tail
    pooled = float(pooled_percentile([first, second], 99))
    low, high = sorted([first.percentiles[99.0] / 1000, second.percentiles[99.0] / 1000])
    assert low <= pooled <= high


def tail_with_step(requests: int, below: int, step: int, share_at_step: float) -> LatencyTail:
    """A run whose latency is `below` µs up to the percentile 100 - share_at_step, and `step` µs above it."""
    return LatencyTail(requests, {hundredths / 100: (step if hundredths / 100 > 100 - share_at_step else below)
                                  for hundredths in range(9000, 10000)})


def test_pooling_weighs_how_often_each_run_reaches_a_step():
    # Each round's p99 is on the upper step (7.9 ms) when more than 1 % of its requests waited for a slice.
    upper = tail_with_step(100_000, 600, 7_900, 1.5)
    lower = tail_with_step(100_000, 600, 4_300, 1.5)
    assert upper.percentiles[99.0] == 7_900 and lower.percentiles[99.0] == 4_300
    # Two rounds of three on the upper step: their pooled 99th is on it; one of three: the 1.5 % of the upper round
    # and the two others' 1.5 % at 4.3 ms make 4.5 % above 600 µs, of which the top 1 % is the upper round's.
    assert pooled_percentile([upper, upper, lower], 99) == "7.900"
    assert pooled_percentile([upper, lower, lower], 99) == "4.300"
    # A tail just under 1 % in every round keeps the pooled 99th below the steps.
    quiet = tail_with_step(100_000, 600, 7_900, 0.5)
    assert pooled_percentile([quiet, quiet, quiet], 99) == "0.600"


def test_no_pooled_percentile_without_every_runs_tail(sample):
    tail = WrkOutput.parse(sample("wrk-latency-tail-1.txt")).tail
    assert pooled_percentile([tail, None], 99) == ""
    assert pooled_percentile([], 99) == ""
