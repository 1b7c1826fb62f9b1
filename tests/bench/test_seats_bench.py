"""``haleakala bench seats`` times every decision it makes (the values are the benchmark's
business, not a test's)."""

from __future__ import annotations

import pytest

pytest.importorskip("aiohttp")


def test_the_seats_benchmark_times_every_decision_and_weighs_every_view():
    from haleakala.bench.seats import measure

    figures = measure(1, cap=6)
    assert figures["decisions"] == 6
    assert 0 < figures["decide_p50_ms"] <= figures["round_trip_p99_ms"]
    assert 0 < figures["update_bytes_p50"] <= figures["view_bytes_max"]
