"""``haleakala wiring``: the diagrams and pin table follow the config's pin map and the Pico
firmware's pins; regeneration is reproducible and ``--check`` names stale files."""

from __future__ import annotations

import re
import shutil
from dataclasses import replace

import pytest
from support.paths import REPO_ROOT

from haleakala import config as cfg
from haleakala.cli import main
from haleakala.kit import wiring

REPO = REPO_ROOT
WIRING = REPO / "wiring"
needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="graphviz's dot missing")


@pytest.fixture
def wiring_copy(tmp_path):
    target = tmp_path / "wiring"
    shutil.copytree(WIRING, target)
    return target


def default_harness(config: cfg.Config | None = None) -> wiring.Harness:
    return wiring.build(config or cfg.Config(), wiring.load_pico_pins())


def test_committed_wiring_is_up_to_date_with_the_default_config(capsys):
    """The CI check: regenerate from the default config and compare with what is committed."""
    assert main(["wiring", "--check"]) == 0
    assert "up to date" in capsys.readouterr().out


def test_header_map_matches_the_raspberry_pi_pinout():
    assert len(wiring.PI_GPIO_PIN) == 28
    assert {wiring.PI_GPIO_PIN[g] for g in (2, 3, 10, 17, 21)} == {3, 5, 19, 11, 40}
    assert [p for p, n in wiring.PI_HEADER.items() if n == "GND"] == [6, 9, 14, 20, 25, 30, 34, 39]
    assert len(wiring.PICO_GP_PIN) == 26 and wiring.PICO_GP_PIN[18] == 24


def test_every_configured_pin_is_wired_to_its_header_pin():
    config = replace(cfg.Config(), pins=replace(cfg.Config().pins, back=24, beach5=20))
    h = default_harness(config)
    pi = dict(h.parts[wiring.PI].pins)
    for key, gpio in config.pins_in_use().items():
        pin = wiring.PI_GPIO_PIN[gpio]
        assert pi[pin].startswith(f"GPIO{gpio}"), key
        assert wiring._partner(h, wiring.PI, pin), f"{key}: header pin {pin} has no wire"
    text = wiring.pins_markdown(h)
    assert "| 18 | GPIO24 | BACK | `pins.back` | hub net BACK |" in text
    assert "| 38 | GPIO20 | BTN5 | `pins.beach5` | hub net BTN5 |" in text
    assert "| 16 | GPIO23 |  |  | unused |" in text  # GPIO 23, no longer used


def test_pins_md_is_titled_for_its_kit_and_says_tile_not_ring():
    for kit in ("buttons", "rfid"):
        text = wiring.pins_markdown(default_harness(replace(cfg.Config(), kit=kit)))
        assert text.startswith(f"# Pin table: Raspberry Pi 4, {kit} kit (boards, harness")
        assert not re.search(r"\brings?\b", text.lower().replace("leds.ring_order", ""))


def test_led_data_goes_through_the_hub_shifter_and_out_and_back_through_every_tile():
    h = default_harness()
    hub = h.hub
    assert hub.part("J3").pins["19"] == "LED_3V3"  # GPIO 10
    assert hub.part("U1").pins["2"] == "LED_3V3" and hub.part("U1").pins["3"] == "LED_5V"
    assert hub.part("R1").pins == {"1": "LED_5V", "2": "DATA0"}
    # Tile n on the chain takes DATA(n) in on conductor 9 and sends DATA(n+1) back on 11.
    for position, segment in enumerate(h.config.leds.ring_order):
        pins = hub.part(f"J{4 + segment}").pins
        assert pins["9"] == f"DATA{position}"
        assert pins["11"] == (f"DATA{position + 1}" if position < 5 else None)


def test_every_tile_ribbon_carries_power_and_its_beach_and_reader_lines():
    h = default_harness()
    pico = h.pico
    for segment in range(6):
        pins = h.hub.part(f"J{4 + segment}").pins
        assert [pins[str(n)] for n in (1, 2, 3, 4)] == [f"+5V_T{segment}"] * 4
        assert pins["12"] == f"BTN{segment}"
        assert (pins["18"], pins["19"], pins["20"]) == (
            f"CS{segment}",
            f"BUSY{segment}",
            f"RST{segment}",
        )
        pico_pins = h.hub.part("A1").pins
        reader = pico.readers[segment]
        assert pico_pins[str(wiring.PICO_GP_PIN[reader.cs])] == f"CS{segment}"
        (ribbon,) = [c for c in h.cables if c.wires[0].a == wiring.hub_part(f"J{4 + segment}")]
        assert len(ribbon.wires) == 20 and ribbon.length_m > 0.2 and ribbon.gauge == "28 AWG"


def test_rfid_kit_config_draws_readers_and_no_beach_buttons():
    h = default_harness(replace(cfg.Config(), kit="rfid"))
    assert not [p for p in h.parts if p.startswith("Beach")]
    assert "Reader 5" in h.parts and wiring.PICO in h.parts
    text = wiring.pins_markdown(h)
    assert "## Raspberry Pi Pico on the hub (RFID kit)" in text


def test_reader_chip_selects_come_from_the_firmware_config():
    pico = wiring.load_pico_pins()
    h = default_harness()
    nets = h.hub.part("A1").pins
    for beach, reader in enumerate(pico.readers):
        assert nets[str(wiring.PICO_GP_PIN[reader.cs])] == f"CS{beach}"
        assert nets[str(wiring.PICO_GP_PIN[reader.rst])] == f"RST{beach}"
    assert nets[str(wiring.PICO_GP_PIN[pico.sck])] == "SCK"


def test_reader_pins_follow_an_edited_firmware_config(tmp_path):
    source = wiring.FIRMWARE_CONFIG.read_text(encoding="utf-8")
    edited = tmp_path / "config.py"
    edited.write_text(
        source.replace('"cs": 17,', '"cs": 15,').replace('PN5180, "cs": 20', 'MFRC522, "cs": 20'),
        encoding="utf-8",
    )
    pico = wiring.load_pico_pins(edited)
    assert pico.readers[0].cs == 15 and pico.readers[1].kind == "mfrc522"
    h = wiring.build(replace(cfg.Config(), kit="rfid"), pico)
    assert h.parts[wiring.reader(1)].type.startswith("MFRC522")
    assert h.hub.part("A1").pins[str(wiring.PICO_GP_PIN[15])] == "CS0"


def test_a_pin_used_twice_in_the_firmware_config_is_refused(tmp_path, capsys):
    edited = tmp_path / "config.py"
    edited.write_text(
        wiring.FIRMWARE_CONFIG.read_text(encoding="utf-8").replace('"cs": 20,', '"cs": 17,'),
        encoding="utf-8",
    )
    with pytest.raises(wiring.UsageError, match=r"GP\[17\] used twice"):
        wiring.load_pico_pins(edited)


def test_fallback_pico_pins_equal_the_firmware_config():
    loaded = wiring.load_pico_pins()
    assert replace(loaded, source="") == replace(wiring.FALLBACK_PICO, source="")


def test_yaml_is_what_wireviz_reads():
    yaml = pytest.importorskip("yaml")
    h = default_harness()
    assert yaml.safe_load(wiring.harness_yaml(h)) == wiring.harness_dict(h)


def test_yaml_and_pins_are_byte_for_byte_reproducible():
    assert wiring.sources(cfg.Config()) == wiring.sources(cfg.Config())


def test_check_names_a_hand_edited_pin_table(wiring_copy, capsys):
    pins = wiring_copy / "PINS.md"
    pins.write_text(pins.read_text(encoding="utf-8").replace("GPIO24", "GPIO25"), encoding="utf-8")
    assert main(["wiring", "--out", str(wiring_copy), "--check"]) == 1
    err = capsys.readouterr().err
    assert f"stale: {pins} differs from the config" in err
    assert "haleakala.yml" not in err.split("run ")[0]


def test_check_names_every_file_a_changed_pin_map_makes_stale(wiring_copy, tmp_path, capsys):
    config = tmp_path / "config.toml"
    config.write_text("[pins]\nback = 24\n")
    assert main(["wiring", "--config", str(config), "--out", str(wiring_copy), "--check"]) == 1
    err = capsys.readouterr().err
    for name in ("haleakala.yml", "PINS.md"):
        assert f"{wiring_copy / name} differs from the config" in err
    for name in ("haleakala.svg", "haleakala.png"):
        assert f"{wiring_copy / name} was not drawn from the current haleakala.yml" in err


def test_check_names_a_missing_drawing(wiring_copy, capsys):
    (wiring_copy / "haleakala.png").unlink()
    assert main(["wiring", "--out", str(wiring_copy), "--check"]) == 1
    assert "haleakala.png is missing" in capsys.readouterr().err


def test_committed_drawings_show_every_part_and_pi_pin_label():
    svg = (WIRING / "haleakala.svg").read_text(encoding="utf-8")
    texts = set(re.findall(r">([^<>]+)</text>", svg))
    h = default_harness()
    for name in h.parts:
        assert name in texts, name
    for _, label in h.parts[wiring.PI].pins:
        assert label in texts, label
    assert "graphviz version" not in svg


def test_stamps_round_trip_and_replace_an_old_stamp():
    svg = "<?xml?>\n<!-- Generated by graphviz version 9.9 (0)\n -->\n<svg></svg>"
    stamped = wiring.stamp_svg(svg, "a" * 64)
    assert wiring.svg_stamp(stamped) == "a" * 64 and "9.9" not in stamped
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (4, 3), "white").save(out, format="PNG")
    png = wiring.stamp_png(out.getvalue(), "b" * 64)
    again = wiring.stamp_png(png, "c" * 64)
    assert wiring.png_stamp(png) == "b" * 64 and wiring.png_stamp(again) == "c" * 64
    with Image.open(io.BytesIO(again)) as image:
        image.load()
        assert image.size == (4, 3)


@needs_dot
def test_rendering_is_reproducible_byte_for_byte():
    pytest.importorskip("wireviz")
    small = (
        "connectors:\n  A:\n    pins: [1, 2]\n  B:\n    pins: [1, 2]\n"
        "cables:\n  W1:\n    wirecount: 2\n    colors: [RD, BK]\n"
        "connections:\n  - - A: [1, 2]\n    - W1: [1, 2]\n    - B: [1, 2]\n"
    )
    first = wiring.render(small)
    assert first == wiring.render(small)
    assert wiring.svg_stamp(first[0]) == wiring.png_stamp(first[1]) == wiring.yaml_digest(small)


@needs_dot
def test_regenerating_into_an_empty_directory_passes_the_check(tmp_path, capsys):
    pytest.importorskip("wireviz")
    config = tmp_path / "rfid.toml"
    config.write_text('kit = "rfid"\n')
    out = tmp_path / "out"
    assert main(["wiring", "--config", str(config), "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "PINS.md",
        "haleakala.png",
        "haleakala.svg",
        "haleakala.yml",
    ]
    assert main(["wiring", "--config", str(config), "--out", str(out), "--check"]) == 0
    assert "rfid kit" in (out / "PINS.md").read_text(encoding="utf-8")


def test_the_level_shifter_is_decoupled_by_100_nf_across_its_supply_pins():
    hub = default_harness().hub
    assert hub.part("C2").value == "100nF"
    assert hub.part("C2").pins == {"1": "+5V", "2": "GND"}
    assert hub.part("U1").pins["14"] == "+5V" and hub.part("U1").pins["7"] == "GND"


def test_the_power_numbers_in_pins_md_are_haleakala_powers(capsys):
    text = (WIRING / "PINS.md").read_text(encoding="utf-8")
    assert main(["power"]) == 0
    out = capsys.readouterr().out
    full = re.search(r"^last_pixel_v_full_white: ([\d.]+)", out, re.M).group(1)
    capped = re.search(r"^last_pixel_v_default_cap: ([\d.]+)", out, re.M).group(1)
    assert f"**{full} V at full white**" in text and f"**{capped} V at the default cap**" in text
    assert "F1 (T4A slow-blow)" in text and "F1 (T4A slow-blow)" in out
