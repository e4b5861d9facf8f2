"""Part 7's plan for a number of streams, and what it reads of vouchd: the settings, addresses and open files a count
takes, the open streams in /metrics, and the extrapolation to 100,000."""

from bench import streams
from bench.settings import Settings


def test_the_default_count_runs_three_rounds_on_vouchd_defaults():
    plan = streams.StreamPlan.of(10_000)
    assert (plan.settings, plan.addresses, plan.rounds, plan.large) == ([], 100, 3, False)
    # vouchd's default connection cap, and what it keeps for the rest.
    assert plan.open_files == 16_384 + 256


def test_a_hundred_thousand_streams_raise_the_caps_and_the_open_files():
    plan = streams.StreamPlan.of(100_000)
    assert plan.settings == ["VOUCHD_HTTP_MAX_CONNECTIONS=114580", "VOUCHD_OFREP_MAX_STREAMS=100000"]
    # Below seven eighths of the cap, where vouchd starts shedding waiting connections, with wrk's beside them.
    assert (100_000 + streams.OTHER_CONNECTIONS) * 8 < 114_580 * 7
    assert (plan.addresses, plan.rounds, plan.large, plan.open_files) == (1000, 1, True, 114_836)


def test_a_count_past_the_default_stream_cap_raises_it():
    assert streams.StreamPlan.of(12_288).settings == []
    # Never below the default connection cap.
    assert streams.StreamPlan.of(12_289).settings == ["VOUCHD_HTTP_MAX_CONNECTIONS=16384",
                                                      "VOUCHD_OFREP_MAX_STREAMS=12289"]


def test_open_streams_from_metrics():
    text = ("# HELP vouch_http_open_streams Event streams open now (each a parked connection).\n"
            "# TYPE vouch_http_open_streams gauge\nvouch_http_open_streams 9731\nvouch_http_pending_replies 0\n")
    assert streams.open_streams(text) == 9731
    assert streams.open_streams("vouch_http_open_streams_total 3\n") == -1


def test_the_rss_extrapolated_to_a_hundred_thousand_streams():
    assert streams.extrapolated_mib("45.6", "6.87", 100_000) == "716.5"


def test_part_seven_alone():
    assert Settings.from_environment({"BENCH_PARTS": "7", "BENCH_STREAMS": "100000"}).parts == "7"
    assert Settings.from_environment({"BENCH_PARTS": "7", "BENCH_STREAMS": "100000"}).streams == 100_000
