"""One BOM source (haleakala/kit/data/bom.toml) → hw/bom.csv, hw/BOM.md and MAKER.md's totals,
and the zone map → hw/OVERLAY.md: generated, checked, complete, and in agreement."""

from __future__ import annotations

import shutil
from dataclasses import replace

import pytest
from support.paths import REPO_ROOT

from haleakala import config as cfg
from haleakala.cli import main
from haleakala.kit import bom, bomsource
from haleakala.kit.geometry import load_geometry
from haleakala.kit.overlay import overlay_markdown

REPO = REPO_ROOT
HW = REPO / "hw"
SOURCE = REPO / "haleakala" / "kit" / "data" / "bom.toml"


@pytest.fixture
def rows():
    return bom.parse_bom((HW / "bom.csv").read_text(encoding="utf-8"))


@pytest.fixture
def hw_copy(tmp_path):
    target = tmp_path / "hw"
    target.mkdir()
    for name in ("bom.csv", "BOM.md", "OVERLAY.md", "MAKER.md", "ASSEMBLY.md"):
        shutil.copy(HW / name, target / name)
    shutil.copy(SOURCE, target / "bom.toml")
    return target


def test_committed_bom_and_overlay_match_their_sources(capsys):
    assert main(["bom", "--check"]) == 0
    assert "up to date" in capsys.readouterr().out


def test_bom_markdown_has_one_table_row_per_csv_row_with_its_figures(rows):
    text = (HW / "BOM.md").read_text(encoding="utf-8")
    table = [line for line in text.splitlines() if line.startswith("| ") and "---" not in line]
    assert len(table) == len(rows) + 1  # + header
    for line, row in zip(table[1:], rows, strict=True):
        cells = [c.strip() for c in line.strip("|").split(" | ")]
        assert cells[1] == row.part.replace("|", "\\|")
        assert int(cells[2]) == row.quantity
        assert float(cells[3]) == pytest.approx(row.price_eur)
        assert float(cells[4]) == pytest.approx(row.quantity * row.price_eur)
    assert f"Buttons kit total: {bom.kit_total(rows, 'buttons'):.2f} EUR" in text
    assert f"RFID kit total: {bom.kit_total(rows, 'rfid'):.2f} EUR" in text


def _one(rows, kit, *words):
    found = [r for r in rows if r.kit == kit and all(w.lower() in r.part.lower() for w in words)]
    assert len(found) == 1, (kit, words, found)
    return found[0]


def test_bom_lists_every_part_both_kits_need(rows):
    assert _one(rows, "both", "Raspberry Pi 4").quantity == 1
    for model in ("Pi 3", "Pi 5"):
        _one(rows, "option", "Raspberry Pi", model)
    # The bay's standoffs take the Pi 3/4/5 hole pattern only: the BOM offers no Zero 2 W.
    assert not [r for r in rows if "Zero 2 W" in r.part]
    pixels = _one(rows, "both", "WS2812B", "pixels")
    assert "pack of 50" in pixels.part and pixels.note.startswith("198 used")  # 33 per tile
    assert not [r for r in rows if "ring" in r.part.lower()]  # no more ring build
    _one(rows, "both", "74AHCT125")
    assert "330–470 Ω" in _one(rows, "both", "Resistor 390").part
    _one(rows, "both", "1000 µF")
    _one(rows, "both", "5 V power supply")
    oled = _one(rows, "both", "OLED")
    assert "SSD1306" in oled.part and "SH1106" in oled.part and "I2C" in oled.part
    _one(rows, "both", "encoder", "push")
    _one(rows, "both", "button", "back")
    assert _one(rows, "buttons", "button", "beach").quantity == 6
    _one(rows, "rfid", "Pico")
    assert _one(rows, "rfid", "PN5180").quantity == 6
    assert _one(rows, "rfid", "ISO 15693", "tags").quantity == 12
    assert _one(rows, "option", "MFRC522", "module").quantity == 6
    assert _one(rows, "option", "NTAG").quantity == 12


def test_bom_goes_down_to_the_last_screw(rows):
    """Issue 36: boards, connectors and crimps, cable, fuse and holder, screws, nuts,
    button caps, tags, glue and solder, each with a quantity the geometry or boards derive."""
    assert _one(rows, "both", "Hub board").quantity == 1
    assert _one(rows, "both", "Tile board, ").quantity == 2  # six boards, packs of 5
    assert _one(rows, "both", "Fuse holder").quantity == 1
    assert "T4A" in _one(rows, "both", "Fuse 5 x 20").part
    assert _one(rows, "both", "Resettable fuse").quantity == 6
    assert _one(rows, "both", "Box header, 2 x 10").quantity == 12  # hub 6 + tile boards 6
    assert _one(rows, "both", "IDC socket, 2 x 10").quantity == 12  # two per tile cable
    assert _one(rows, "both", "Box header, 2 x 20").quantity == 1
    ribbon = _one(rows, "both", "ribbon cable, 20 conductors")
    assert ribbon.quantity >= 3  # metres, the six cut lengths summed
    assert _one(rows, "both", "KK 254, 3 pins").quantity == 12  # chain in + out per tile
    assert _one(rows, "buttons", "KK 254, 2 pins").quantity == 6
    assert _one(rows, "both", "KK 254, 2 pins").quantity == 1  # the back button
    assert "crimp" in _one(rows, "both", "KK 254, 4 pins").part
    assert _one(rows, "both", "Screw terminal").quantity == 2
    assert _one(rows, "both", "M3 x 12 bolts").quantity == 12
    assert _one(rows, "both", "M3 x 8").quantity == 4
    assert _one(rows, "both", "M2.5 x 6 screws for the tile boards").quantity == 12
    assert _one(rows, "both", "M2 x 8").quantity == 4
    assert _one(rows, "both", "Button cap").quantity == 1  # the back's; the beaches' below
    assert _one(rows, "buttons", "Round key cap").quantity == 6  # for the B3F's plunger
    assert _one(rows, "both", "M3 x 10 screws for the lid").quantity == 4
    _one(rows, "both", "Hot glue")
    _one(rows, "both", "Solder wire")
    _one(rows, "both", "Cable ties")
    assert _one(rows, "rfid", "Pin socket, 1 x 13").quantity == 6
    assert not [r for r in rows if "jumper" in r.part.lower() or "perfboard" in r.part.lower()]


def test_options_are_not_counted_in_kit_totals(rows):
    counted = sum(r.total_eur for r in rows if r.kit in ("both", "buttons"))
    assert bom.kit_total(rows, "buttons") == pytest.approx(counted)
    assert all(not r.counts_for("buttons") for r in rows if r.kit in ("option", "rfid"))


def test_editing_the_source_makes_check_name_every_written_file(hw_copy, capsys):
    source = hw_copy / "bom.toml"
    source.write_text(
        source.read_text(encoding="utf-8").replace("price = 18.00", "price = 17.00"),
        encoding="utf-8",
    )
    args = ["bom", "--hw", str(hw_copy), "--source", str(source)]
    assert main([*args, "--check"]) == 1
    err = capsys.readouterr().err
    for name in ("BOM.md", "bom.csv", "MAKER.md"):
        assert f"stale: {hw_copy / name}" in err
    assert "OVERLAY.md" not in err
    assert main(args) == 0
    assert "| 17.00 |" in (hw_copy / "BOM.md").read_text(encoding="utf-8")
    assert ",17.00," in (hw_copy / "bom.csv").read_text(encoding="utf-8")
    assert main([*args, "--check"]) == 0


def test_malformed_source_row_is_one_line_naming_the_row(hw_copy, capsys):
    source = hw_copy / "bom.toml"
    text = source.read_text(encoding="utf-8").replace('kit = "option"', 'kit = "spare"', 1)
    source.write_text(text, encoding="utf-8")
    assert main(["bom", "--hw", str(hw_copy), "--source", str(source), "--check"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "bom.toml row 2 (Raspberry Pi 3 Model B+)" in err[0]
    assert "kit 'spare' is not one of both, buttons, rfid, option" in err[0]


def test_maker_md_bom_md_and_bom_csv_agree_on_totals_and_counts():
    """The three files a maker reads or orders from say the same totals and counts: each
    is read back on its own and compared, not trusted to the generator."""
    rows = bom.parse_bom((HW / "bom.csv").read_text(encoding="utf-8"))
    bom_md = (HW / "BOM.md").read_text(encoding="utf-8")
    maker = (HW / "MAKER.md").read_text(encoding="utf-8")
    table = [ln for ln in bom_md.splitlines() if ln.startswith("| **") or ln.startswith("| *")]
    assert len(table) == len(rows)
    for kit, label in (("buttons", "buttons"), ("rfid", "RFID")):
        csv_total = sum(r.quantity * r.price_eur for r in rows if r.kit in ("both", kit))
        csv_pieces = sum(r.quantity for r in rows if r.kit in ("both", kit))
        csv_lines = sum(1 for r in rows if r.kit in ("both", kit))
        md_total = sum(
            float(cells[4])
            for cells in ([c.strip() for c in ln.strip("|").split(" | ")] for ln in table)
            if cells[0].strip("*") in ("both", kit)
        )
        assert md_total == pytest.approx(csv_total)
        said = f"{csv_total:.2f} EUR ({csv_lines} lines, {csv_pieces} pieces or packs)"
        assert f"{label.capitalize() if kit == 'buttons' else label} kit total: {said}" in bom_md
        assert f"{said} for the {label} kit" in maker
    assert "about 117 EUR" not in maker


def test_quantities_follow_the_geometry(tmp_path):
    """One pixel more per tile: the pixel packs, and the note's count, follow the geometry;
    the per-tile rows stay at one per tile."""
    text = (REPO / "haleakala" / "kit" / "data" / "geometry.toml").read_text(encoding="utf-8")
    slot_b = '  ["slot_b", 40.0, 178.0],\n'
    more = text.replace(slot_b, slot_b + '  ["slot_b", 48.0, 186.0],\n')
    g = load_geometry(more, validate=False)
    assert g.pixels_per_tile == 34
    rows = bomsource.load_rows(g=g)
    pixels = _one(rows, "both", "WS2812B", "pixels")
    assert pixels.need == 204 and pixels.quantity == 5  # packs of 50
    assert pixels.note.startswith("204 used")
    assert _one(rows, "buttons", "button", "beach").quantity == g.segments


def test_a_count_the_source_does_not_know_is_refused_naming_it():
    text = SOURCE.read_text(encoding="utf-8").replace('per = "tile"', 'per = "beaches"', 1)
    with pytest.raises(bomsource.BomError, match=r"per = 'beaches' is not a count; use one of"):
        bomsource.load_rows(text)


def test_overlay_follows_the_zone_map_and_ring_order():
    leds = replace(
        cfg.Config().leds,
        pixels_per_ring=12,
        ring_order=(5, 4, 3, 2, 1, 0),
        zones={"water": (0,), "beach": (1, 2, 3), "crater": (11,)},
    )
    text = overlay_markdown(replace(cfg.Config(), leds=leds))
    assert "| 1 | 5 | 0–11 |" in text  # ring 1 on the wire sits under segment 5
    assert "| 6 | 0 | 60–71 |" in text
    assert "| 3 | beach |" in text
    assert "| 11 | crater |" in text
    assert "| 4 | – | nothing (stays dark) |" in text
    assert "Zones with no pixel (never shown): grassland, forest, mountain, slot_a, slot_b." in text
    # segment 0 is the last ring: its crater is chain pixel 60 + 11
    assert "| 0 | 60 | 61, 62, 63 | – | – | – | 71 | – | – |" in text


def test_overlay_on_disk_is_the_default_zone_map():
    assert (HW / "OVERLAY.md").read_text(encoding="utf-8") == overlay_markdown(cfg.Config())


# Parts whose electrical values matter: each must name one real part, not "generic".
ELECTRICAL = ("Raspberry Pi", "74AHCT125", "Resistor", "capacitor", "Pico", "fuse")


def test_every_line_names_a_manufacturer_part_number_and_where_to_order_it(rows):
    for row in rows:
        assert row.mpn and row.supplier, row.part
        if any(word.lower() in row.part.lower() for word in ELECTRICAL):
            assert not row.mpn.startswith("generic"), row.part
            assert not row.supplier.startswith("any shop"), row.part
    text = (HW / "BOM.md").read_text(encoding="utf-8")
    assert "| Manufacturer part number | Supplier reference |" in text
    assert "| Texas Instruments SN74AHCT125N | Mouser 595-SN74AHCT125N |" in text


def test_the_level_shifter_has_its_100_nf_decoupling_capacitor(rows):
    shifter = _one(rows, "both", "74AHCT125")
    decoupling = _one(rows, "both", "100 nF")
    assert decoupling.quantity == shifter.quantity
    assert "74AHCT125" in decoupling.note and "14 (VCC)" in decoupling.note
    assert "7 (GND)" in decoupling.note


def test_a_line_without_a_part_number_is_refused_naming_the_row(hw_copy, capsys):
    source = hw_copy / "bom.toml"
    text = source.read_text(encoding="utf-8").replace('"Raspberry Pi SC0193"', '""', 1)
    source.write_text(text, encoding="utf-8")
    assert main(["bom", "--hw", str(hw_copy), "--source", str(source), "--check"]) == 2
    err = capsys.readouterr().err
    assert "bom.toml row 1 (Raspberry Pi 4 Model B, 2 GB): mpn is empty" in err
