"""Part 12 (how cost grows) and part 1's p99 against nginx: the factors, the noise allowed, the scales taken."""

import pytest

from bench import arithmetic, growth
from bench.report import BenchFailure, figure
from bench.settings import Settings


def test_p99_ratio_of_the_medians():
    assert arithmetic.ratio_of_figures("7.500", "7.300") == "1.027"
    # A latency wrk did not report is not met, never a division by zero.
    assert arithmetic.ratio_of_figures("7.500", "nan") == "nan"
    assert arithmetic.ratio_of_figures("", "7.300") == "nan"
    assert arithmetic.ratio_of_figures("7.500", "0.000") == "nan"
    assert not arithmetic.met(arithmetic.ratio_of_figures("7.500", "nan"), "<=", "1.1")


def test_spread_is_the_runs_range_over_their_median():
    assert arithmetic.spread(["10", "11", "12"]) == pytest.approx(2 / 11)
    assert arithmetic.spread(["5.0"]) == 0.0
    assert arithmetic.spread([]) == 0.0


def test_growth_factor_of_the_medians():
    assert arithmetic.growth_factor("12.5", "118.0") == "9.44"
    assert arithmetic.growth_factor("0.000", "1.0") == "nan"
    assert arithmetic.growth_factor("", "1.0") == "nan"


@pytest.mark.parametrize("smaller, larger, bound", [
    (["10", "10", "10"], ["100", "100", "100"], "10.00"),  # no noise: exactly linear is the bound
    (["10", "11", "12"], ["100", "100", "100"], "11.82"),  # the larger spread of the two scales widens it
    (["10", "20", "30"], ["100", "100", "100"], "12.50"),  # never by more than a quarter
])
def test_growth_bound_allows_the_measured_noise(smaller, larger, bound):
    assert arithmetic.growth_bound(10, smaller, larger) == bound


def test_steps_between_consecutive_scales():
    cost = growth.Cost("Snapshot load from SQLite and build", " ms",
                       {1: "20.0", 10: "210.0", 100: "2600.0"},
                       {1: ["19.0", "20.0", "21.0"], 10: ["205.0", "210.0", "215.0"], 100: ["2590", "2600", "2610"]})
    steps = growth.steps(cost, [1, 10, 100])
    assert [(s.smaller, s.larger, s.factor, s.bound) for s in steps] == [
        (1, 10, "10.50", "11.00"), (10, 100, "12.38", "10.48")]
    assert arithmetic.met(steps[0].factor, "<=", steps[0].bound)
    assert not arithmetic.met(steps[1].factor, "<=", steps[1].bound)
    # A step of another size is held to its own size factor.
    cost = growth.Cost("x", " ms", {2: "1.0", 6: "2.9"}, {2: ["1.0"], 6: ["2.9"]})
    assert [(s.factor, s.bound) for s in growth.steps(cost, [2, 6])] == [("2.90", "3.00")]


def test_runs_are_read_from_a_vouch_bench_line():
    text = "Growth snapshot swap runs ms: 0.012 0.010 0.011\nGrowth snapshot swap ms (median): 0.011\n"
    assert growth.runs_of(text, "Growth snapshot swap runs ms") == ["0.012", "0.010", "0.011"]
    assert figure(text, "Growth snapshot swap ms (median)") == "0.011"


def test_growth_scales_setting():
    assert Settings.from_environment({}).growth_scales == [1, 10, 100]
    settings = Settings.from_environment({"BENCH_PARTS": "12", "BENCH_GROWTH_SCALES": "1 3"})
    assert (settings.parts, settings.growth_scales) == ("12", [1, 3])
    for wrong in ("10 1", "0 10", "1 1", "1,10", "x"):
        with pytest.raises(BenchFailure, match="BENCH_GROWTH_SCALES"):
            Settings.from_environment({"BENCH_GROWTH_SCALES": wrong})
