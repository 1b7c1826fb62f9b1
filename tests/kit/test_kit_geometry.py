"""The kit's board in millimetres: `haleakala kit check` proves every zone lit, every beach
sensed, every chain gap within the wire, every part on the bed and the config's zone map on
the placement; each refusal names what is wrong and the fix. placement.json is regenerated
from the geometry and compared with the committed file (no CAD needed for that)."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest

from haleakala import config as cfg
from haleakala.cli import main
from haleakala.hal.zones import DEFAULT_PIXELS_PER_SEGMENT, DEFAULT_ZONES, RING_ZONES
from haleakala.kit import kitcheck, zonecheck
from haleakala.kit.common import REPO_ROOT
from haleakala.kit.fits import check_fits
from haleakala.kit.geometry import ZONES, GeometryError, default_geometry, load_geometry
from haleakala.kit.placement import placement_json

GEOMETRY_TEXT = (REPO_ROOT / "haleakala" / "kit" / "data" / "geometry.toml").read_text("utf-8")


def geometry_with(old: str, new: str):
    """The geometry with one change, unproven (each check is tested on its own here; loading
    proves them all: tests/kit/test_kit_light_fits.py)."""
    assert old in GEOMETRY_TEXT, old
    return load_geometry(GEOMETRY_TEXT.replace(old, new, 1), validate=False)


def test_the_default_kit_passes_every_check():
    config = cfg.Config()
    assert kitcheck.check_all(default_geometry(), config.leds, "buttons") == []
    assert kitcheck.check_all(default_geometry(), config.leds, "rfid") == []


def test_the_default_zone_map_is_the_geometry_s_pixel_order():
    g = default_geometry()
    assert g.pixels_per_tile == DEFAULT_PIXELS_PER_SEGMENT
    assert {z: DEFAULT_ZONES.get(z, ()) for z in ZONES} == g.tile_zone_pixels()


def test_a_zone_without_a_pixel_is_refused_by_name():
    text = GEOMETRY_TEXT
    for line in [ln for ln in text.splitlines(keepends=True) if ln.startswith('  ["forest"')]:
        text = text.replace(line, "")
    g = load_geometry(text, validate=False)
    problems = kitcheck.check_zones_lit(g)
    assert any("segment 0's forest has no pixel" in p and "[pixels] order" in p for p in problems)


def test_a_pixel_outside_its_zone_is_refused():
    g = geometry_with('["mountain", 0.0, 52.5]', '["mountain", 0.0, 77.0]')
    problems = kitcheck.check_zones_lit(g)
    assert any(re.search(r"pixel 3 \(segment 0's mountain\).*outside", p) for p in problems)


def test_a_pixel_board_against_a_wall_is_refused():
    g = geometry_with('["forest", -10.1, 73.3]', '["forest", -10.1, 81.0]')
    fits = [f for f in check_fits(g) if not f.ok]
    assert any("forest's pixel boards" in f.part and "walls" in f.where for f in fits)


def test_a_beach_pixel_on_the_button_post_is_refused():
    g = geometry_with('["beach", 24.0, 122.7]', '["beach", 33.0, 122.7]')
    fits = [f for f in check_fits(g) if not f.ok]
    assert any("beach's pixel boards" in f.part and f.where == "the button post" for f in fits)


def test_a_sensor_outside_its_beach_is_refused():
    g = geometry_with("centre = [0.0, 125.0]", "centre = [0.0, 150.0]")
    problems = kitcheck.check_sensors(g, "rfid")
    assert len(problems) == 6
    assert "segment 3's beach reader" in problems[3] and "beach_sensor.centre" in problems[3]


def test_a_chain_gap_longer_than_the_wire_is_refused():
    g = geometry_with("link_mm = 120.0", "link_mm = 40.0")
    problems = kitcheck.check_chain(g)
    assert any("pixels 29 (segment 0's slot_a) and 30" in p and "link_mm" in p for p in problems)
    g = geometry_with("tile_link_mm = 300.0", "tile_link_mm = 150.0")
    assert any("tile_link_mm" in p for p in kitcheck.check_chain(g))


def test_a_part_too_big_for_the_bed_is_refused():
    g = geometry_with("size = [220.0, 220.0]", "size = [180.0, 180.0]")
    problems = kitcheck.check_bed(g)
    assert any(p.startswith("part hw/parts/print/tile is 205.0 x 187.7 mm") for p in problems)


def test_pieces_that_do_not_fit_their_zone_are_refused():
    g = geometry_with("disc = 20.0", "disc = 30.0")
    assert any("the disc (30 mm" in p and "bands.beach" in p for p in kitcheck.check_pieces(g))


def test_a_ring_config_disagrees_with_the_board_and_says_how_to_fix_it():
    leds = dataclasses.replace(cfg.Config().leds, pixels_per_ring=12, zones=dict(RING_ZONES))
    problems = zonecheck.check_config(default_geometry(), leds)
    assert problems and "pixels_per_ring = 33" in problems[0]
    assert not zonecheck.applies_to(default_geometry(), leds)


def test_a_swapped_zone_in_the_config_is_named():
    zones = dict(DEFAULT_ZONES) | {"forest": (2, 3, 4), "mountain": (5, 6, 7, 8)}
    leds = dataclasses.replace(cfg.Config().leds, zones=zones)
    problems = zonecheck.check_config(default_geometry(), leds)
    assert any(
        p.startswith("segment 0's forest: the config lights chain pixels [2, 3, 4]")
        for p in problems
    )


def test_malformed_geometry_gets_a_sentence():
    with pytest.raises(GeometryError, match=r"bands\.beach"):
        load_geometry(GEOMETRY_TEXT.replace("beach = [112.0, 138.0]", "beach = [138.0, 112.0]"))
    with pytest.raises(GeometryError, match=r"pixels\.order\[0\]"):
        load_geometry(GEOMETRY_TEXT.replace('["crater", -7.7, 30.0]', '["lava", -7.7, 30.0]'))


def test_placement_json_is_committed_as_generated_and_has_what_the_issue_names():
    g = default_geometry()
    committed = (REPO_ROOT / "hw" / "placement.json").read_text("utf-8")
    assert committed == placement_json(g, "buttons"), "run 'haleakala kit parts' and commit"
    data = json.loads(committed)
    assert data["units"] == "mm"
    assert len(data["zones"]) == 6 * len(ZONES)
    assert set(data["zones"][0]) >= {"segment", "zone", "polygon"}
    assert [p["index"] for p in data["pixels"]] == list(range(6 * g.pixels_per_tile))
    assert set(data["pixels"][0]) >= {"index", "segment", "zone", "x", "y"}
    assert {b["kind"] for b in data["beach_sensors"]} == {"button"}
    assert all(set(b) >= {"antenna", "landing_mark"} for b in data["beach_sensors"])
    assert all(set(p) >= {"file", "bbox"} for p in data["parts"])
    assert all((REPO_ROOT / p["file"]).is_file() for p in data["parts"])


def test_kit_check_command_passes_the_example_config(capsys):
    assert main(["kit", "check", "--config", str(REPO_ROOT / "hw" / "config.example.toml")]) == 0
    assert "kit OK: 6 segments x 8 zones lit by 198 pixels" in capsys.readouterr().out


def test_kit_check_command_refuses_a_bad_geometry_naming_the_zone(tmp_path, capsys):
    bad = tmp_path / "geometry.toml"
    text = GEOMETRY_TEXT
    for line in [ln for ln in text.splitlines(keepends=True) if ln.startswith('  ["water"')]:
        text = text.replace(line, "")
    bad.write_text(text, encoding="utf-8")
    config = str(REPO_ROOT / "hw" / "config.example.toml")
    assert main(["kit", "check", "--config", config, "--geometry", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "the water's cell is lit on 0% of its area" in err and "add pixels to the water" in err


def test_kit_check_command_refuses_a_missing_geometry_file_in_one_line(tmp_path, capsys):
    assert main(["kit", "check", "--geometry", str(tmp_path / "none.toml")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_config_check_refuses_a_zone_map_that_lights_the_wrong_zones_and_a_ring_build(
    tmp_path, capsys
):
    ring = tmp_path / "ring.toml"
    ring.write_text(
        "[leds]\npixels_per_ring = 12\n[leds.zones]\n"
        + "".join(f"{z} = {list(i)}\n" for z, i in RING_ZONES.items()),
        encoding="utf-8",
    )
    # A ring build drives 12 pixels per tile: the boards, the fuses and the power scheme are
    # the geometry's 33, so config check refuses it with the fix (issue 36); the daemon still
    # starts with it (it runs on any hardware the config describes).
    assert main(["config", "check", "--config", str(ring)]) == 1
    out = capsys.readouterr().out
    assert "build: leds.pixels_per_ring = 12 but every tile of the geometry" in out
    assert "set leds.pixels_per_ring = 33, or change [pixels] in the geometry" in out
    assert cfg.load(ring).leds.pixels_per_ring == 12
    swapped = tmp_path / "swapped.toml"
    swapped.write_text("[leds.zones]\nforest = [1]\nmountain = [2]\n", encoding="utf-8")
    # An error: the printed board would light its mountain for the forest. The daemon
    # refuses the same config (config check passes exactly what the daemon starts with).
    assert main(["config", "check", "--config", str(swapped)]) == 1
    out = capsys.readouterr().out
    assert "leds.zones: on the printed board segment 0's water: the config lights" in out
    assert "'haleakala kit check' lists them" in out
    assert "set leds.pixels_per_ring = 33" in out
    with pytest.raises(cfg.ConfigError, match="on the printed board"):
        cfg.load(swapped)
    assert main(["kit", "check", "--config", str(swapped)]) == 2  # the config is refused
    assert "on the printed board" in capsys.readouterr().err
    # The kit check lists every zone, the forest lighting the mountain's pixel among them.
    problems = zonecheck.check_config(default_geometry(), cfg.from_dict(
        {"leds": {"zones": {"forest": [1], "mountain": [2]}}})[0].leds)  # fmt: skip
    assert any(p.startswith("segment 0's forest: the config lights chain pixels [1]")
               for p in problems)  # fmt: skip
