"""The kit's configuration: one TOML file, a dataclass tree with defaults, and a checker.

The same pin map drives the daemon, the wiring diagrams and the maker's self-test, so a
mistake here is a mistake in copper: ``check`` names every problem with its key path and a
fix, instead of stopping at the first. A missing file means the built-in defaults (the kit as
documented in ``hw/config.example.toml``), and ``Config.source`` says so.
"""

from __future__ import annotations

import difflib
import math
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from haleakala.hal.events import BEACHES, Disc
from haleakala.hal.zones import DEFAULT_ZONES, SEGMENTS, ZONES
from haleakala.kit.budget import budget
from haleakala.rules.game import VARIANTS

DEFAULT_PATH = Path("/etc/haleakala/config.toml")
ENV_PATH = "HALEAKALA_CONFIG"
"""Environment variable naming the config file (the daemon's ``--config`` wins over it)."""

HARDWARE = ("auto", "sim", "pi")
MODELS = ("pi3", "pi4", "pi5", "zero2w")
KITS = ("buttons", "rfid")
DRIVERS = ("ssd1306", "sh1106")
PIXEL_ORDERS = ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR")

MAX_FILE_BYTES = 64 * 1024
"""A config is a few kilobytes (the commented example is 6 KiB); anything bigger is the wrong
file (``--config /dev/zero``, a log, an image) and is refused before it is read whole."""
MAX_DEPTH = 8
"""Tables and arrays nest at most 4 deep in a real config ([leds.zones] lists); deeper input is
refused with this limit instead of exhausting the parser's recursion."""
MAX_TEXT = 1024
"""Longest string value (a path or a port); PATH_MAX is 4096, a real one is far shorter."""
NAME_MAX = 255
"""Longest file name (one path component) Linux file systems store, in bytes."""
MAX_HOLD_MS = 5000
"""A long press nobody can make would leave undo unreachable."""
BAUD_RANGE = (300, 4_000_000)
I2C_PORTS = range(0, 256)
UID_BYTES = (4, 10)
"""Tag UIDs the Pico reports: ISO 15693 (8 bytes), NTAG (7), MIFARE (4 or 10)."""

HEADER_GPIOS = range(0, 28)
"""BCM GPIOs on the 40-pin header of every supported model."""
HAT_EEPROM_GPIOS = (0, 1)
I2C1_GPIOS = (2, 3)
SPI0_GPIOS = (7, 8, 9, 10, 11)
SPI_LED_GPIO = 10
PWM_LED_GPIO = 18


# --------------------------------------------------------------------------- the tree


@dataclass(frozen=True)
class PinsConfig:
    """BCM GPIO numbers of everything wired to the Pi."""

    encoder_a: int = 17
    encoder_b: int = 27
    encoder_push: int = 22
    back: int = 23
    beach0: int = 5
    beach1: int = 6
    beach2: int = 13
    beach3: int = 19
    beach4: int = 26
    beach5: int = 21
    led_data: int = 10

    def beach(self, index: int) -> int:
        return int(getattr(self, f"beach{index}"))


@dataclass(frozen=True)
class LedsConfig:
    pixels_per_ring: int = 12
    ring_order: tuple[int, ...] = tuple(range(SEGMENTS))
    pixel_order: str = "GRB"
    brightness: float = 0.3
    current_limit_ma: float = 1800
    supply_ma: float = 4000
    """Rating of the one 5 V supply that feeds the rings, the Pi, the OLED and the RFID Pico."""
    zones: dict[str, tuple[int, ...]] = field(default_factory=lambda: dict(DEFAULT_ZONES))


@dataclass(frozen=True)
class DisplayConfig:
    driver: str = "ssd1306"
    i2c_port: int = 1
    address: int = 0x3C
    rotate: int = 0


@dataclass(frozen=True)
class RfidConfig:
    port: str = "auto"
    baud: int = 115200


@dataclass(frozen=True)
class InputsConfig:
    bounce_ms: float = 20
    hold_ms: float = 800


@dataclass(frozen=True)
class Config:
    hardware: str = "auto"
    model: str = "pi4"
    kit: str = "buttons"
    state_dir: Path = Path("/var/lib/haleakala")
    variant: str = "base"
    pins: PinsConfig = field(default_factory=PinsConfig)
    leds: LedsConfig = field(default_factory=LedsConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    rfid: RfidConfig = field(default_factory=RfidConfig)
    inputs: InputsConfig = field(default_factory=InputsConfig)
    tags: dict[str, Disc] = field(default_factory=dict)
    """Normalised tag UID (upper-case hex, no separators) -> the disc it is glued into."""
    source: Path | None = field(default=None, compare=False)
    """The file this came from; None when built-in defaults were used."""
    note: str = field(default="", compare=False)
    """Why the defaults were used (no file at the default path), for the daemon's log."""

    def buttons_in_use(self) -> dict[str, int]:
        """Button name -> GPIO for the buttons this kit has."""
        used = {"select": self.pins.encoder_push, "back": self.pins.back}
        if self.kit == "buttons":
            used.update({f"beach{b}": self.pins.beach(b) for b in range(BEACHES)})
        return used

    def pins_in_use(self) -> dict[str, int]:
        """Config key -> GPIO for every pin this kit wires (beach pins only on the buttons kit)."""
        names = ["encoder_a", "encoder_b", "encoder_push", "back"]
        if self.kit == "buttons":
            names += [f"beach{b}" for b in range(BEACHES)]
        names.append("led_data")
        return {f"pins.{n}": getattr(self.pins, n) for n in names}


# --------------------------------------------------------------------------- problems


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a config: where (key path), what, and how to fix it."""

    key: str
    message: str
    hint: str
    severity: str = "error"  # or "warning": worth knowing, does not stop the daemon

    def __str__(self) -> str:
        prefix = "warning: " if self.severity == "warning" else ""
        where = f"{self.key}: " if self.key else ""
        # One problem, one line, whatever a parser's message or a quoted key held.
        return " ".join(f"{prefix}{where}{self.message}; {self.hint}".splitlines())


class ConfigError(Exception):
    """A config with mistakes: every problem, one line each."""

    def __init__(self, problems: list[Problem], source: Path | None = None) -> None:
        self.problems = problems
        self.source = source
        where = str(source) if source else "config"
        lines = [f"{where}: {len(problems)} problem(s):", *(f"  {p}" for p in problems)]
        super().__init__("\n".join(lines))


def errors(problems: list[Problem]) -> list[Problem]:
    return [p for p in problems if p.severity == "error"]


def normalise_uid(uid: str) -> str:
    """Tag UIDs compare as upper-case hex without separators: ``04:a1:b2`` == ``04A1B2``."""
    return "".join(ch for ch in uid if ch not in ":- ").upper()


# --------------------------------------------------------------------------- structure


_SECTIONS: dict[str, type] = {
    "pins": PinsConfig,
    "leds": LedsConfig,
    "display": DisplayConfig,
    "rfid": RfidConfig,
    "inputs": InputsConfig,
}
_TOP_SCALARS = ("hardware", "model", "kit", "state_dir", "variant")
_TOP_KEYS = (*_TOP_SCALARS, *_SECTIONS, "tags")

_KIND_WORDS = {
    "int": "an integer",
    "number": "a number",
    "str": "a string",
    "ints": "a list of integers",
    "table": "a table",
}


def _kind_of(cls: type, name: str) -> str:
    """The TOML kind a field takes, read from its annotation (strings: postponed annotations)."""
    annotation = str(next(f for f in fields(cls) if f.name == name).type)
    if annotation.startswith("tuple[int"):
        return "ints"
    if annotation.startswith("dict"):
        return "table"
    return {"int": "int", "float": "number", "str": "str", "bool": "bool"}[annotation]


def _type_ok(kind: str, value: Any) -> bool:
    if isinstance(value, bool):
        return kind == "bool"
    if kind == "int":
        return isinstance(value, int)
    if kind == "number":
        return isinstance(value, int | float)
    if kind == "str":
        return isinstance(value, str)
    if kind == "ints":
        return isinstance(value, list) and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value
        )
    if kind == "table":
        return isinstance(value, dict)
    return False


def _describe(value: Any) -> str:
    kind = {
        bool: "boolean",
        int: "integer",
        float: "number",
        str: "string",
        list: "list",
        dict: "table",
    }.get(type(value), type(value).__name__)
    text = repr(value)
    return f"{kind} {text if len(text) <= 40 else text[:37] + '...'}"


def _key_text(key: str) -> str:
    """A key as the user can find it in the file: bare keys as written, anything else quoted,
    escaped and shortened, so that one problem stays one readable line."""
    if key and len(key) <= 40 and all(c.isascii() and (c.isalnum() or c in "_-:") for c in key):
        return key
    text = repr(key)
    return text if len(text) <= 40 else text[:37] + "..."


def _text_problem(key: str, value: str) -> Problem | None:
    """A string the daemon hands to the OS or the screen: no control characters (a NUL in a
    path crashes ``mkdir``), and no novel-length values."""
    for i, ch in enumerate(value):
        if ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0:
            return Problem(
                key,
                f"contains the control character {ch!r} at position {i}",
                "remove it (escapes like \\u0000 or \\n do not belong in this value)",
            )
    if len(value) > MAX_TEXT:
        return Problem(
            key, f"is {len(value)} characters long", f"keep it under {MAX_TEXT} characters"
        )
    return None


def _number_problem(key: str, value: Any, default: Any) -> Problem | None:
    """NaN passes every comparison check unnoticed and infinity never arrives (``hold_ms =
    inf``: undo unreachable); an integer too big for a float crashes ``float()``."""
    try:
        finite = math.isfinite(float(value))
    except OverflowError:
        finite = False
    if not finite:
        shown = value if isinstance(value, float) else _short_int(value)
        return Problem(
            key,
            f"{shown} is not a finite number",
            f"write a plain number such as the default {_toml_value(default)}",
        )
    return None


def _unknown(key: str, known: tuple[str, ...] | list[str], where: str) -> Problem:
    shown = _key_text(key)
    path = f"{where}.{shown}" if where else shown
    close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
    close = close or [k for k in known if k.startswith(key) or key.startswith(k)][:1]
    hint = f"did you mean {close[0]!r}?" if close else f"known keys: {', '.join(known)}"
    return Problem(path, "unknown key", hint)


def _build_section(cls: type, raw: Any, where: str, problems: list[Problem]) -> Any:
    default = cls()
    if not isinstance(raw, dict):
        problems.append(
            Problem(
                where,
                f"expected a table [{where}], got {_describe(raw)}",
                f"write it as a [{where}] section",
            )
        )
        return default
    names = [f.name for f in fields(cls)]
    values: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in names:
            problems.append(_unknown(key, names, where))
            continue
        kind = _kind_of(cls, key)
        if not _type_ok(kind, value):
            problems.append(
                Problem(
                    f"{where}.{key}",
                    f"expected {_KIND_WORDS[kind]}, got {_describe(value)}",
                    f"default is {_toml_value(getattr(default, key))}",
                )
            )
            continue
        bad = (
            _number_problem(f"{where}.{key}", value, getattr(default, key))
            if kind == "number"
            else _text_problem(f"{where}.{key}", value)
            if kind == "str"
            else None
        )
        if bad is not None:
            problems.append(bad)
            continue
        if kind == "ints":
            value = tuple(value)
        if cls is LedsConfig and key == "zones":
            value = _build_zones(value, problems)
        values[key] = value
    return replace(default, **values)


def _build_zones(raw: dict, problems: list[Problem]) -> dict[str, tuple[int, ...]]:
    zones: dict[str, tuple[int, ...]] = {}
    for zone, indices in raw.items():
        if zone not in ZONES:
            problems.append(_unknown(zone, ZONES, "leds.zones"))
            continue
        if not _type_ok("ints", indices):
            problems.append(
                Problem(
                    f"leds.zones.{zone}",
                    f"expected a list of pixel indices, got {_describe(indices)}",
                    f"e.g. {zone} = {list(DEFAULT_ZONES[zone])}",
                )
            )
            continue
        zones[zone] = tuple(indices)
    return zones


def _build_tags(raw: Any, problems: list[Problem]) -> dict[str, Disc]:
    if not isinstance(raw, dict):
        problems.append(
            Problem(
                "tags",
                f"expected a table [tags], got {_describe(raw)}",
                'write lines like "04A1B2C3" = "red3" under [tags]',
            )
        )
        return {}
    tags: dict[str, Disc] = {}
    first_key: dict[str, str] = {}
    disc_key: dict[Disc, str] = {}
    for key, name in raw.items():
        path = f"tags.{_key_text(key)}"
        uid = normalise_uid(key)
        if not uid or len(uid) % 2 or any(c not in "0123456789ABCDEF" for c in uid):
            problems.append(
                Problem(
                    path,
                    f"tag UID {_key_text(key) if len(key) > 38 else repr(key)} is not "
                    "hexadecimal bytes",
                    "copy the UID printed by the enrolment tool, e.g. 04A1B2C3",
                )
            )
            continue
        if not UID_BYTES[0] <= len(uid) // 2 <= UID_BYTES[1]:
            problems.append(
                Problem(
                    path,
                    f"tag UID has {len(uid) // 2} bytes; tags have "
                    f"{UID_BYTES[0]} to {UID_BYTES[1]}",
                    "copy the UID printed by the enrolment tool, e.g. E0040150A1B2C3D4",
                )
            )
            continue
        if not isinstance(name, str):
            problems.append(
                Problem(
                    path,
                    f"expected a disc name, got {_describe(name)}",
                    'write it as "red3" or "yellow*"',
                )
            )
            continue
        try:
            disc: Disc | None = Disc.parse(name)
        except ValueError:
            disc = None
        if disc is None or disc.name != name:
            close = disc.name if disc is not None else name.strip().lower()
            hint = f"write it as {close!r}: " if close != name and _disc_name(close) else ""
            problems.append(
                Problem(
                    path,
                    f"unknown disc name {_describe(name).removeprefix('string ')}",
                    f"{hint}discs are red1..red5, yellow1..yellow5, red* and yellow* (invocation)",
                )
            )
            continue
        if uid in first_key:
            problems.append(
                Problem(
                    path,
                    f"same tag as tags.{first_key[uid]}",
                    "a tag UID may appear once: delete one of them",
                )
            )
            continue
        if disc in disc_key:
            problems.append(
                Problem(
                    path,
                    f"disc {disc.name} is also mapped to tags.{disc_key[disc]}",
                    "each disc has one tag: remove the old line or fix the disc name",
                )
            )
            continue
        first_key[uid] = key
        disc_key[disc] = key
        tags[uid] = disc
    return tags


def _disc_name(text: str) -> bool:
    try:
        return Disc.parse(text).name == text
    except ValueError:
        return False


def _build(raw: Mapping[str, Any], problems: list[Problem]) -> Config:
    config = Config()
    top: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in _TOP_KEYS:
            problems.append(_unknown(key, _TOP_KEYS, ""))
        elif key in _SECTIONS:
            top[key] = _build_section(_SECTIONS[key], value, key, problems)
        elif key == "tags":
            top[key] = _build_tags(value, problems)
        elif not isinstance(value, str):
            problems.append(
                Problem(
                    key,
                    f"expected a string, got {_describe(value)}",
                    f"default is {_toml_value(getattr(config, key))}",
                )
            )
        elif (bad := _text_problem(key, value)) is not None:
            problems.append(bad)
        else:
            top[key] = Path(value) if key == "state_dir" else value
    return replace(config, **top)


# --------------------------------------------------------------------------- meaning


def _one_of(
    problems: list[Problem], key: str, value: str, allowed: tuple[str, ...], why: str
) -> None:
    if value not in allowed:
        same_but_case = [a for a in allowed if a.casefold() == value.casefold()]
        close = same_but_case or difflib.get_close_matches(value, allowed, n=1, cutoff=0.75)
        hint = f"did you mean {close[0]!r}? " if close else ""
        if same_but_case:
            hint += "(the case matters) "
        shown = _describe(value).removeprefix("string ")
        problems.append(Problem(key, f"{shown} is not one of {', '.join(allowed)}", f"{hint}{why}"))


def _check_meaning(c: Config, supply: bool = True) -> list[Problem]:
    p: list[Problem] = []
    # A Config built in code skipped the file checks: its numbers must be finite too.
    for section, cls in _SECTIONS.items():
        for f in fields(cls):
            if _kind_of(cls, f.name) == "number":
                value = getattr(getattr(c, section), f.name)
                bad = _number_problem(f"{section}.{f.name}", value, getattr(cls(), f.name))
                if bad is not None:
                    p.append(bad)
    if p:
        return p
    _one_of(p, "hardware", c.hardware, HARDWARE, "auto picks pi on a Raspberry Pi, else sim")
    _one_of(p, "model", c.model, MODELS, "the Raspberry Pi under the island")
    _one_of(p, "kit", c.kit, KITS, "buttons: one button per beach; rfid: tags read by a Pico")
    if not c.variant:
        p.append(Problem("variant", "is empty", 'use "base" for the standard rules'))
    else:
        _one_of(p, "variant", c.variant, VARIANTS, '"base" is the rulebook\'s standard game')
    if not str(c.state_dir) or str(c.state_dir) == ".":
        p.append(Problem("state_dir", "is empty", "use /var/lib/haleakala"))
    elif not c.state_dir.is_absolute():
        p.append(
            Problem(
                "state_dir",
                f"{_describe(str(c.state_dir)).removeprefix('string ')} is a relative path, "
                "which depends on where the daemon happens to start",
                "write an absolute path such as /var/lib/haleakala",
            )
        )
    elif any(len(part.encode()) > NAME_MAX for part in c.state_dir.parts):
        p.append(
            Problem(
                "state_dir",
                f"has a directory name longer than {NAME_MAX} bytes, which no Linux file "
                "system stores",
                "shorten it, e.g. /var/lib/haleakala",
            )
        )
    p += _check_pins(c)
    p += _check_leds(c.leds)
    p += _check_display(c.display)
    if c.rfid.baud <= 0:
        p.append(
            Problem(
                "rfid.baud",
                f"baud rate {_short_int(c.rfid.baud)} must be positive",
                "the Pico firmware talks at 115200",
            )
        )
    elif not BAUD_RANGE[0] <= c.rfid.baud <= BAUD_RANGE[1]:
        p.append(
            Problem(
                "rfid.baud",
                f"baud rate {_short_int(c.rfid.baud)} is outside {BAUD_RANGE[0]}..{BAUD_RANGE[1]}",
                "the Pico firmware talks at 115200",
            )
        )
    if not c.rfid.port:
        p.append(Problem("rfid.port", "is empty", 'use "auto" or a path like /dev/ttyACM0'))
    if not 1 <= c.inputs.bounce_ms <= 200:
        p.append(
            Problem(
                "inputs.bounce_ms",
                f"{c.inputs.bounce_ms} ms is outside 1..200",
                "20 ms suits ordinary tactile buttons",
            )
        )
    if c.inputs.hold_ms <= c.inputs.bounce_ms:
        p.append(
            Problem(
                "inputs.hold_ms",
                f"{c.inputs.hold_ms} ms is not longer than inputs.bounce_ms",
                "a long press must outlast contact bounce: 800 ms is usual",
            )
        )
    elif c.inputs.hold_ms > MAX_HOLD_MS:
        p.append(
            Problem(
                "inputs.hold_ms",
                f"{c.inputs.hold_ms:g} ms is longer than anyone holds a button "
                f"(at most {MAX_HOLD_MS} ms), so undo could never be reached",
                "800 ms is usual",
            )
        )
    if supply and not any(pr.key.startswith(("leds.", "model", "kit")) for pr in p):
        p += _check_supply(c)
    return p


def _short_int(value: int) -> str:
    text = str(value)
    return text if len(text) <= 12 else f"{text[:6]}...({len(text)} digits)"


def _check_supply(c: Config) -> list[Problem]:
    """The 5 V supply (``leds.supply_ma``) must carry the kit's peak: the LEDs at the
    configured brightness and current limit, the Pi model, the OLED and the RFID kit. The
    figures are ``haleakala power``'s, computed by the daemon's own frame functions."""
    b = budget(c)
    fix = (
        f"fit a 5 V supply of at least {b.recommended_supply_ma / 1000:g} A and set "
        "leds.supply_ma to its rating, or lower leds.current_limit_ma / leds.brightness "
        "(details: haleakala power)"
    )
    if b.supply_ma < b.peak_ma:
        return [
            Problem(
                "leds.supply_ma",
                f"the {b.supply_ma:g} mA supply cannot carry the kit's "
                f"{math.ceil(b.peak_ma)} mA peak ({b.model} {math.ceil(b.pi_ma)}, LEDs "
                f"{math.ceil(b.led_max_ma)}, OLED {math.ceil(b.oled_ma)}"
                + (f", RFID {math.ceil(b.rfid_ma)}" if b.rfid_ma else "")
                + " mA): the Pi would brown out",
                fix,
            )
        ]
    if b.supply_ma < b.needed_ma:
        return [
            Problem(
                "leds.supply_ma",
                f"the {b.supply_ma:g} mA supply leaves {b.headroom:.0%} headroom over the "
                f"kit's {math.ceil(b.peak_ma)} mA peak, less than 10%",
                fix,
                "warning",
            )
        ]
    return []


def _check_pins(c: Config) -> list[Problem]:
    p: list[Problem] = []
    used = c.pins_in_use()
    owner: dict[int, str] = {}
    for key, gpio in used.items():
        if gpio not in HEADER_GPIOS:
            p.append(
                Problem(
                    key,
                    f"GPIO {_short_int(gpio)} does not exist on a {c.model}",
                    "the 40-pin header has BCM GPIO 0..27",
                )
            )
            continue
        if gpio in owner:
            p.append(
                Problem(
                    key,
                    f"GPIO {gpio} is also {owner[gpio]}",
                    "every device needs its own pin: pick a free GPIO",
                )
            )
            continue
        owner[gpio] = key
        if gpio in HAT_EEPROM_GPIOS:
            p.append(
                Problem(
                    key,
                    f"GPIO {gpio} is a HAT ID EEPROM pin (ID_SD/ID_SC)",
                    "it works, but a HAT on the header would clash: prefer 4..27",
                    "warning",
                )
            )
        if gpio in I2C1_GPIOS and c.display.i2c_port == 1:
            p.append(
                Problem(
                    key,
                    f"GPIO {gpio} is I2C1 {'SDA' if gpio == 2 else 'SCL'}, which the OLED needs",
                    "move this to a free GPIO",
                )
            )
    led = c.pins.led_data
    if c.model in MODELS and c.model != "pi5" and led in HEADER_GPIOS:
        if led not in (SPI_LED_GPIO, PWM_LED_GPIO):
            p.append(
                Problem(
                    "pins.led_data",
                    f"GPIO {led} cannot drive NeoPixels on a {c.model}",
                    "use 10 (SPI0 MOSI, no root needed) or 18 (PWM, needs root)",
                )
            )
        elif led == PWM_LED_GPIO:
            p.append(
                Problem(
                    "pins.led_data",
                    "GPIO 18 drives the LEDs by PWM, which needs root and disables analogue audio",
                    "use 10 (SPI0 MOSI) so the daemon runs without root",
                    "warning",
                )
            )
        else:
            for key, gpio in used.items():
                if key != "pins.led_data" and gpio in SPI0_GPIOS and gpio != led:
                    p.append(
                        Problem(
                            key,
                            f"GPIO {gpio} is on SPI0, which the LED chain on "
                            f"GPIO {led} needs for itself on a {c.model}",
                            "keep GPIO 7, 8, 9 and 11 free: pick another GPIO",
                        )
                    )
    return p


def _check_leds(leds: LedsConfig) -> list[Problem]:
    p: list[Problem] = []
    ppr = leds.pixels_per_ring
    if not 1 <= ppr <= 256:
        p.append(
            Problem(
                "leds.pixels_per_ring",
                f"{_short_int(ppr)} is outside 1..256",
                "count the pixels of one ring (12, 16 or 24 are common)",
            )
        )
    if sorted(leds.ring_order) != list(range(SEGMENTS)):
        p.append(
            Problem(
                "leds.ring_order",
                f"{_describe(list(leds.ring_order)).removeprefix('list ')} does not list "
                "segments 0..5 once each",
                "write the segment under each ring in chain order, e.g. [0, 1, 2, 3, 4, 5]",
            )
        )
    _one_of(
        p,
        "leds.pixel_order",
        leds.pixel_order,
        PIXEL_ORDERS,
        "WS2812B rings are GRB; try RGB if red and green are swapped",
    )
    if not 0 <= leds.brightness <= 1:
        p.append(
            Problem(
                "leds.brightness",
                f"{leds.brightness} is outside 0..1",
                "0.3 is bright enough indoors",
            )
        )
    if leds.supply_ma <= 0:
        p.append(
            Problem(
                "leds.supply_ma",
                f"{leds.supply_ma} mA must be positive",
                "write the rating of the 5 V supply that feeds the rings and the Pi",
            )
        )
    if leds.current_limit_ma <= 0:
        p.append(
            Problem(
                "leds.current_limit_ma",
                f"{leds.current_limit_ma} mA must be positive",
                "e.g. 1800 (the Pi keeps the rest of the supply)",
            )
        )
    owner: dict[int, str] = {}
    for zone, indices in leds.zones.items():
        for n, i in enumerate(indices):
            key = f"leds.zones.{zone}[{n}]"
            if not 0 <= i < max(ppr, 1):
                p.append(
                    Problem(
                        key,
                        f"pixel {_short_int(i)} is past the end of a {ppr}-pixel ring",
                        f"use 0..{ppr - 1} or change leds.pixels_per_ring",
                    )
                )
            elif i in owner:
                p.append(
                    Problem(
                        key,
                        f"pixel {i} is also in leds.zones.{owner[i]}",
                        "a pixel belongs to one zone: remove it from one list",
                    )
                )
            else:
                owner[i] = zone
    return p


def _check_display(d: DisplayConfig) -> list[Problem]:
    p: list[Problem] = []
    _one_of(
        p,
        "display.driver",
        d.driver,
        DRIVERS,
        "the 0.96-inch panels are ssd1306, most 1.3-inch ones sh1106",
    )
    if d.i2c_port not in I2C_PORTS:
        p.append(
            Problem(
                "display.i2c_port",
                f"{_short_int(d.i2c_port)} is not a bus number 0..{I2C_PORTS[-1]}",
                "the header's I2C bus is 1 (/dev/i2c-1)",
            )
        )
    if not 0x03 <= d.address <= 0x77:
        p.append(
            Problem(
                "display.address",
                f"{d.address:#x} is not a 7-bit I2C address"
                if abs(d.address) < 2**32
                else f"{_short_int(d.address)} is not a 7-bit I2C address",
                "OLEDs answer at 0x3C (or 0x3D): run i2cdetect -y 1",
            )
        )
    if d.rotate not in (0, 2):
        p.append(
            Problem(
                "display.rotate",
                f"{_short_int(d.rotate)} is not 0 or 2",
                "scenes are drawn landscape 128x64: 0 upright, 2 upside down",
            )
        )
    return p


# --------------------------------------------------------------------------- entry points


def _too_deep(raw: Any) -> bool:
    """Whether tables and arrays nest deeper than ``MAX_DEPTH`` (walked without recursion)."""
    stack = [(raw, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            return True
        children = value.values() if isinstance(value, dict) else value
        stack += [(v, depth + 1) for v in children if isinstance(v, dict | list)]
    return False


_TOO_DEEP = Problem(
    "",
    f"tables or arrays nest more than {MAX_DEPTH} levels deep",
    "a config nests at most 4 ([leds.zones] lists): remove the extra brackets",
)


def _parse(text: str) -> tuple[dict[str, Any] | None, list[Problem]]:
    """TOML text to a dict, or the one problem that stops it, never an exception: the
    parser's recursion, its integer-length limit and its syntax errors all become sentences."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return None, [Problem("", f"not valid TOML: {exc}", "fix the syntax at that line")]
    except RecursionError:
        return None, [_TOO_DEEP]
    except ValueError as exc:  # "Exceeds the limit (4300 digits) for integer string conversion"
        return None, [
            Problem("", f"a value cannot be read: {str(exc).split(':')[0]}", "shorten it")
        ]
    if _too_deep(raw):
        return None, [_TOO_DEEP]
    return raw, []


def _read(path: Path) -> tuple[dict[str, Any] | None, list[Problem]]:
    try:
        with path.open("rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        return None, [
            Problem(
                "",
                f"cannot read {path}: {exc.strerror or exc}",
                "check the path and that this user may read it",
            )
        ]
    if len(data) > MAX_FILE_BYTES:
        return None, [
            Problem(
                "",
                f"{path} is larger than {MAX_FILE_BYTES // 1024} KiB",
                "a config is a few kilobytes: name the right file (see hw/config.example.toml)",
            )
        ]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, [Problem("", f"not UTF-8 text: {exc}", "save the file as UTF-8")]
    return _parse(text)


def from_dict(
    raw: Mapping[str, Any], source: Path | None = None, *, supply: bool = True
) -> tuple[Config, list[Problem]]:
    """Build a config from parsed TOML; returns it (broken keys at defaults) and every problem.

    ``supply=False`` leaves out the supply check, for ``haleakala power``, which explains it.
    """
    if _too_deep(raw):
        return Config(source=source), [_TOO_DEEP]
    problems: list[Problem] = []
    config = replace(_build(raw, problems), source=source)
    return config, problems + _check_meaning(config, supply)


def loads(text: str, source: Path | None = None) -> Config:
    """Parse TOML text; raise ``ConfigError`` listing every error."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        raise ConfigError(
            [Problem("", f"the text is larger than {MAX_FILE_BYTES // 1024} KiB", "shorten it")],
            source,
        )
    raw, problems = _parse(text)
    if raw is None:
        raise ConfigError(problems, source)
    config, problems = from_dict(raw, source)
    if errors(problems):
        raise ConfigError(errors(problems), source)
    return config


def resolve_path(path: str | os.PathLike[str] | None = None) -> tuple[Path, bool]:
    """Which file to read and whether the user named it (argument, then env, then default)."""
    if path is not None:
        return Path(path), True
    if os.environ.get(ENV_PATH):
        return Path(os.environ[ENV_PATH]), True
    return DEFAULT_PATH, False


def load(path: str | os.PathLike[str] | None = None, *, supply: bool = True) -> Config:
    """Load the config. No file at the default path means built-in defaults (``note`` says so);
    a file named explicitly (argument or ``HALEAKALA_CONFIG``) must exist.

    Raises ``FileNotFoundError`` for a missing named file and ``ConfigError`` for mistakes.
    """
    target, explicit = resolve_path(path)
    if not target.exists():
        if explicit:
            raise FileNotFoundError(f"config file {target} does not exist")
        return Config(note=f"no config file at {target}: using built-in defaults")
    raw, problems = _read(target)
    if raw is None:
        raise ConfigError(problems, target)
    config, problems = from_dict(raw, target, supply=supply)
    if errors(problems):
        raise ConfigError(errors(problems), target)
    return config


def check_text(text: str) -> list[Problem]:
    """Every problem (errors and warnings) of config text, as ``check`` finds them in a file."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        return [Problem("", f"the text is larger than {MAX_FILE_BYTES // 1024} KiB", "shorten it")]
    raw, problems = _parse(text)
    return problems if raw is None else from_dict(raw)[1]


def check(config_or_path: Config | str | os.PathLike[str]) -> list[Problem]:
    """Every problem (errors and warnings) of a config object or a config file."""
    if isinstance(config_or_path, Config):
        return _check_meaning(config_or_path)
    target = Path(config_or_path)
    raw, problems = _read(target)
    if raw is None:
        return problems
    return from_dict(raw, target)[1]


# --------------------------------------------------------------------------- back to TOML


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, Path | str):
        text = str(value)
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, tuple | list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {value!r} as TOML")


def to_toml(config: Config) -> str:
    """The effective config as TOML; ``loads(to_toml(c)) == c``."""
    lines = [f"{k} = {_toml_value(getattr(config, k))}" for k in _TOP_SCALARS]
    for section, cls in _SECTIONS.items():
        part = getattr(config, section)
        lines += ["", f"[{section}]"]
        for f in fields(cls):
            value = getattr(part, f.name)
            if f.name == "zones":
                continue
            text = f"{value:#04x}" if f.name == "address" else _toml_value(value)
            lines.append(f"{f.name} = {text}")
        if section == "leds":
            lines += ["", "[leds.zones]"]
            lines += [f"{z} = {_toml_value(list(i))}" for z, i in config.leds.zones.items()]
    lines += ["", "[tags]"]
    lines += [f'"{uid}" = "{disc.name}"' for uid, disc in config.tags.items()]
    return "\n".join(lines) + "\n"
