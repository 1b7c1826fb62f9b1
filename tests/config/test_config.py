"""The kit's config: defaults, the shipped example, and every mistake named precisely."""

from __future__ import annotations

import textwrap
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.paths import REPO_ROOT

from haleakala import config as cfg
from haleakala.config import Config, ConfigError, Problem, check, load, loads, to_toml
from haleakala.hal.events import ALL_DISCS, Disc

EXAMPLE = REPO_ROOT / "hw" / "config.example.toml"


def problems_of(text: str) -> list[str]:
    """Every problem of a config text, as the one-line strings the user sees."""
    raw = tomllib.loads(textwrap.dedent(text))
    return [str(p) for p in cfg.from_dict(raw)[1]]


# --------------------------------------------------------------------------- defaults


def test_shipped_example_loads_equals_defaults_and_passes_check():
    config = load(EXAMPLE)
    assert config == Config()
    assert config.source == EXAMPLE
    assert check(EXAMPLE) == []


def test_built_in_defaults_pass_check():
    assert check(Config()) == []


def test_example_mentions_every_key_of_the_effective_config():
    example = EXAMPLE.read_text()
    for line in to_toml(Config()).splitlines():
        if "=" in line:
            key = line.split("=")[0].strip()
            assert f"\n{key} =" in example or f"\n# {key} =" in example, key


def test_no_file_at_the_default_path_means_defaults_and_says_so(tmp_path, monkeypatch):
    monkeypatch.delenv(cfg.ENV_PATH, raising=False)
    monkeypatch.setattr(cfg, "DEFAULT_PATH", tmp_path / "config.toml")
    config = load()
    assert config == Config() and config.source is None
    assert config.note == f"no config file at {tmp_path / 'config.toml'}: using built-in defaults"


def test_a_named_file_that_does_not_exist_is_an_error(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"config file .*nope\.toml does not exist"):
        load(tmp_path / "nope.toml")


def test_env_names_the_config_file(tmp_path, monkeypatch):
    path = tmp_path / "kit.toml"
    path.write_text('kit = "rfid"\n')
    monkeypatch.setenv(cfg.ENV_PATH, str(path))
    assert load().kit == "rfid"


def test_a_partial_file_keeps_defaults_for_everything_else(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text("model = 'pi5'\n[pins]\nled_data = 12\n[leds]\nbrightness = 0.5\n")
    config = load(path)
    assert (config.model, config.pins.led_data, config.leds.brightness) == ("pi5", 12, 0.5)
    assert config.pins.back == 23 and config.leds.zones == Config().leds.zones


def test_a_zones_table_replaces_the_default_layout():
    config = loads("[leds]\npixels_per_ring = 16\n[leds.zones]\nwater = [0, 1, 2, 3]\n")
    assert config.leds.zones == {"water": (0, 1, 2, 3)}


def test_tags_are_stored_by_normalised_uid():
    config = loads('[tags]\n"04:a1:b2:c3" = "red3"\n"0A0B0C0D" = "yellow*"\n')
    assert config.tags == {"04A1B2C3": Disc("red", 3), "0A0B0C0D": Disc("yellow", 0)}


# --------------------------------------------------------------------------- round trip

small_pins = st.integers(4, 27)


@given(
    st.sampled_from(cfg.MODELS),
    st.sampled_from(cfg.KITS),
    st.floats(0, 1),
    st.integers(1, 1800),
    st.permutations(range(6)),
    st.lists(st.sampled_from(ALL_DISCS), unique=True, max_size=12),
    st.sampled_from(cfg.DRIVERS),
    st.integers(0x03, 0x77),
)
def test_show_output_loads_back_to_the_same_config(
    model, kit, brightness, limit, order, discs, driver, address
):
    config = replace(
        Config(),
        model=model,
        kit=kit,
        state_dir=Path('/tmp/h a"k'),
        leds=replace(
            Config().leds, brightness=brightness, current_limit_ma=limit, ring_order=tuple(order)
        ),
        display=replace(Config().display, driver=driver, address=address),
        tags={f"{i:08X}": d for i, d in enumerate(discs)},
    )
    assert cfg.from_dict(tomllib.loads(to_toml(config)))[0] == config


# --------------------------------------------------------------------------- mistakes


def test_unknown_keys_suggest_the_closest_known_one():
    assert problems_of("""
        hardwre = "sim"
        [led]
        [pins]
        led = 10
        [leds.zones]
        forrest = [5]
        [display]
        colour = 1
    """) == [
        "hardwre: unknown key; did you mean 'hardware'?",
        "led: unknown key; did you mean 'leds'?",
        "pins.led: unknown key; did you mean 'led_data'?",
        "leds.zones.forrest: unknown key; did you mean 'forest'?",
        "display.colour: unknown key; known keys: driver, i2c_port, address, rotate",
    ]


def test_wrong_types_name_the_expected_type_and_the_default():
    assert problems_of("""
        model = 4
        [pins]
        back = "23"
        [leds]
        brightness = "dim"
        ring_order = [0, 1, "2"]
        [leds.zones]
        water = 3
        [display]
        address = true
    """) == [
        'model: expected a string, got integer 4; default is "pi4"',
        "pins.back: expected an integer, got string '23'; default is 23",
        "leds.brightness: expected a number, got string 'dim'; default is 0.3",
        "leds.ring_order: expected a list of integers, got list [0, 1, '2']; "
        "default is [0, 1, 2, 3, 4, 5]",
        "leds.zones.water: expected a list of pixel indices, got integer 3; "
        "e.g. water = [21, 22, 23, 24, 25, 26]",
        "display.address: expected an integer, got boolean True; default is 60",
    ]


def test_a_section_that_is_not_a_table_is_named():
    assert problems_of("pins = 5\n") == [
        "pins: expected a table [pins], got integer 5; write it as a [pins] section"
    ]


def test_a_pin_used_twice_names_both_keys():
    assert problems_of("[pins]\nback = 22\n") == [
        "pins.back: GPIO 22 is also pins.encoder_push; "
        "every device needs its own pin: pick a free GPIO"
    ]


def test_a_pin_the_model_lacks():
    assert problems_of("model = 'zero2w'\n[pins]\nbeach5 = 40\n") == [
        "pins.beach5: GPIO 40 does not exist on a zero2w; the 40-pin header has BCM GPIO 0..27"
    ]


def test_hat_eeprom_pins_are_a_warning_not_an_error():
    problems = cfg.from_dict({"pins": {"beach0": 0}})[1]
    assert [str(p) for p in problems] == [
        "warning: pins.beach0: GPIO 0 is a HAT ID EEPROM pin (ID_SD/ID_SC); "
        "it works, but a HAT on the header would clash: prefer 4..27"
    ]
    assert cfg.errors(problems) == []
    assert loads("[pins]\nbeach0 = 0\n").pins.beach0 == 0


def test_i2c_pins_are_reserved_for_the_oled():
    assert problems_of("[pins]\nbeach1 = 3\n") == [
        "pins.beach1: GPIO 3 is I2C1 SCL, which the OLED needs; move this to a free GPIO"
    ]


def test_spi0_pins_clash_with_the_led_chain_on_a_pi4():
    assert problems_of("[pins]\nbeach2 = 9\nback = 11\n") == [
        "pins.back: GPIO 11 is on SPI0, which the LED chain on GPIO 10 needs for itself on a "
        "pi4; keep GPIO 7, 8, 9 and 11 free: pick another GPIO",
        "pins.beach2: GPIO 9 is on SPI0, which the LED chain on GPIO 10 needs for itself on a "
        "pi4; keep GPIO 7, 8, 9 and 11 free: pick another GPIO",
    ]


def test_spi0_pins_are_free_on_a_pi5_where_pio_drives_the_leds():
    assert problems_of("model = 'pi5'\n[pins]\nbeach2 = 9\nback = 11\n") == []


def test_led_data_must_be_10_or_18_on_a_pi4():
    assert problems_of("[pins]\nled_data = 12\n") == [
        "pins.led_data: GPIO 12 cannot drive NeoPixels on a pi4; "
        "use 10 (SPI0 MOSI, no root needed) or 18 (PWM, needs root)"
    ]


def test_led_data_18_needs_root_and_is_a_warning():
    assert problems_of("model = 'pi3'\n[pins]\nled_data = 18\n") == [
        "warning: pins.led_data: GPIO 18 drives the LEDs by PWM, which needs root and "
        "disables analogue audio; use 10 (SPI0 MOSI) so the daemon runs without root"
    ]


def test_any_gpio_drives_the_leds_on_a_pi5():
    assert problems_of("model = 'pi5'\n[pins]\nled_data = 12\n") == []


def test_rfid_kit_does_not_wire_beach_buttons_so_their_pins_are_not_checked():
    assert problems_of("kit = 'rfid'\n[pins]\nbeach0 = 22\nbeach1 = 99\n") == []


def test_zone_index_past_the_ring_and_pixel_in_two_zones():
    assert problems_of("""
        [leds]
        pixels_per_ring = 8
        [leds.zones]
        water = [0, 1]
        beach = [1, 8]
    """) == [
        "leds.zones.beach[0]: pixel 1 is also in leds.zones.water; "
        "a pixel belongs to one zone: remove it from one list",
        "leds.zones.beach[1]: pixel 8 is past the end of a 8-pixel ring; "
        "use 0..7 or change leds.pixels_per_ring",
    ]


def test_a_supply_that_cannot_carry_the_kits_peak_fails_the_check():
    """LEDs at brightness 1 capped under 1800 mA, a Pi 4 (1300), the OLED (25), the
    speaker (150): 3246 mA."""
    assert problems_of("[leds]\nbrightness = 1.0\nsupply_ma = 3000\n") == [
        "leds.supply_ma: the 3000 mA supply cannot carry the kit's 3246 mA peak (pi4 1300, "
        "LEDs 1771, OLED 25, speaker 150 mA): the Pi would brown out; fit a 5 V supply of at "
        "least 4 A and set leds.supply_ma to its rating, or lower leds.current_limit_ma / "
        "leds.brightness (details: haleakala power)"
    ]


@pytest.mark.parametrize(
    ("model", "kit", "supply", "fails"),
    [("pi4", "buttons", 3600, False), ("pi5", "buttons", 3600, True), ("pi4", "rfid", 3900, False)],
)
def test_the_supply_check_counts_the_pi_model_and_the_rfid_kit(model, kit, supply, fails):
    """3600 mA carries a Pi 4 with the default 198 pixels capped at 1800 mA and its speaker
    (3246 mA); 3900 mA its RFID kit (3691 mA with two RF fields on at once: a warning for thin
    headroom), not a Pi 5 (3946 mA)."""
    problems = cfg.from_dict({"model": model, "kit": kit, "leds": {"supply_ma": supply}})[1]
    supply = [p for p in problems if p.key == "leds.supply_ma"]
    assert bool(cfg.errors(supply)) == fails
    if kit == "rfid":
        assert [p.severity for p in supply] == ["warning"]
        assert "RFID" not in supply[0].message and "headroom" in supply[0].message


@given(
    st.sampled_from(cfg.MODELS),
    st.sampled_from(cfg.KITS),
    st.floats(0, 1),
    st.integers(1, 5000),
    st.integers(1, 8000),
)
def test_the_supply_check_and_haleakala_power_agree(model, kit, brightness, limit, supply):
    """One meaning of leds.supply_ma: config check fails exactly when ``haleakala power``
    finds the supply below the kit's peak, and warns exactly when power warns on headroom."""
    from haleakala.kit import power

    raw = {
        "model": model,
        "kit": kit,
        "leds": {"brightness": brightness, "current_limit_ma": limit, "supply_ma": supply},
    }
    config, problems = cfg.from_dict(raw)
    b = power.budget(config)
    supply_problems = [p for p in problems if p.key == "leds.supply_ma"]
    assert bool(cfg.errors(supply_problems)) == (b.supply_ma < b.peak_ma)
    assert bool(supply_problems) == bool(b.warnings())


def test_tag_mistakes():
    assert problems_of("""
        [tags]
        "04A1B2C3" = "red3"
        "04:a1:b2:c3" = "red4"
        "0B0B0B0B" = "red3"
        "0C0C0C0C" = "blue2"
        "zz" = "red1"
        "0D0D0D0D" = 5
        "0E0E0E0E" = "Red1"
        "0F0F0F0F" = "red01"
        "0A0B" = "red2"
    """) == [
        "tags.04:a1:b2:c3: same tag as tags.04A1B2C3; "
        "a tag UID may appear once: delete one of them",
        "tags.0B0B0B0B: disc red3 is also mapped to tags.04A1B2C3; "
        "each disc has one tag: remove the old line or fix the disc name",
        "tags.0C0C0C0C: unknown disc name 'blue2'; "
        "discs are red1..red5, yellow1..yellow5, red* and yellow* (invocation)",
        "tags.zz: tag UID 'zz' is not hexadecimal bytes; "
        "copy the UID printed by the enrolment tool, e.g. 04A1B2C3",
        'tags.0D0D0D0D: expected a disc name, got integer 5; write it as "red3" or "yellow*"',
        "tags.0E0E0E0E: unknown disc name 'Red1'; write it as 'red1': "
        "discs are red1..red5, yellow1..yellow5, red* and yellow* (invocation)",
        "tags.0F0F0F0F: unknown disc name 'red01'; write it as 'red1': "
        "discs are red1..red5, yellow1..yellow5, red* and yellow* (invocation)",
        "tags.0A0B: tag UID has 2 bytes; tags have 4 to 10; "
        "copy the UID printed by the enrolment tool, e.g. E0040150A1B2C3D4",
    ]


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (
            "hardware = 'gpio'",
            "hardware: 'gpio' is not one of auto, sim, pi; "
            "auto picks pi on a Raspberry Pi, else sim",
        ),
        (
            "model = 'pi 4'",
            "model: 'pi 4' is not one of pi3, pi4, pi5, zero2w; "
            "did you mean 'pi4'? the Raspberry Pi under the island",
        ),
        (
            "kit = 'button'",
            "kit: 'button' is not one of buttons, rfid; did you mean 'buttons'? "
            "buttons: one button per beach; rfid: tags read by a Pico",
        ),
        ("variant = ''", 'variant: is empty; use "base" for the standard rules'),
        (
            "[leds]\nring_order = [0, 1, 2, 3, 4, 4]",
            "leds.ring_order: [0, 1, 2, 3, 4, 4] does not list segments 0..5 once each; "
            "write the segment under each ring in chain order, e.g. [0, 1, 2, 3, 4, 5]",
        ),
        (
            "[leds]\nbrightness = 1.5",
            "leds.brightness: 1.5 is outside 0..1; 0.3 is bright enough indoors",
        ),
        (
            "[leds]\npixel_order = 'GRBW'",
            "leds.pixel_order: 'GRBW' is not one of RGB, RBG, GRB, "
            "GBR, BRG, BGR; did you mean 'GRB'? WS2812B rings are GRB; try RGB if red and green "
            "are swapped",
        ),
        (
            "[display]\ndriver = 'ssd1309'",
            "display.driver: 'ssd1309' is not one of ssd1306, "
            "sh1106; did you mean 'ssd1306'? the 0.96-inch panels are ssd1306, most 1.3-inch ones "
            "sh1106",
        ),
        (
            "[display]\naddress = 0x80",
            "display.address: 0x80 is not a 7-bit I2C address; "
            "OLEDs answer at 0x3C (or 0x3D): run i2cdetect -y 1",
        ),
        (
            "[display]\nrotate = 1",
            "display.rotate: 1 is not 0 or 2; "
            "scenes are drawn landscape 128x64: 0 upright, 2 upside down",
        ),
        (
            "[rfid]\nbaud = 0",
            "rfid.baud: baud rate 0 must be positive; the Pico firmware talks at 115200",
        ),
        (
            "[inputs]\nhold_ms = 10",
            "inputs.hold_ms: 10 ms is not longer than inputs.bounce_ms; "
            "a long press must outlast contact bounce: 800 ms is usual",
        ),
    ],
)
def test_each_value_mistake_is_named_with_its_fix(text, line):
    assert problems_of(text) == [line]


def test_loading_a_config_with_mistakes_lists_every_error_one_line_each(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("kit = 'button'\n[pins]\nback = 22\nbeach0 = 0\n[leds]\nbrightnes = 1\n")
    with pytest.raises(ConfigError) as caught:
        load(path)
    assert str(caught.value).splitlines() == [
        f"{path}: 3 problems:",
        "  leds.brightnes: unknown key; did you mean 'brightness'?",
        "  kit: 'button' is not one of buttons, rfid; did you mean 'buttons'? "
        "buttons: one button per beach; rfid: tags read by a Pico",
        "  pins.back: GPIO 22 is also pins.encoder_push; "
        "every device needs its own pin: pick a free GPIO",
    ]
    assert all(isinstance(p, Problem) and p.severity == "error" for p in caught.value.problems)


def test_invalid_toml_is_one_problem_with_the_line(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("[pins]\nback = \n")
    [problem] = check(path)
    assert problem.key == "" and "not valid TOML" in str(problem) and "line 2" in str(problem)
    with pytest.raises(ConfigError, match="not valid TOML"):
        load(path)


def test_check_of_a_config_object_finds_meaning_problems():
    broken = replace(Config(), pins=replace(Config().pins, back=22))
    assert [p.key for p in check(broken)] == ["pins.back"]
