"""``haleakala bench rfid`` runs and prints its figures as ``name: value`` lines (the
figures themselves are for people to read, not for tests to time)."""

from __future__ import annotations

import argparse

from haleakala.hal.rfid import bench


def test_bench_prints_parser_throughput_and_scan_to_event_latency(capsys) -> None:
    parser = argparse.ArgumentParser()
    bench.add_arguments(parser)
    args = parser.parse_args(["--changes", "20", "--seed", "3"])
    assert bench.run(args) == 0
    figures = dict(line.split(": ", 1) for line in capsys.readouterr().out.splitlines())
    assert float(figures["frames_per_s"]) > 0
    assert float(figures["scan_to_event_ms"]) > 0
    assert "missed 0" in figures["model"]


def test_bench_simulation_sees_every_change() -> None:
    result = bench.simulate(changes=10, seed=5, reader="mfrc522")
    assert result["missed"] == 0 and result["arrival_max_ms"] >= result["arrival_mean_ms"]


def test_pn5180_timing_model_charges_for_collisions() -> None:
    model = bench.PN5180Timing()
    apart = model.scan([0x01, 0x02], was_empty=False)      # different slots
    together = model.scan([0x01, 0x11], was_empty=False)   # same slot: a second poll
    assert together > apart
