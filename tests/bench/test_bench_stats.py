"""The statistics every benchmark reports with (``haleakala.ai.stats``): published Wilson
intervals and the nearest-rank percentile."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from haleakala.ai import stats as bench


@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [
        (50, 100, 0.4038, 0.5962),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (95, 100, 0.8883, 0.9785),
    ],
)
def test_wilson_interval_matches_published_values(wins, games, low, high):
    lo, hi = bench.wilson(wins, games)
    assert lo == pytest.approx(low, abs=1e-4)
    assert hi == pytest.approx(high, abs=1e-4)


def test_wilson_interval_without_games_says_nothing():
    assert bench.wilson(0, 0) == (0.0, 1.0)


def test_percentile_is_the_nearest_rank():
    values = [float(v) for v in range(1, 101)]
    assert bench.percentile(values, 0.99) == 99.0
    assert bench.percentile(values, 1.0) == 100.0
    assert bench.percentile([0.5], 0.99) == 0.5
    assert bench.percentile([], 0.99) == 0.0


@given(st.lists(st.floats(-1e6, 1e6), min_size=1), st.floats(0.0, 1.0))
def test_percentile_is_always_a_measured_value_and_grows_with_the_fraction(values, fraction):
    assert bench.percentile(values, fraction) in values
    assert bench.percentile(values, fraction) <= bench.percentile(values, 1.0) == max(values)
