"""The map, the tile mix and the colours as data (N1–N9): the reference files load with
the facts the rulings state, and files breaking N2 or N4 are refused with a sentence."""

from __future__ import annotations

from pathlib import Path

import pytest

from haleakala.games.kanaloa.game import Game
from haleakala.games.kanaloa.material import MaterialError, default_material, load_material

DATA = Path(__file__).parents[2] / "haleakala" / "games" / "kanaloa" / "data"
MAP = (DATA / "map.toml").read_text()
TILES = (DATA / "tiles.toml").read_text()


def refused(tmp_path: Path, map_text: str = MAP, tiles_text: str = TILES) -> str:
    (tmp_path / "map.toml").write_text(map_text)
    (tmp_path / "tiles.toml").write_text(tiles_text)
    with pytest.raises(MaterialError) as caught:
        load_material(tmp_path / "map.toml", tmp_path / "tiles.toml")
    return str(caught.value)


def test_n1_reference_map_has_12_islands_28_currents_and_the_named_roles():
    m = default_material()
    assert m.islands == ("AKAU", "EWA", "HONU", "ILIO", "KAI", "LAU", "MOKU", "NALU", "ONO",
                         "PALI", "UKU", "WAI")  # fmt: skip
    assert len(m.currents) == 28 and m.current_names[0] == "AKAU-EWA"
    assert {m.islands[i] for i, r in enumerate(m.roles) if r == "shipwreck"} == {"UKU", "WAI"}
    assert {m.islands[i] for i, r in enumerate(m.roles) if r == "canoe"} == {"AKAU", "EWA"}


def test_n3_two_player_volcano_has_14_sea_spaces_9_with_three_islands():
    lay = default_material().layout(2)
    sizes = [len(lay.affected[s]) for s in lay.sea]
    assert len(sizes) == 14 and sizes.count(3) == 9 and sizes.count(2) == 5


def test_n4_tile_mix_is_31_kinds_93_tiles():
    m = default_material()
    counts = dict(zip(m.tiles, m.tile_count, strict=True))
    assert sum(counts.values()) == 93 and sum(m.kinds_of) == 31
    assert (counts["Kane2"], counts["Kane3"], counts["Kane4"], counts["Kane5"]) == (9, 9, 9, 6)
    assert counts["Pele/Lono2"] == 3 and counts["Kanaloa/Lono4"] == 3 and counts["Ku5"] == 3
    assert "Ku/Lono2" not in counts  # N4: the pairs are the cycle Kanaloa, Ku, Pele, Lono


def test_n5_tile_codes_name_the_gods_in_order_and_the_value():
    m = default_material()
    assert {"Kanaloa4", "Ku5", "Kanaloa/Ku3", "Ku/Pele2", "Pele/Lono4", "Kanaloa/Lono2",
            "Kane5"} <= set(m.tiles)  # fmt: skip
    assert len(m.tiles) == 24  # Kane kinds that differ only in their picture share a code


def test_n7_colours_in_seat_order():
    assert Game(players=2).players == ("red", "yellow")
    assert Game(players=4).players == ("red", "yellow", "green", "blue")


@pytest.mark.parametrize(
    ("players", "islands", "currents", "offerings", "volcanoes"),
    [(4, 12, 28, 93, 11), (3, 10, 21, 93, 11), (2, 8, 16, 62, 7)],
)
def test_n9_what_each_player_count_uses(players, islands, currents, offerings, volcanoes):
    m = default_material()
    lay = m.layout(players)
    assert (len(lay.islands), len(lay.currents)) == (islands, currents)
    assert len(m.offerings(players)) == offerings
    game = Game(seed=1, players=players)
    on_map = sum(len(t) for t in game.tiles)
    assert on_map == 2 * islands  # N11
    assert len(game.reserve) == 7 and game.reserve.count(game.volcano_tile) == 1  # N11
    assert on_map + 7 + len(game.bag) == offerings + volcanoes


def test_n2_map_with_27_currents_is_refused(tmp_path):
    text = MAP.replace('"PALI-UKU",', "")
    assert "28 currents" in refused(tmp_path, map_text=text)


def test_n2_current_to_an_unknown_island_is_refused(tmp_path):
    text = MAP.replace('"PALI-UKU"', '"PALI-ZZZ"')
    assert "PALI-ZZZ" in refused(tmp_path, map_text=text)


def test_n2_currents_in_play_must_equal_the_fish(tmp_path):
    # Moving one current from two islands in play to a shipwreck island changes the count.
    text = MAP.replace('"KAI-LAU",', '"UKU-WAI",')
    text = text.replace('"HONU+KAI+LAU", ', "").replace('"KAI+LAU+ONO", ', "")
    message = refused(tmp_path, map_text=text)
    assert "currents are in play" in message and "N2" in message


def test_n2_map_that_falls_apart_without_one_current_is_refused(tmp_path):
    # AKAU keeps one current in play with three players: not 2-edge-connected.
    text = MAP.replace('"AKAU-ILIO", ', "").replace('"AKAU-MOKU", ', "")
    text = text.replace('"LAU-WAI",', '"LAU-WAI", "HONU-PALI", "KAI-PALI",')
    message = refused(tmp_path, map_text=text)
    assert "N2" in message


def test_n2_sea_space_needs_currents_between_its_islands(tmp_path):
    text = MAP.replace('"AKAU+EWA+ILIO"', '"AKAU+HONU+ILIO"')
    assert "no current joins" in refused(tmp_path, map_text=text)


def test_n4_tile_file_with_a_missing_kind_is_refused(tmp_path):
    text = TILES.replace('{ gods = ["Ku"], value = 5 },', "")
    message = refused(tmp_path, tiles_text=text)
    assert "31 kinds" in message and "N4" in message


def test_n4_tile_file_with_a_wrong_god_is_refused(tmp_path):
    text = TILES.replace('{ gods = ["Ku"], value = 5 }', '{ gods = ["Zeus"], value = 5 }')
    assert "kind 4" in refused(tmp_path, tiles_text=text)


def test_n4_tile_file_with_too_few_kane_tiles_is_refused(tmp_path):
    text = TILES.replace(
        '{ gods = ["Kane"], value = 5 }, { gods = ["Kane"], value = 5 },',
        '{ gods = ["Kane"], value = 5 }, { gods = ["Pele"], value = 3 },',
    )
    message = refused(tmp_path, tiles_text=text)
    assert "N4" in message


def test_material_file_that_is_not_toml_is_refused(tmp_path):
    assert "not valid TOML" in refused(tmp_path, map_text="islands = [")
