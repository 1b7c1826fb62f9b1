"""Issue 37: a kit that fits and reads. Every zone's light on target (coverage, bleed,
contrast per role and palette mode) from the optical model, every bought part in its pocket
with its clearance, every Pi model in the bay, the landing mark on the antenna; a geometry that
breaks any of these is refused when loaded, naming the part, the figure and the fix."""

from __future__ import annotations

import dataclasses
import json
import math
import re

import pytest

from haleakala import config as cfg
from haleakala import palette
from haleakala.cli import main
from haleakala.kit import bay, light
from haleakala.kit.common import REPO_ROOT
from haleakala.kit.envelopes import default_envelopes
from haleakala.kit.fits import button_post, check_fits
from haleakala.kit.geometry import GeometryError, default_geometry, load_geometry
from haleakala.kit.placement import placement
from haleakala.kit.refusals import refusals
from haleakala.kit.shapes import inside, rotate

TEXT = (REPO_ROOT / "haleakala" / "kit" / "data" / "geometry.toml").read_text("utf-8")
CONFIG = str(REPO_ROOT / "hw" / "config.example.toml")


def replaced(old: str, new: str) -> str:
    assert old in TEXT, old
    return TEXT.replace(old, new, 1)


def refused(old: str, new: str) -> str:
    """Every reason the changed geometry is refused (loading it raises the first)."""
    text = replaced(old, new)
    with pytest.raises(GeometryError, match=r"^geometry: "):
        load_geometry(text)
    return " | ".join(refusals(load_geometry(text, validate=False)))


# --------------------------------------------------------------------------- light


def test_the_packaged_geometry_loads_with_its_proof():
    g = load_geometry(TEXT)  # validated: every refusal would raise
    assert g.pixels_per_tile == default_geometry().pixels_per_tile


@pytest.mark.parametrize("kit", ["buttons", "rfid"])
def test_every_zone_is_lit_on_most_of_its_area_without_its_neighbours_light(kit):
    g = default_geometry()
    for zone, f in light.tile_fields(g, kit).items():
        assert f.coverage >= g.light.coverage_target, zone
        assert f.bleed <= g.light.bleed_target, zone


def test_players_colours_lava_and_the_legal_target_read_2_to_1_in_a_lit_room_in_every_mode():
    g = default_geometry()
    report = light.light_report(g, "buttons", cfg.Config().leds.brightness)
    checked = 0
    for zone, zl in report.items():
        assert set(zl.contrast) == set(palette.MODES)
        for mode, roles in zl.contrast.items():
            assert set(roles) == set(light.zone_roles(zone))
            for role, value in roles.items():
                if role in light.GAME_ROLES:
                    assert value >= 2.0, (zone, mode, role)
                    checked += 1
    assert checked >= 30


def test_a_lambertian_pixel_lights_a_quarter_of_its_peak_at_its_depth():
    g = default_geometry()
    tile = light.Tile(g, "rfid")
    x, y = next((x, y) for z, x, y in g.tile_pixels if z == "water")
    tile.pixels["water"] = [(x, y)]  # this pixel alone
    peak = tile.irradiance("water", (x, y))
    depth = g.cell_height - g.light.emitter_height
    assert peak == pytest.approx(1e6 / depth**2)
    away = (x - depth, y)  # along the water, still in its cell
    assert tile.irradiance("water", away) / peak == pytest.approx(0.25)


def test_a_wall_casts_its_shadow_a_ray_never_crosses_a_bands_inner_arc():
    g = default_geometry()
    tile = light.Tile(g, "rfid")
    tile.pixels["beach"] = [(-55.4, 112.0)]  # the beach's left end
    # The right end of the beach is behind the grassland's outer wall from there.
    assert tile.irradiance("beach", (55.0, 113.5)) == 0.0
    assert tile.irradiance("beach", (-40.0, 120.0)) > 0


def test_contrast_falls_below_target_on_office_paper_and_kit_check_says_so(tmp_path, capsys):
    geometry = tmp_path / "geometry.toml"
    geometry.write_text(
        replaced("paper_transmission = 0.65", "paper_transmission = 0.20"), encoding="utf-8"
    )
    assert main(["kit", "check", "--json", "--config", CONFIG, "--geometry", str(geometry)]) == 1
    data = json.loads(capsys.readouterr().out)
    assert not data["ok"]
    assert any(
        re.search(r"the \w+ lit as player\.red .* reads 1\.\d\d:1", p) for p in data["problems"]
    )


def test_kit_check_json_lists_each_zones_light_and_each_parts_fit(capsys):
    assert main(["kit", "check", "--json", "--config", CONFIG]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] and data["problems"] == [] and data["pixels"] == 198
    for zone in ("water", "beach", "grassland", "forest", "mountain", "crater", "slot_a"):
        lit = data["zones"][zone]["light"]
        assert lit["coverage"] >= 0.6 and lit["bleed"] <= 0.05
        assert set(lit["contrast"]) == {"default", "cvd"}
    assert data["zones"]["crater"]["light"]["contrast"]["cvd"]["lava"] >= 2.0
    parts = {p["part"]: p for p in data["parts"]}
    switch = parts["the switch's body (12 x 12 mm, +0.4)"]
    assert switch["fit"] and switch["clearance_mm"] == pytest.approx(0.2)
    assert all(p["fit"] and p["clearance_mm"] >= p["needed_mm"] for p in data["parts"])


def test_too_low_a_brightness_fails_the_contrast_in_kit_check_with_the_figure(tmp_path, capsys):
    dim = tmp_path / "dim.toml"
    dim.write_text("[leds]\nbrightness = 0.1\n", encoding="utf-8")
    assert main(["kit", "check", "--config", str(dim)]) == 1
    out = capsys.readouterr().out
    assert "lit as lava (cvd colours) reads" in out and "raise leds.brightness" in out


# --------------------------------------------------------------------------- bad input


def test_a_cell_that_cannot_reach_its_light_target_is_refused_when_loaded():
    grass = re.findall(r'  \["grassland", [^\]]*\],\n', TEXT)
    assert len(grass) == 6
    text = TEXT
    for line in grass[1:]:
        text = text.replace(line, "", 1)
    with pytest.raises(GeometryError) as caught:
        load_geometry(text)
    message = str(caught.value)  # the first reason: the light
    assert "grassland's cell is lit on" in message and "% of its area" in message
    assert "add pixels to the grassland" in message


def test_a_post_smaller_than_the_switch_needs_is_refused_with_the_size_it_needs():
    message = refused("post = [17.2, 17.2]", "post = [15.0, 15.0]")
    assert "the button post's wall does not fit" in message
    assert "beach_sensor.post must be at least 16.7 mm" in message


def test_a_cavity_too_shallow_for_the_reader_and_its_plug_is_refused():
    message = refused("skirt = 12.0", "skirt = 6.0")
    assert "the reader with its header and plug does not fit the riser's cavity (6 mm deep)" in (
        message
    )
    assert "raise cells.skirt" in message


def test_a_landing_mark_outside_its_antenna_is_refused():
    message = refused("landing = 20.0", "landing = 44.0")
    assert "the landing mark does not fit inside its antenna square" in message


def test_a_landing_mark_in_the_dark_is_refused():
    message = refused('["beach", -9.0,', '["beach", -30.0,')
    assert "landing mark is lit at" in message and "light.threshold" in message


def test_a_notch_taller_than_the_pixel_face_lets_light_under_a_wall_and_is_refused():
    message = refused("notch = [6.0, 3.0]", "notch = [6.0, 5.0]")
    assert "under a wall's cable notch" in message


def test_a_wall_thinner_than_the_stated_minimum_is_refused():
    message = refused("wall = 2.0                  # between", "wall = 1.2  # between")
    assert "cells.wall does not fit the least wall" in message and "1.6 mm" in message


def test_malformed_light_figures_get_a_sentence():
    with pytest.raises(GeometryError, match=r"light\.paper_transmission must be a fraction"):
        load_geometry(replaced("paper_transmission = 0.65", "paper_transmission = 1.5"), False)
    with pytest.raises(GeometryError, match=r"light\.intensity_mcd must be three"):
        load_geometry(replaced("intensity_mcd = [390.0, 660.0, 180.0]", "intensity_mcd = [1]"))


# --------------------------------------------------------------------------- fits


def test_the_switch_legs_pass_the_post_which_the_old_6_mm_hole_did_not():
    e = default_envelopes()
    post = button_post(default_geometry(), e)
    pitch = e.numbers("switch", "leg_pitch", 2)
    assert pitch[0] / 2 > 3.0  # the legs sit 6.25 mm out: a 6 mm hole never passed them
    assert post.hollow[0] > pitch[0] + e.numbers("switch", "leg", 3)[1]
    assert post.pocket > e.numbers("switch", "body", 3)[0] + e.number("switch", "tolerance")


def test_every_pi_models_holes_land_on_the_trays_standoffs():
    g, e = default_geometry(), default_envelopes()
    standoffs = {(x, y) for x, y, _s in bay.standoffs(g, e)}
    placed_all = bay.placements(g, e)
    assert "zero2w" not in placed_all  # its 58 x 23 mm holes: the tray refuses it
    for model in (*bay.held_models(g), "hub"):
        placed = placed_all[model]
        for x, y in placed.holes():
            assert any(math.hypot(x - sx, y - sy) < 0.01 for sx, sy in standoffs), model


def test_every_part_fits_with_its_clearance_for_every_pi_model():
    fits = check_fits(default_geometry())
    assert [f.sentence() for f in fits if not f.ok] == []
    names = " ".join(f.part for f in fits)
    for expected in ("USB-C power plug", "Pico's micro-USB plug", "OLED", "M3 screw", "dowel"):
        assert expected in names


def test_a_bay_too_small_for_the_pis_plugs_is_refused():
    message = refused("size = [210.0, 190.0, 55.0]", "size = [210.0, 150.0, 55.0]")
    assert "does not fit the bay" in message and "[console]" in message


def test_placement_lists_each_beachs_antenna_square_and_landing_mark():
    g = default_geometry()
    data = placement(g, "rfid")
    assert len(data["beach_sensors"]) == 6
    for sensor in data["beach_sensors"]:
        antenna = tuple(tuple(p) for p in sensor["antenna"])
        mark = [tuple(p) for p in sensor["landing_mark"]]
        assert len(antenna) == 4 and len(mark) >= 16
        assert all(inside(p, antenna) for p in mark)
        beach = g.zone_polygon(sensor["segment"], "beach")
        assert all(inside(p, beach) for p in mark)
        centre = rotate(g.sensor_centre, sensor["segment"])
        assert (sensor["x"], sensor["y"]) == pytest.approx(centre, abs=0.01)


def test_nothing_but_the_beachs_own_pixels_lies_over_the_antenna():
    g = default_geometry()
    over = [z for z, x, y in g.tile_pixels if inside((x, y), g.antenna_rect())]
    assert over and set(over) == {"beach"}
    breaking = dataclasses.replace(g, tile_pixels=(*g.tile_pixels, ("water", 0.0, 143.0)))
    assert any(f.part == "a water pixel" and not f.ok for f in check_fits(breaking))
