"""``haleakala bench rfid`` runs and prints its figures as ``name: value`` lines (the
figures themselves are for people to read, not for tests to time)."""

from __future__ import annotations

import importlib

import pytest

from haleakala.bench import rfid as bench
from haleakala.checkout import CheckoutNeeded, firmware_dir
from haleakala.cli import build_parser


def test_bench_prints_parser_throughput_and_scan_to_event_latency(capsys) -> None:
    args = build_parser().parse_args(["bench", "rfid", "--changes", "20", "--seed", "3"])
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
    apart = model.scan([0x01, 0x02], was_empty=False)  # different slots
    together = model.scan([0x01, 0x11], was_empty=False)  # same slot: a second poll
    assert together > apart


def test_bench_rfid_options_are_reachable_from_the_command_line() -> None:
    args = build_parser().parse_args(
        ["bench", "rfid", "--reader", "mfrc522", "--debounce", "3", "--firmware", "fw"]
    )
    assert (args.reader, args.debounce, args.firmware) == ("mfrc522", 3, "fw")


def test_bench_rfid_says_the_firmware_needs_a_checkout_when_it_is_not_there(
    tmp_path, capsys
) -> None:
    with pytest.raises(CheckoutNeeded, match="--firmware DIR"):
        firmware_dir(tmp_path)
    args = build_parser().parse_args(["bench", "rfid", "--firmware", str(tmp_path)])
    assert bench.run(args) == 1
    figures = dict(line.split(": ", 1) for line in capsys.readouterr().out.splitlines())
    assert float(figures["frames_per_s"]) > 0
    assert (
        "unavailable" in figures["scan_to_event_ms"] and "--firmware" in figures["scan_to_event_ms"]
    )


def test_an_installed_package_without_the_checkout_is_told_so(monkeypatch, tmp_path) -> None:
    from haleakala import checkout

    monkeypatch.setattr(checkout, "PACKAGE", tmp_path / "site-packages" / "haleakala")
    assert checkout.source_checkout() is None
    with pytest.raises(CheckoutNeeded, match="not installed with the package"):
        checkout.firmware_dir()


def test_pn5180_model_uses_the_firmware_scan_plan_and_its_modes() -> None:
    """The bench charges what the firmware does: its ``ScanPlan`` (imported from the
    firmware) picks each scan, with the same mode numbers as the model's."""
    bench.firmware_scanner()
    plan = importlib.import_module("haleakala_pico.pn5180").ScanPlan
    model = bench.PN5180Timing
    assert (plan.FULL, plan.PROBE, plan.VERIFY, plan.CONFIRM) == (
        model.FULL,
        model.PROBE,
        model.VERIFY,
        model.CONFIRM,
    )


def test_pn5180_confirming_one_doubtful_tag_costs_less_than_a_full_inventory() -> None:
    model = bench.PN5180Timing()
    stack = [0x01, 0x02, 0x03]
    full = model.scan(stack, was_empty=False, mode=model.FULL)
    confirm = model.scan(stack, was_empty=False, mode=model.CONFIRM, known=stack, doubtful=[0x03])
    assert confirm < full / 2


def test_pn5180_collision_of_known_tags_costs_less_than_a_second_poll() -> None:
    model = bench.PN5180Timing()
    same_slot = [0x01, 0x11]
    unknown = model.scan(same_slot, was_empty=False, mode=model.FULL)
    known = model.scan(same_slot, was_empty=False, mode=model.FULL, known=same_slot)
    assert known < unknown
