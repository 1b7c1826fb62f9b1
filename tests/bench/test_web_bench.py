"""``haleakala bench web`` measures what it says: every viewer attached, every decision timed
(the figures' values are the benchmark's business, not a test's)."""

from __future__ import annotations

import math

import pytest

pytest.importorskip("aiohttp")


def test_the_web_benchmark_times_every_decision_for_every_viewer(tmp_path):
    from haleakala.bench.web import measure

    figures = measure(tmp_path, viewers=3, decisions=8, idle_s=0.1, pace=0.0)
    assert figures["viewers"] == 3 and figures["viewers_attached_at_end"] == 3
    assert figures["decisions"] >= 8
    for name in ("update_p50_ms", "update_p99_ms", "event_to_frame_p99_ms", "publish_p99_ms",
                 "idle_cpu_percent", "added_rss_mb"):  # fmt: skip
        assert math.isfinite(figures[name]), name
    assert figures["update_p50_ms"] > 0


def test_the_web_benchmark_times_the_viewers_under_a_hostile_second_client(tmp_path):
    from haleakala.bench.web import measure

    figures = measure(tmp_path, viewers=3, decisions=8, idle_s=0.1, pace=0.0, attack=(20, 12))
    assert figures["attack_malformed_sent"] == 20 and figures["attack_decisions"] >= 8
    assert math.isfinite(figures["attack_update_p99_ms"])
    assert figures["attack_tracebacks"] == 0 and figures["attack_log_lines"] >= 1
    assert figures["viewers_attached_after_attack"] == 3
    assert figures["attack_idle_connects"] >= 12
