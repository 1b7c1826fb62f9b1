"""Acceptance (issue 11): a 15 s flood of valid RFID frames through a pseudo-terminal, read
by the real driver, handled by the real controller and the daemon's loop. It used to starve
the watchdog for 12 s and queue ~11,000 events.

This test measures time because the property is about time; it waits on conditions only,
and its margins are wide (a ping is due every 100 ms: a gap of 1 s is ten missed pings;
p99 of 50 ms after the flood is ~5x what an idle machine shows). The figures themselves are
reported by ``haleakala bench daemon``."""

from __future__ import annotations

from haleakala.bench.daemon import measure_rfid_flood
from haleakala.hal.eventqueue import EVENTS_MAX, KEYS_MAX

SECONDS = 15.0
RATE = 6500.0  # frames per second offered; at least 6,000 must get through


def test_a_15s_rfid_flood_never_starves_the_watchdog_and_leaves_no_backlog():
    figures = measure_rfid_flood(SECONDS, RATE, probes=100)
    assert figures["flood_frames"] == SECONDS * RATE
    assert figures["flood_frames_per_s"] >= 6000, figures
    assert figures["flood_watchdog_gap_max_s"] <= 1.0, figures
    assert figures["flood_queue_max"] <= EVENTS_MAX + KEYS_MAX, figures
    assert figures["flood_coalesced"] > 0 and figures["flood_dropped"] == 0, figures
    assert figures["flood_after_event_to_frame_p99_ms"] <= 50.0, figures
