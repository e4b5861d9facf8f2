"""wrk's report as the bench reads it, on real wrk 4.1.0 output recorded against nginx. The expected values are what
the shell script this program replaced read from the same files."""

import pytest

from bench import arithmetic
from bench.wrk import WrkOutput, lua_request


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
    assert WrkOutput.parse("unable to connect to 127.0.0.1:1 Connection refused\n") == WrkOutput("", "", "", "", "", "")


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
