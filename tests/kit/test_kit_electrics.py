"""The kit's electrics from the geometry (issue 36): one keyed ribbon per tile cut to its
route, notches sized for the ribbons, one power scheme with its fuses and the last pixel's
voltage, the RF fields as the firmware runs them, and the bay holding only the Pis it can.
Bad input — a Pi the bay cannot hold, a tile order or pixel count the boards were not made
for, a fuse smaller than the peak or larger than a wire allows — is refused by ``kit check``
and ``config check`` with the reason and the fix."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.paths import REPO_ROOT

from haleakala import config as cfg
from haleakala.cli import main
from haleakala.kit import cables, power_scheme
from haleakala.kit.budget import budget
from haleakala.kit.geometry import load_geometry
from haleakala.kit.pinout import fields_at_once

GEOMETRY = (REPO_ROOT / "haleakala" / "kit" / "data" / "geometry.toml").read_text(encoding="utf-8")


def geometry_with(*edits: tuple[str, str]):
    text = GEOMETRY
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    return text


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# --------------------------------------------------------------------------- the harness


def test_each_tile_has_one_cable_cut_from_its_route_round_the_island():
    g = load_geometry(GEOMETRY)
    cut = {c.segment: c for c in cables.tile_cables(g)}
    assert sorted(cut) == list(range(6))
    # Segment 3 is opposite the bay: the longest way round; 1 and 5 are the nearest but 0.
    assert max(cut.values(), key=lambda c: c.route_mm).segment == 3
    assert cut[0].route_mm < min(cut[1].route_mm, cut[5].route_mm)
    assert max(cut[1].route_mm, cut[5].route_mm) < min(cut[2].route_mm, cut[4].route_mm)
    for c in cut.values():
        assert c.cut_mm >= c.route_mm * 1.1 + 120 and c.cut_mm % 50 == 0


@settings(max_examples=25, deadline=None)
@given(st.floats(1.0, 1.6), st.floats(0.0, 300.0), st.sampled_from([10.0, 25.0, 50.0]))
def test_a_cut_length_is_the_route_with_its_factor_and_slack_rounded_up(factor, slack, step):
    text = geometry_with(
        ("routing_factor = 1.1\n", f"routing_factor = {factor}\n"),
        ("slack_mm = 120.0 ", f"slack_mm = {slack} "),
        ("cut_step_mm = 50.0", f"cut_step_mm = {step}"),
    )
    for c in cables.tile_cables(load_geometry(text)):
        need = c.route_mm * factor + slack
        assert need - 1e-6 <= c.cut_mm < need + step + 1e-6
        assert math.isclose(c.cut_mm / step, round(c.cut_mm / step))


def test_the_rim_notch_takes_all_six_ribbons_and_an_edge_notch_three():
    g = load_geometry(GEOMETRY)
    by_name = {n.name.split(" (")[0]: n for n in cables.notches(g)}
    rim = by_name["segment 0's rim notch"]
    assert rim.cables == 6 and rim.fits and rim.stack == (2, 3)
    assert by_name["edge notch, clockwise"].cables == 3
    assert all(n.fits for n in by_name.values())


def test_a_notch_too_small_for_its_ribbons_is_refused_with_the_fix(tmp_path, capsys):
    path = write(
        tmp_path,
        "g.toml",
        geometry_with(("rim_notch = [56.0, 5.0]", "rim_notch = [10.0, 6.0]")),
    )
    assert main(["kit", "check", "--geometry", str(path)]) == 1
    out = capsys.readouterr().out
    assert "the segment 0's rim notch (cable.rim_notch) is 10 x 6 mm but its 6 ribbons" in out
    assert "enlarge it in the geometry" in out


# --------------------------------------------------------------------------- power


@pytest.mark.parametrize("model", ["pi3", "pi4", "pi5"])
@pytest.mark.parametrize("kit", cfg.KITS)
def test_the_last_pixel_keeps_4_5_volts_at_full_white_on_every_pi_and_kit(model, kit):
    g = load_geometry(GEOMETRY)
    s = power_scheme.scheme(g, replace(cfg.Config(), model=model, kit=kit))
    assert s.problems == []
    assert 4.5 <= s.full_white.last_pixel_v <= s.at_cap.last_pixel_v < 5.1
    # Full white is every pixel white at brightness 1 as the daemon sends it: held to the
    # 1800 mA limit. At the default brightness 0.3 the 198 pixels would still want 3.5 A, so
    # the limit holds both to the same draw; uncapped (198 x 60 mA) F1 cuts the rail.
    assert s.full_white.total_a >= s.at_cap.total_a
    assert math.isclose(s.uncapped_a, 198 * 0.06) and s.uncapped_a > s.main_fuse_a
    assert "F1 (T4A) cuts that" in s.uncapped_words()


def test_33_pixels_per_tile_change_the_figures_not_the_safety():
    """33 pixels per tile (issue 37's light): the limit still holds full white to 1.8 A, one
    tile lit alone (with its reader's field) stays under its fuse's hold of 2 A."""
    g = load_geometry(GEOMETRY)
    assert g.pixels_per_tile == 33
    s = power_scheme.scheme(g, replace(cfg.Config(), kit="rfid", model="pi5"))
    assert s.problems == []
    assert s.full_white.last_pixel_v >= 4.5
    ribbon = next(r for r in s.runs if r["run"] == "tile ribbon (each)")
    assert ribbon["carries_a"] == pytest.approx(1.8 + 0.18)  # the limit, and a reader's field
    assert ribbon["carries_a"] <= s.tile_fuse[0]


def test_the_rfid_figure_counts_the_fields_the_firmware_has_on_at_once(tmp_path):
    assert fields_at_once() == 2  # SCAN_GROUPS pairs opposite beaches
    config = replace(cfg.Config(), kit="rfid")
    assert budget(config).rfid_ma == 25 + 4 * 15 + 2 * 180
    one_at_a_time = write(tmp_path, "config.py", "SCAN_GROUPS = ((0,), (1,), (2,), (3,))\n")
    assert fields_at_once(one_at_a_time) == 1
    assert budget(config, fields_at_once(one_at_a_time)).rfid_ma == 25 + 5 * 15 + 180


def test_a_main_fuse_smaller_than_the_rail_peak_is_refused_with_the_fix(tmp_path, capsys):
    path = write(
        tmp_path, "g.toml", geometry_with(("main_fuse = [4.0, 0.016]", "main_fuse = [0.5, 0.1]"))
    )
    config = write(tmp_path, "c.toml", "[leds]\nbrightness = 1.0\n")
    assert main(["kit", "check", "--geometry", str(path), "--config", str(config)]) == 1
    out = capsys.readouterr().out
    assert "the main fuse F1 (0.5 A, power.main_fuse) is smaller than the 1771 mA peak" in out
    assert "fit a 2 A slow-blow fuse and set power.main_fuse" in out


def test_a_fuse_larger_than_the_thinnest_wire_it_guards_is_refused(tmp_path, capsys):
    path = write(
        tmp_path, "g.toml", geometry_with(("main_fuse = [4.0, 0.016]", "main_fuse = [10.0, 0.005]"))
    )
    assert main(["kit", "check", "--geometry", str(path)]) == 1
    out = capsys.readouterr().out
    assert "the main fuse F1 (10 A) is larger than the hub 5 V rail and ground" in out
    assert "use a thicker run or a fuse of at most 7.2" in out


def test_a_tile_fuse_that_trips_above_the_ribbon_is_refused(tmp_path, capsys):
    path = write(
        tmp_path,
        "g.toml",
        geometry_with(("tile_fuse = [2.0, 3.8, 0.110]", "tile_fuse = [2.5, 5.0, 0.08]")),
    )
    assert main(["kit", "check", "--geometry", str(path)]) == 1
    out = capsys.readouterr().out
    assert "a tile's fuse trips at 5 A (power.tile_fuse) but the tile ribbon (each)" in out
    assert "carries only 4 A" in out


def test_a_longer_thinner_supply_lead_drops_the_last_pixel_below_4_5_volts(tmp_path, capsys):
    path = write(
        tmp_path,
        "g.toml",
        geometry_with(("supply_lead = [1.2, 18]", "supply_lead = [2.0, 22]")),
    )
    assert main(["kit", "check", "--geometry", str(path)]) == 1
    out = capsys.readouterr().out
    assert "at full white the last pixel of tile" in out
    assert "shorten or thicken the largest drop (supply lead and J1)" in out


# --------------------------------------------------------------------------- bay and boards


def test_a_pi_the_bay_cannot_hold_is_refused_by_kit_check_and_config_check(tmp_path, capsys):
    config = write(tmp_path, "zero.toml", 'model = "zero2w"\n')
    assert main(["kit", "check", "--config", str(config)]) == 1
    out = capsys.readouterr().out
    assert "model = 'zero2w': its holes are 58 x 23 mm but the bay's standoffs are 58 x 49" in out
    assert "choose model 'pi3' / 'pi4' / 'pi5'" in out
    assert main(["config", "check", "--config", str(config)]) == 1
    captured = capsys.readouterr()
    assert "build: model = 'zero2w'" in captured.out
    assert captured.err == f"{config}: 1 error\n"
    # The daemon still runs on a Zero 2 W's config: only the printed bay cannot hold it.
    assert cfg.load(config).model == "zero2w"


@pytest.mark.parametrize("model", ["pi3", "pi4", "pi5"])
def test_the_pis_the_bom_offers_fit_the_bay(model, tmp_path):
    config = write(tmp_path, "c.toml", f'model = "{model}"\n')
    assert main(["config", "check", "--config", str(config)]) == 0


def test_a_chain_order_or_pixel_count_the_boards_were_not_made_for_is_refused(tmp_path, capsys):
    swapped = write(tmp_path, "c.toml", "[leds]\nring_order = [0, 2, 1, 3, 4, 5]\n")
    assert main(["config", "check", "--config", str(swapped)]) == 1
    assert "leds.ring_order = [0, 1, 2, 3, 4, 5]" in capsys.readouterr().out
    # The hub's own check, on a config whose zone map follows its order:
    from haleakala.kit.kitreport import check_chain_order

    (problem,) = check_chain_order(load_geometry(GEOMETRY), [0, 2, 1, 3, 4, 5])
    assert "but the hub board chains the tiles [0, 1, 2, 3, 4, 5]" in problem
    assert problem.endswith("set leds.ring_order = [0, 1, 2, 3, 4, 5]")


def test_kit_check_json_reports_boards_harness_power_and_bay(capsys):
    assert main(["kit", "check", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is True and report["problems"] == []
    assert report["boards"]["hub"]["tile_headers"] == ["J4", "J5", "J6", "J7", "J8", "J9"]
    assert report["boards"]["tile"]["files"] == "hw/boards/tile/"
    harness = report["harness"]
    assert [t["segment"] for t in harness["tiles"]] == list(range(6))
    assert all(t["cut_mm"] > t["route_mm"] for t in harness["tiles"])
    rim = harness["notches"][1]
    assert rim["ribbons"] == 6 and rim["need_mm2"] <= rim["have_mm2"] and rim["fits"]
    power = report["power"]
    assert power["main_fuse_a"] == 4.0 and power["tile_fuse"]["trip_a"] == 3.8
    assert power["full_white"]["last_pixel_v"] >= 4.5
    assert power["default_cap"]["last_pixel_v"] >= power["full_white"]["last_pixel_v"]
    assert report["bay"]["standoffs_mm"] == report["bay"]["model_holes_mm"] == [58.0, 49.0]
