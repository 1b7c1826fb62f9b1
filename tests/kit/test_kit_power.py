"""``haleakala power``: per-ring and total current from pixels, brightness and the limit, the
supply the kit needs, and a warning (exit 1) when the configured supply is too small."""

from __future__ import annotations

import csv
import math
import re
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.paths import REPO_ROOT

from haleakala import config as cfg
from haleakala.cli import main
from haleakala.hal.zones import ZoneMap, estimate_current_ma
from haleakala.kit import power
from haleakala.kit.geometry import default_geometry

REPO = REPO_ROOT


@pytest.fixture(autouse=True)
def no_system_config(tmp_path, monkeypatch):
    monkeypatch.delenv(cfg.ENV_PATH, raising=False)
    monkeypatch.setattr(cfg, "DEFAULT_PATH", tmp_path / "etc" / "config.toml")


def with_leds(config: cfg.Config, **changes) -> cfg.Config:
    return replace(config, leds=replace(config.leds, **changes))


PIXELS = 6 * default_geometry().pixels_per_tile
"""The kit's board: 33 pixels on each of the 6 tiles (the geometry's count; the budget and the
BOM follow it)."""


def test_default_kit_budget_figures():
    b = power.budget(cfg.Config())
    assert b.pixels == PIXELS == 198
    assert b.worst_ma == pytest.approx(PIXELS * 60)
    assert [r.worst_ma for r in b.rings] == [pytest.approx(PIXELS / 6 * 60)] * 6
    # brightness 0.3: each channel 255 -> round(76.5) = 76, i.e. 76/255 x 60 mA per pixel
    assert b.at_brightness_ma == pytest.approx(PIXELS * 3 * 76 * 20 / 255)
    # 3541 mA of all-white at 0.3: the 1800 mA limit caps the chain.
    assert b.limit_bites and 1700 < b.led_max_ma <= 1800
    assert b.peak_ma == pytest.approx(1300 + 25 + 150 + b.led_max_ma)  # 150: the speaker
    assert b.recommended_supply_ma == 4000
    assert b.warnings() == []


def test_limit_caps_the_chain_when_brightness_alone_would_exceed_it():
    b = power.budget(with_leds(cfg.Config(), brightness=1.0, current_limit_ma=1800))
    assert b.at_brightness_ma == pytest.approx(PIXELS * 60)
    assert b.limit_bites
    assert 1700 < b.led_max_ma <= 1800


def test_expected_maximum_is_what_the_daemon_renders_for_an_all_white_frame():
    config = with_leds(cfg.Config(), brightness=0.8, current_limit_ma=1500)
    zone_map = ZoneMap.from_config(config.leds)
    frame = {(s, z): (255, 255, 255) for s in range(6) for z in zone_map.zones}
    sent = zone_map.render(frame)
    assert power.budget(config).led_max_ma == pytest.approx(estimate_current_ma(sent))


@settings(max_examples=60, deadline=None)
@given(
    ppr=st.integers(1, 60),
    brightness=st.floats(0, 1),
    limit=st.floats(50, 20000),
)
def test_expected_maximum_never_exceeds_the_limit_or_brightness_worst_case(ppr, brightness, limit):
    config = replace(
        cfg.Config(),
        leds=replace(
            cfg.Config().leds,
            pixels_per_ring=ppr,
            zones={},
            brightness=brightness,
            current_limit_ma=limit,
            supply_ma=max(limit, 1),
        ),
    )
    b = power.budget(config)
    assert b.worst_ma == pytest.approx(ppr * 6 * 60)
    assert b.led_max_ma <= min(limit, b.at_brightness_ma) + 1e-6
    assert b.at_brightness_ma <= b.worst_ma + 1e-6
    assert b.recommended_supply_ma >= b.needed_ma
    assert b.recommended_supply_ma % 500 == 0


def test_power_command_prints_figures_and_ok(capsys):
    assert main(["power"]) == 0
    out = capsys.readouterr().out
    assert "tile 6 (segment 5): 33 pixels, worst 1980 mA, at brightness 0.3: 591 mA" in out
    assert "leds_worst_case_ma: 11880" in out
    assert "leds_expected_max_ma: 1771" in out and "the limit caps it" in out
    assert "pi_budget_ma: 1300" in out
    assert "speaker_ma: 150" in out
    assert "peak_ma: 3246" in out
    assert "supply_needed_ma: 3570" in out
    assert "supply_configured_ma: 5000  (leds.supply_ma)" in out
    assert "OK: the 5 A supply covers the peak with 54% headroom" in out
    # The power scheme: where 5 V enters, each run, the fuses, the last pixel's voltage.
    assert "power scheme: 5 V enters at the hub's J1 (5.1 V supply)" in out
    assert "F1 (T4A slow-blow) protects the LED and reader rail" in out
    assert "tile ribbon (each): 4 x 28 AWG ribbon conductors each way" in out
    full = float(re.search(r"^last_pixel_v_full_white: ([\d.]+)", out, re.M).group(1))
    capped = float(re.search(r"^last_pixel_v_default_cap: ([\d.]+)", out, re.M).group(1))
    assert 4.5 <= full <= capped < 5.1  # 198 pixels: the limit holds both to 1.8 A


def test_supply_below_the_peak_warns_and_exits_1(tmp_path, capsys):
    path = tmp_path / "small.toml"
    path.write_text("[leds]\nbrightness = 1.0\ncurrent_limit_ma = 1800\nsupply_ma = 2000\n")
    assert main(["power", "--config", str(path)]) == 1
    out = capsys.readouterr().out
    warning = [line for line in out.splitlines() if line.startswith("warning:")]
    assert len(warning) == 1
    assert "leds.supply_ma = 2000" in warning[0]
    peak = int(re.search(r"^peak_ma: (\d+)$", out, re.M).group(1))
    assert 3200 < peak <= 1300 + 25 + 150 + 1800
    assert f"smaller than the {peak} mA peak" in warning[0]
    assert "at least 4 A" in warning[0]


def test_rfid_kit_counts_the_two_fields_the_firmware_runs_at_once(tmp_path, capsys):
    """The Pico scans two opposite beaches at once (firmware SCAN_GROUPS): two RF fields on
    (2 x 180 mA), the other four readers idle (4 x 15), the Pico (25)."""
    path = tmp_path / "rfid.toml"
    path.write_text('kit = "rfid"\n[leds]\nsupply_ma = 3900\n')
    assert main(["power", "--config", str(path)]) == 1
    out = capsys.readouterr().out
    assert "rfid_ma: 445  (the Pico and six readers, 2 RF fields on at once" in out
    assert "warning: the 3.9 A supply (leds.supply_ma = 3900) leaves 6% headroom" in out


def test_broken_config_is_a_one_line_usage_error(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text("[leds]\nbrightness = 2\n")
    assert main(["power", "--config", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "leds.brightness" in err[0] and "config check" in err[0]


def _bom_supply_amps() -> float:
    rows = list(csv.DictReader((REPO / "hw" / "bom.csv").open(encoding="utf-8")))
    (supply,) = [r for r in rows if r["part"].startswith("5 V power supply")]
    return float(re.search(r"(\d+(?:\.\d+)?) A", supply["part"]).group(1))


@pytest.mark.parametrize("model", cfg.MODELS)
@pytest.mark.parametrize("kit", cfg.KITS)
def test_bom_supply_covers_every_pi_and_kit_at_default_led_settings(model, kit):
    amps = _bom_supply_amps()
    config = with_leds(replace(cfg.Config(), model=model, kit=kit), supply_ma=amps * 1000)
    assert power.budget(config).warnings() == []


def test_the_chain_limit_keeps_the_biggest_kit_within_the_boms_supply():
    """The BOM note: the 198 pixels are capped at the limit, so 5 A covers a Pi 5 with the
    RFID kit (two RF fields on at once), which 4 A would not."""
    config = replace(cfg.Config(), model="pi5", kit="rfid")
    b = power.budget(config)
    assert b.limit_bites and 4000 < b.peak_ma < b.needed_ma <= 5000


def test_the_default_supply_is_the_boms_supply():
    """leds.supply_ma is the rating of the one supply the BOM lists, not an LED share."""
    assert math.isclose(cfg.Config().leds.supply_ma, _bom_supply_amps() * 1000)


def test_power_explains_a_supply_that_config_check_refuses(tmp_path, capsys):
    """The same figures: check fails naming the peak, power prints it and exits 1."""
    path = tmp_path / "pi5.toml"
    path.write_text('model = "pi5"\n[leds]\nsupply_ma = 2500\n')
    assert main(["config", "check", "--config", str(path)]) == 1
    checked = capsys.readouterr().out
    assert main(["power", "--config", str(path)]) == 1
    out = capsys.readouterr().out
    peak = int(re.search(r"^peak_ma: (\d+)$", out, re.M).group(1))
    assert f"cannot carry the kit's {peak} mA peak (pi5 2000," in checked
    assert f"smaller than the {peak} mA peak" in out
