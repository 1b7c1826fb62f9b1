"""``haleakala wiring``: wiring diagrams and the pin table, generated from the config's pin map.

The daemon opens its devices on the GPIOs named in ``[pins]``; the Pico firmware on the pins in
``firmware/haleakala_pico/config.py``. This module reads both and writes:

- ``haleakala.yml`` — the harness as WireViz YAML (every part, pin and wire);
- ``haleakala.svg`` / ``haleakala.png`` — WireViz's drawing of it (needs graphviz's ``dot``);
- ``PINS.md`` — the same connections as Markdown tables, header pin by header pin.

One drawing holds both kits: the Pi side (LED chain, OLED, encoder, back button), the beach
buttons (buttons kit; left out when the config says ``kit = "rfid"``), and the Pico with its
six readers on USB (RFID kit; it uses no Pi GPIO, so it never clashes with the buttons).

Reproducibility: the YAML and PINS.md are pure functions of the two configs, byte for byte.
The SVG and PNG are graphviz's layout of the YAML; on one machine they are byte-for-byte
reproducible (graphviz's version comment is stripped), but layout and font metrics change
between graphviz versions and installed fonts, so comparing them byte for byte across
machines would fail for reasons that have nothing to do with wiring. Instead each drawing
carries the SHA-256 of the YAML it was drawn from (an SVG comment, a PNG ``tEXt`` chunk), and
``--check`` verifies YAML and PINS.md byte for byte and that both drawings were drawn from
that very YAML. ``--check`` needs no graphviz.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import re
import runpy
import shutil
import struct
import sys
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from haleakala.cli import UsageError, add_config_option
from haleakala.config import Config
from haleakala.hal.base import SEGMENTS
from haleakala.kit.common import REPO_ROOT, default_config_for_docs, write_if_changed

DEFAULT_OUT = REPO_ROOT / "wiring"
FIRMWARE_CONFIG = REPO_ROOT / "firmware" / "haleakala_pico" / "config.py"
STEM = "haleakala"
YAML_NAME = f"{STEM}.yml"
SVG_NAME = f"{STEM}.svg"
PNG_NAME = f"{STEM}.png"
PINS_NAME = "PINS.md"
STAMP_KEY = "haleakala-source-sha256"

MODEL_NAMES = {
    "pi3": "Raspberry Pi 3",
    "pi4": "Raspberry Pi 4",
    "pi5": "Raspberry Pi 5",
    "zero2w": "Raspberry Pi Zero 2 W",
}

# --------------------------------------------------------------------------- the two boards

PI_HEADER: dict[int, str] = {
    1: "3V3", 2: "5V", 3: "GPIO2", 4: "5V", 5: "GPIO3", 6: "GND", 7: "GPIO4", 8: "GPIO14",
    9: "GND", 10: "GPIO15", 11: "GPIO17", 12: "GPIO18", 13: "GPIO27", 14: "GND",
    15: "GPIO22", 16: "GPIO23", 17: "3V3", 18: "GPIO24", 19: "GPIO10", 20: "GND",
    21: "GPIO9", 22: "GPIO25", 23: "GPIO11", 24: "GPIO8", 25: "GND", 26: "GPIO7",
    27: "GPIO0", 28: "GPIO1", 29: "GPIO5", 30: "GND", 31: "GPIO6", 32: "GPIO12",
    33: "GPIO13", 34: "GND", 35: "GPIO19", 36: "GPIO16", 37: "GPIO26", 38: "GPIO20",
    39: "GND", 40: "GPIO21",
}  # fmt: skip
"""Physical pin → name on the 40-pin header (the same on every supported model)."""
PI_GPIO_PIN = {int(n[4:]): pin for pin, n in PI_HEADER.items() if n.startswith("GPIO")}
PI_ROLES = {2: "I2C1 SDA", 3: "I2C1 SCL", 10: "SPI0 MOSI", 18: "PWM0"}

PICO_PINS: dict[int, str] = {
    1: "GP0", 2: "GP1", 3: "GND", 4: "GP2", 5: "GP3", 6: "GP4", 7: "GP5", 8: "GND",
    9: "GP6", 10: "GP7", 11: "GP8", 12: "GP9", 13: "GND", 14: "GP10", 15: "GP11",
    16: "GP12", 17: "GP13", 18: "GND", 19: "GP14", 20: "GP15", 21: "GP16", 22: "GP17",
    23: "GND", 24: "GP18", 25: "GP19", 26: "GP20", 27: "GP21", 28: "GND", 29: "GP22",
    30: "RUN", 31: "GP26", 32: "GP27", 33: "GND", 34: "GP28", 35: "ADC_VREF",
    36: "3V3(OUT)", 37: "3V3_EN", 38: "GND", 39: "VSYS", 40: "VBUS",
}  # fmt: skip
"""Pico physical pin → name."""
PICO_GP_PIN = {int(n[2:]): pin for pin, n in PICO_PINS.items() if n.startswith("GP")}
PICO_USB = "USB"
"""The Pico's micro-USB socket, drawn as one more pin of the Pico."""


# --------------------------------------------------------------------------- Pico side


@dataclass(frozen=True)
class PicoReader:
    kind: str
    cs: int
    busy: int | None
    rst: int


@dataclass(frozen=True)
class PicoPins:
    """Pico GPIOs of the reader bus, as the firmware's config.py defines them."""

    sck: int
    mosi: int
    miso: int
    readers: tuple[PicoReader, ...]
    source: str


FALLBACK_PICO = PicoPins(
    sck=18,
    mosi=19,
    miso=16,
    readers=tuple(
        PicoReader("pn5180", cs, busy, rst)
        for cs, busy, rst in ((17, 2, 3), (20, 4, 5), (21, 6, 7), (22, 8, 9), (26, 10, 11),
                              (27, 12, 13))
    ),
    source="built-in defaults (no firmware/haleakala_pico/config.py)",
)  # fmt: skip
"""Used only when the firmware is not beside the package (an installed wheel); a test keeps
it equal to the firmware's config.py."""


def load_pico_pins(path: Path = FIRMWARE_CONFIG) -> PicoPins:
    """Read the firmware's pin constants (plain assignments, runnable by CPython)."""
    if not path.is_file():
        return FALLBACK_PICO
    try:
        values = runpy.run_path(str(path))
        readers = tuple(
            PicoReader(str(r["kind"]), int(r["cs"]), r.get("busy"), int(r["rst"]))
            for r in values["READERS"]
        )
        pins = PicoPins(
            int(values["SPI_SCK"]), int(values["SPI_MOSI"]), int(values["SPI_MISO"]),
            readers, str(path.relative_to(REPO_ROOT) if path.is_relative_to(REPO_ROOT)
                         else path),
        )  # fmt: skip
    except Exception as exc:
        raise UsageError(f"cannot read the Pico pins from {path}: {exc}") from None
    if len(readers) != SEGMENTS:
        raise UsageError(f"{path}: READERS lists {len(readers)} readers, the island has 6")
    used = [pins.sck, pins.mosi, pins.miso]
    for r in readers:
        used += [r.cs, r.rst] + ([r.busy] if r.kind == "pn5180" and r.busy is not None else [])
    bad = sorted({g for g in used if g not in PICO_GP_PIN})
    twice = sorted({g for g in used if used.count(g) > 1})
    if bad or twice:
        problem = f"GPIO {bad} not on the Pico header" if bad else f"GP{twice} used twice"
        raise UsageError(f"{path}: {problem}; fix the reader pins")
    return pins


# --------------------------------------------------------------------------- the harness


@dataclass
class Part:
    """A connector in WireViz terms: a board, module or component with named pins."""

    name: str
    type: str
    pins: list[tuple[str | int, str]]
    kit: str = "both"
    notes: str = ""
    style: str = ""

    def label(self, pin: str | int) -> str:
        return dict(self.pins)[pin]


@dataclass(frozen=True)
class Wire:
    a: str
    a_pin: str | int
    b: str
    b_pin: str | int
    signal: str
    colour: str


@dataclass
class Cable:
    name: str
    wires: list[Wire]
    kit: str = "both"
    notes: str = ""


@dataclass
class Harness:
    title: str
    config: Config
    pico: PicoPins
    parts: dict[str, Part] = field(default_factory=dict)
    cables: list[Cable] = field(default_factory=list)

    def add(self, part: Part) -> Part:
        self.parts[part.name] = part
        return part

    def cable(self, wires: Iterable[Wire], kit: str = "both", notes: str = "") -> None:
        wires = list(wires)
        for w in wires:
            for name, pin in ((w.a, w.a_pin), (w.b, w.b_pin)):
                if pin not in dict(self.parts[name].pins):
                    raise ValueError(f"{name} has no pin {pin!r} (wire {w.signal})")
        self.cables.append(Cable(f"W{len(self.cables) + 1}", wires, kit, notes))


PI = "Raspberry Pi"
PI_POWER = "Pi power input"
PI_USB = "Pi USB port"
SUPPLY = "5 V supply"
SHIFTER = "Level shifter"
RESISTOR = "R1"
CAPACITOR = "C1"
DECOUPLING = "C2"
OLED = "OLED"
ENCODER = "Encoder"
BACK = "Back button"
GROUND_BUS = "Ground bus"
PICO = "Pico"


def ring(pos: int) -> str:
    return f"Ring {pos + 1}"


def beach_button(beach: int) -> str:
    return f"Beach {beach} button"


def reader(beach: int) -> str:
    return f"Reader {beach}"


def _gpio_label(gpio: int) -> str:
    role = PI_ROLES.get(gpio)
    return f"GPIO{gpio} ({role})" if role else f"GPIO{gpio}"


def build(config: Config, pico: PicoPins) -> Harness:
    """Every part and wire of the kit described by ``config`` (and the Pico's pins)."""
    pins = config.pins
    buttons_kit = config.kit == "buttons"
    model = MODEL_NAMES.get(config.model, config.model)
    h = Harness(f"Haleakala companion wiring: {model}, {config.kit} kit", config, pico)

    # Pi header pins used, with the config key that names each GPIO.
    header: dict[int, str] = {}
    gpio_use: dict[int, str] = {
        pins.led_data: "LED data",
        2: "OLED SDA",
        3: "OLED SCL",
        pins.encoder_a: "encoder A",
        pins.encoder_b: "encoder B",
        pins.encoder_push: "encoder push (select)",
        pins.back: "back",
    }
    if buttons_kit:
        gpio_use.update({pins.beach(b): f"beach {b}" for b in range(SEGMENTS)})
    for gpio in gpio_use:
        header[PI_GPIO_PIN[gpio]] = _gpio_label(gpio)
    power_pins = {1: "3V3", 2: "5V", 6: "GND", 9: "GND", 14: "GND", 17: "3V3", 20: "GND"}
    if buttons_kit:
        power_pins[30] = "GND"
    header.update(power_pins)
    h.add(
        Part(
            PI,
            f"{model}, 40-pin header",
            sorted(header.items()),
            notes="Pin numbers are physical header pins; labels give the BCM GPIO.",
        )
    )
    h.add(
        Part(
            PI_POWER,
            "USB-C (Pi 4/5) or micro-USB (Pi 3, Zero 2 W) power input",
            [(1, "VBUS 5V"), (2, "GND")],
            notes="Through a USB pigtail from the supply.",
        )
    )
    h.add(
        Part(SUPPLY, "5 V DC supply (size it with: haleakala power)", [("+", "+5V"), ("-", "GND")])
    )
    h.add(
        Part(
            SHIFTER,
            "74AHCT125 quad buffer, 3.3 V to 5 V",
            [(1, "1OE"), (2, "1A"), (3, "1Y"), (7, "GND"), (14, "VCC")],
            notes="Tie 1OE (1) to GND on the board, and the unused 2OE, 3OE, 4OE "
            "(4, 10, 13) to VCC.",
        )
    )
    h.add(
        Part(
            DECOUPLING,
            "Ceramic 100 nF (decoupling)",
            [(1, "1"), (2, "2")],
            notes="Across the 74AHCT125's VCC (14) and GND (7), leads as short as possible.",
        )
    )
    h.add(
        Part(RESISTOR, "Resistor 390 Ω (330-470 Ω)", [(1, "1"), (2, "2")], notes="At ring 1's DIN.")
    )
    h.add(
        Part(
            CAPACITOR,
            "Electrolytic 1000 µF, 10 V+",
            [("+", "+"), ("-", "-")],
            notes="Across ring 1's 5 V and GND pads; mind the polarity.",
        )
    )
    ppr = config.leds.pixels_per_ring
    for pos, segment in enumerate(config.leds.ring_order):
        h.add(
            Part(
                ring(pos),
                f"NeoPixel ring, {ppr} x WS2812B, under segment {segment}",
                [("DIN", "DIN"), ("5V", "5V"), ("GND", "GND"), ("DOUT", "DOUT")],
            )
        )
    driver = config.display.driver.upper()
    h.add(
        Part(
            OLED,
            f"{driver} 128x64 I2C, address {config.display.address:#04x}",
            [("GND", "GND"), ("VCC", "VCC"), ("SCL", "SCL"), ("SDA", "SDA")],
        )
    )
    h.add(
        Part(
            ENCODER,
            "Rotary encoder with push (KY-040)",
            [
                ("CLK", "CLK (A)"),
                ("DT", "DT (B)"),
                ("SW", "SW (push)"),
                ("+", "+ 3.3V"),
                ("GND", "GND"),
            ],
        )
    )
    h.add(Part(BACK, "Push button (back; hold = undo)", [(1, "1"), (2, "2")]))

    # LED chain: Pi → shifter → resistor → ring 1 → ... ; power straight from the supply.
    h.cable(
        [
            Wire(PI, 2, SHIFTER, 14, "5V", "RD"),
            Wire(PI, 6, SHIFTER, 7, "GND", "BK"),
            Wire(PI, PI_GPIO_PIN[pins.led_data], SHIFTER, 2, "LED data 3.3 V", "WH"),
        ]
    )
    h.cable(
        [
            Wire(SHIFTER, 14, DECOUPLING, 1, "5V", "RD"),
            Wire(SHIFTER, 7, DECOUPLING, 2, "GND", "BK"),
        ],
        notes="On the perfboard, at the chip.",
    )
    h.cable([Wire(SHIFTER, 3, RESISTOR, 1, "LED data 5 V", "WH")])
    h.cable([Wire(RESISTOR, 2, ring(0), "DIN", "LED data 5 V", "WH")])
    h.cable(
        [
            Wire(SUPPLY, "+", CAPACITOR, "+", "+5V", "RD"),
            Wire(SUPPLY, "-", CAPACITOR, "-", "GND", "BK"),
        ]
    )
    h.cable(
        [
            Wire(SUPPLY, "+", ring(0), "5V", "+5V", "RD"),
            Wire(SUPPLY, "-", ring(0), "GND", "GND", "BK"),
        ],
        notes="22 AWG or thicker: carries the LED current.",
    )
    h.cable(
        [Wire(SUPPLY, "+", PI_POWER, 1, "+5V", "RD"), Wire(SUPPLY, "-", PI_POWER, 2, "GND", "BK")],
        notes="Also joins the Pi's ground to the LED ground.",
    )
    for pos in range(SEGMENTS - 1):
        h.cable(
            [
                Wire(ring(pos), "DOUT", ring(pos + 1), "DIN", "LED data", "WH"),
                Wire(ring(pos), "5V", ring(pos + 1), "5V", "+5V", "RD"),
                Wire(ring(pos), "GND", ring(pos + 1), "GND", "GND", "BK"),
            ]
        )
    h.cable(
        [
            Wire(PI, 1, OLED, "VCC", "3V3", "OG"),
            Wire(PI, 9, OLED, "GND", "GND", "BK"),
            Wire(PI, PI_GPIO_PIN[3], OLED, "SCL", "SCL", "YE"),
            Wire(PI, PI_GPIO_PIN[2], OLED, "SDA", "SDA", "BU"),
        ]
    )
    h.cable(
        [
            Wire(PI, 17, ENCODER, "+", "3V3", "OG"),
            Wire(PI, 14, ENCODER, "GND", "GND", "BK"),
            Wire(PI, PI_GPIO_PIN[pins.encoder_a], ENCODER, "CLK", "encoder A", "GN"),
            Wire(PI, PI_GPIO_PIN[pins.encoder_b], ENCODER, "DT", "encoder B", "VT"),
            Wire(PI, PI_GPIO_PIN[pins.encoder_push], ENCODER, "SW", "select", "GY"),
        ]
    )
    h.cable(
        [
            Wire(PI, PI_GPIO_PIN[pins.back], BACK, 1, "back", "BN"),
            Wire(PI, 20, BACK, 2, "GND", "BK"),
        ]
    )

    if buttons_kit:
        h.add(
            Part(
                GROUND_BUS,
                "Ground strip on the perfboard",
                [(i, "GND") for i in range(1, SEGMENTS + 2)],
                kit="buttons",
                notes="One wire from the Pi, one to every beach button.",
            )
        )
        h.cable([Wire(PI, 30, GROUND_BUS, 1, "GND", "BK")], kit="buttons")
        for b in range(SEGMENTS):
            h.add(
                Part(
                    beach_button(b),
                    f"Push button under beach {b} (notation {b}B)",
                    [(1, "1"), (2, "2")],
                    kit="buttons",
                )
            )
            h.cable(
                [
                    Wire(PI, PI_GPIO_PIN[pins.beach(b)], beach_button(b), 1, f"beach {b}", "YE"),
                    Wire(GROUND_BUS, b + 2, beach_button(b), 2, "GND", "BK"),
                ],
                kit="buttons",
            )

    _add_rfid(h, pico)
    return h


def _add_rfid(h: Harness, pico: PicoPins) -> None:
    h.add(
        Part(
            PI_USB,
            "Any USB-A port of the Pi (micro-USB OTG port on a Zero 2 W)",
            [(PICO_USB, "USB")],
            kit="rfid",
        )
    )
    used: dict[int, str] = {
        PICO_GP_PIN[pico.sck]: f"GP{pico.sck} SPI SCK",
        PICO_GP_PIN[pico.mosi]: f"GP{pico.mosi} SPI MOSI",
        PICO_GP_PIN[pico.miso]: f"GP{pico.miso} SPI MISO",
        36: "3V3(OUT)",
        40: "VBUS 5V",
    }
    grounds = [p for p, n in sorted(PICO_PINS.items(), reverse=True) if n == "GND"]
    for b, r in enumerate(pico.readers):
        used[PICO_GP_PIN[r.cs]] = f"GP{r.cs} CS beach {b}"
        used[PICO_GP_PIN[r.rst]] = f"GP{r.rst} RST beach {b}"
        if r.kind == "pn5180" and r.busy is not None:
            used[PICO_GP_PIN[r.busy]] = f"GP{r.busy} BUSY beach {b}"
        used[grounds[b]] = "GND"
    pico_pins: list[tuple[str | int, str]] = [(PICO_USB, "micro-USB")]
    pico_pins += sorted(used.items())
    h.add(
        Part(
            PICO,
            "Raspberry Pi Pico (RFID firmware)",
            pico_pins,
            kit="rfid",
            notes=f"Pins from {pico.source}. SCK, MOSI, MISO, 3V3 and VBUS are shared by "
            "all readers: run them as a bus.",
        )
    )
    h.cable(
        [Wire(PI_USB, PICO_USB, PICO, PICO_USB, "USB data + 5 V", "BK")],
        kit="rfid",
        notes="USB-A to micro-USB data cable (not charge-only).",
    )
    for b, r in enumerate(pico.readers):
        gnd = grounds[b]
        if r.kind == "pn5180":
            h.add(
                Part(
                    reader(b),
                    f"PN5180 reader under beach {b}",
                    [
                        ("+5V", "+5V"),
                        ("+3.3V", "+3.3V"),
                        ("RST", "RST"),
                        ("NSS", "NSS"),
                        ("MOSI", "MOSI"),
                        ("MISO", "MISO"),
                        ("SCK", "SCK"),
                        ("BUSY", "BUSY"),
                        ("GND", "GND"),
                    ],
                    kit="rfid",
                )
            )
            wires = [
                Wire(PICO, 40, reader(b), "+5V", "5V", "RD"),
                Wire(PICO, 36, reader(b), "+3.3V", "3V3", "OG"),
                Wire(PICO, PICO_GP_PIN[r.rst], reader(b), "RST", "RST", "GY"),
                Wire(PICO, PICO_GP_PIN[r.cs], reader(b), "NSS", "CS", "WH"),
                Wire(PICO, PICO_GP_PIN[pico.mosi], reader(b), "MOSI", "MOSI", "BU"),
                Wire(PICO, PICO_GP_PIN[pico.miso], reader(b), "MISO", "MISO", "GN"),
                Wire(PICO, PICO_GP_PIN[pico.sck], reader(b), "SCK", "SCK", "YE"),
            ]
            if r.busy is not None:
                wires.append(Wire(PICO, PICO_GP_PIN[r.busy], reader(b), "BUSY", "BUSY", "VT"))
            wires.append(Wire(PICO, gnd, reader(b), "GND", "GND", "BK"))
        else:
            h.add(
                Part(
                    reader(b),
                    f"MFRC522 reader under beach {b}",
                    [
                        ("SDA", "SDA (SS)"),
                        ("SCK", "SCK"),
                        ("MOSI", "MOSI"),
                        ("MISO", "MISO"),
                        ("GND", "GND"),
                        ("RST", "RST"),
                        ("3.3V", "3.3V"),
                    ],
                    kit="rfid",
                )
            )
            wires = [
                Wire(PICO, PICO_GP_PIN[r.cs], reader(b), "SDA", "CS", "WH"),
                Wire(PICO, PICO_GP_PIN[pico.sck], reader(b), "SCK", "SCK", "YE"),
                Wire(PICO, PICO_GP_PIN[pico.mosi], reader(b), "MOSI", "MOSI", "BU"),
                Wire(PICO, PICO_GP_PIN[pico.miso], reader(b), "MISO", "MISO", "GN"),
                Wire(PICO, gnd, reader(b), "GND", "GND", "BK"),
                Wire(PICO, PICO_GP_PIN[r.rst], reader(b), "RST", "RST", "GY"),
                Wire(PICO, 36, reader(b), "3.3V", "3V3", "OG"),
            ]
        h.cable(wires, kit="rfid")


# --------------------------------------------------------------------------- WireViz YAML


KIT_NOTE = {"buttons": "buttons kit only", "rfid": "RFID kit only"}
KIT_COLOUR = {"buttons": "#fff4d6", "rfid": "#e3f1ff"}


def harness_dict(h: Harness) -> dict[str, Any]:
    connectors: dict[str, Any] = {}
    for part in h.parts.values():
        entry: dict[str, Any] = {
            "type": part.type,
            "pins": [p for p, _ in part.pins],
            "pinlabels": [label for _, label in part.pins],
        }
        notes = [n for n in (KIT_NOTE.get(part.kit, ""), part.notes) if n]
        if notes:
            entry["notes"] = ". ".join(n.rstrip(".") for n in notes) + "."
        if part.kit in KIT_COLOUR:
            entry["bgcolor_title"] = KIT_COLOUR[part.kit]
        connectors[part.name] = entry
    cables: dict[str, Any] = {}
    connections: list[Any] = []
    for cable in h.cables:
        entry = {
            "category": "bundle",
            "wirecount": len(cable.wires),
            "colors": [w.colour for w in cable.wires],
            "wirelabels": [w.signal for w in cable.wires],
        }
        notes = [n for n in (KIT_NOTE.get(cable.kit, ""), cable.notes) if n]
        if notes:
            entry["notes"] = ". ".join(n.rstrip(".") for n in notes) + "."
        cables[cable.name] = entry
        groups: dict[tuple[str, str], list[tuple[int, Wire]]] = {}
        for n, w in enumerate(cable.wires, start=1):
            groups.setdefault((w.a, w.b), []).append((n, w))
        for (a, b), wires in groups.items():
            connections.append(
                [
                    {a: [w.a_pin for _, w in wires]},
                    {cable.name: [n for n, _ in wires]},
                    {b: [w.b_pin for _, w in wires]},
                ]
            )
    return {
        "metadata": {"title": h.title},
        "options": {"fontname": "DejaVu Sans", "bgcolor": "WH"},
        "connectors": connectors,
        "cables": cables,
        "connections": connections,
        # Less space between ranks and a 72 dpi PNG: the six-ring chain makes a wide drawing.
        "tweak": {"override": {"graph": {"ranksep": "1", "dpi": "72"}}},
    }


_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9_ ]*")
_YAML_WORDS = {"y", "n", "yes", "no", "on", "off", "true", "false", "null"}


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    text = str(value)
    if _PLAIN.fullmatch(text) and text.lower() not in _YAML_WORDS and text == text.strip():
        return text
    return json.dumps(text, ensure_ascii=False)  # a valid YAML double-quoted scalar


def to_yaml(value: Any, indent: int = 0) -> str:
    """Block-style YAML for dicts, lists and scalars; deterministic, no PyYAML needed."""
    pad = " " * indent
    lines: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, dict | list) and item and not _flat_list(item):
                lines.append(f"{pad}{_scalar(key)}:")
                lines.append(to_yaml(item, indent + 2))
            else:
                lines.append(f"{pad}{_scalar(key)}: {_inline(item)}")
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, dict | list) and item and not _flat_list(item):
                body = to_yaml(item, indent + 2)
                lines.append(f"{pad}- {body.lstrip()}")
            else:
                lines.append(f"{pad}- {_inline(item)}")
    else:
        lines.append(pad + _scalar(value))
    return "\n".join(lines)


def _flat_list(value: Any) -> bool:
    return isinstance(value, list) and all(not isinstance(v, dict | list) for v in value)


def _inline(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_scalar(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_scalar(k)}: {_inline(v)}" for k, v in value.items()) + "}"
    return _scalar(value)


def harness_yaml(h: Harness) -> str:
    header = (
        "# Generated by `haleakala wiring` from the config's [pins] and the Pico's\n"
        f"# {h.pico.source}: edit those, not this file. Render: wireviz {YAML_NAME}\n"
    )
    return header + to_yaml(harness_dict(h)) + "\n"


# --------------------------------------------------------------------------- PINS.md


def _partner(h: Harness, part: str, pin: str | int) -> list[tuple[Wire, str, str | int]]:
    out = []
    for cable in h.cables:
        for w in cable.wires:
            if (w.a, w.a_pin) == (part, pin):
                out.append((w, w.b, w.b_pin))
            elif (w.b, w.b_pin) == (part, pin):
                out.append((w, w.a, w.a_pin))
    return out


def _where(h: Harness, part: str, pin: str | int) -> str:
    label = h.parts[part].label(pin)
    if part == PI:
        return f"Pi pin {pin}"
    if part == PICO:
        return f"Pico pin {pin}" if pin != PICO_USB else "Pico micro-USB"
    return (
        f"{part} {label}" if str(label) != str(pin) or isinstance(pin, str) else f"{part} pin {pin}"
    )


def _kit_of(h: Harness, part: str, pin: str | int) -> str:
    kits = {
        c.kit for c in h.cables for w in c.wires if (part, pin) in ((w.a, w.a_pin), (w.b, w.b_pin))
    }
    return "both" if "both" in kits or not kits else "/".join(sorted(kits))


def pins_markdown(h: Harness) -> str:
    config = h.config
    key_of = {gpio: key for key, gpio in config.pins_in_use().items()}
    lines = [
        f"# Pin table: {h.title.split(': ', 1)[1]}",
        "",
        "<!-- Generated by `haleakala wiring` from the config's [pins] and "
        f"{h.pico.source}: edit those, not this file. -->",
        "",
        f"Drawing: [{SVG_NAME}]({SVG_NAME}) ([PNG]({PNG_NAME}), WireViz source "
        f"[{YAML_NAME}]({YAML_NAME})).",
        "GPIO numbers are BCM numbers (what the config and gpiozero use); *pin* is the",
        "physical pin on the 40-pin header, counted from pin 1 (the square pad, 3V3).",
        "Every button and encoder contact switches to ground against the Pi's internal pull-up,",
        "so it needs no resistor. Never feed 5 V into a GPIO.",
        "",
        "## Raspberry Pi header",
        "",
        "| Pin | Name | Use | Config key | Goes to | Kit |",
        "|---:|---|---|---|---|---|",
    ]
    pi = h.parts[PI]
    for pin, _label in pi.pins:
        name = PI_HEADER[int(pin)]
        gpio = int(name[4:]) if name.startswith("GPIO") else None
        partners = _partner(h, PI, pin)
        use = ", ".join(dict.fromkeys(w.signal for w, _, _ in partners))
        goes = ", ".join(_where(h, p, q) for _, p, q in partners)
        key = f"`{key_of[gpio]}`" if gpio in key_of else ""
        if gpio in (2, 3):
            key = f"`display.i2c_port = {config.display.i2c_port}`"
        lines.append(
            f"| {pin} | {_gpio_label(gpio) if gpio is not None else name} | {use} | "
            f"{key} | {goes} | {_kit_of(h, PI, pin)} |"
        )
    lines += [
        "",
        "Keep free: GPIO 7, 8, 9, 11 (SPI0, which the LED chain on GPIO 10 needs for itself on",
        "a Pi 3/4/Zero 2 W) and GPIO 0, 1 (HAT ID EEPROM). `haleakala config check` refuses",
        "a pin map that breaks these rules.",
        "",
        "## LED chain and power",
        "",
        "| From | To | Wire |",
        "|---|---|---|",
    ]
    pico_cables = [c for c in h.cables if c.kit == "rfid"]
    for cable in h.cables:
        if cable in pico_cables:
            continue
        for w in cable.wires:
            if PI in (w.a, w.b) or GROUND_BUS in (w.a, w.b):
                continue
            lines.append(f"| {_where(h, w.a, w.a_pin)} | {_where(h, w.b, w.b_pin)} | {w.signal} |")
    order = ", ".join(
        f"ring {p + 1} under segment {s}" for p, s in enumerate(config.leds.ring_order)
    )
    lines += [
        "",
        f"Chain order (`leds.ring_order`): {order}. Which pixel lights which zone: "
        "[hw/OVERLAY.md](../hw/OVERLAY.md).",
    ]
    if config.kit == "buttons":
        lines += [
            "",
            "## Beach buttons (buttons kit)",
            "",
            "| Beach | GPIO | Pi pin | Config key | Other leg |",
            "|---:|---:|---:|---|---|",
        ]
        for b in range(SEGMENTS):
            gpio = config.pins.beach(b)
            lines.append(
                f"| {b} | {gpio} | {PI_GPIO_PIN[gpio]} | `pins.beach{b}` | ground bus (Pi pin 30) |"
            )
    pico = h.pico
    lines += [
        "",
        "## Raspberry Pi Pico and the beach readers (RFID kit)",
        "",
        f"The Pico plugs into a USB port of the Pi; pins from `{pico.source}`.",
        "SCK, MOSI, MISO, 3V3(OUT) and VBUS go to every reader (a bus); each reader has its",
        "own chip select and reset (and BUSY on a PN5180). Reader *n* sits under beach *n*.",
        "",
        "| Pico pin | Name | Use | Goes to |",
        "|---:|---|---|---|",
    ]
    for pin, label in h.parts[PICO].pins:
        if pin == PICO_USB:
            lines.append("| – | micro-USB | USB serial and 5 V | a USB port of the Pi |")
            continue
        partners = _partner(h, PICO, pin)
        goes = ", ".join(f"{p} {q}" for _, p, q in partners)
        use = label.split(" ", 1)[1] if label.startswith("GP") else label
        lines.append(f"| {pin} | {PICO_PINS[int(pin)]} | {use} | {goes} |")
    lines += [
        "",
        "| Beach | Reader | CS | BUSY | RST |",
        "|---:|---|---|---|---|",
    ]
    for b, r in enumerate(pico.readers):
        busy = f"GP{r.busy}" if r.kind == "pn5180" and r.busy is not None else "–"
        lines.append(f"| {b} | {r.kind.upper()} | GP{r.cs} | {busy} | GP{r.rst} |")
    lines.append("")
    return "\n".join(lines)


# --------------------------------------------------------------------------- rendering


def yaml_digest(yaml_text: str) -> str:
    return hashlib.sha256(yaml_text.encode()).hexdigest()


_GRAPHVIZ_COMMENT = re.compile(r"<!-- Generated by graphviz version [^>]*-->\n")


def stamp_svg(svg: str, digest: str) -> str:
    """Replace graphviz's version comment (which varies by machine) with the source stamp."""
    stamp = f"<!-- Drawn by WireViz from {YAML_NAME}; {STAMP_KEY} {digest} -->\n"
    svg, count = _GRAPHVIZ_COMMENT.subn(stamp, svg, count=1)
    if not count:
        svg = svg.replace("<svg", stamp + "<svg", 1)
    return svg


def svg_stamp(svg: str) -> str | None:
    match = re.search(rf"{STAMP_KEY} ([0-9a-f]{{64}})", svg)
    return match.group(1) if match else None


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _png_chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    if not data.startswith(PNG_SIGNATURE):
        raise ValueError("not a PNG file")
    chunks, i = [], len(PNG_SIGNATURE)
    while i < len(data):
        (length,) = struct.unpack(">I", data[i : i + 4])
        kind = data[i + 4 : i + 8]
        chunks.append((kind, data[i + 8 : i + 8 + length]))
        i += 12 + length
    return chunks


def _png_chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def stamp_png(png: bytes, digest: str) -> bytes:
    """Insert a tEXt chunk with the source digest right after IHDR (replacing an old one)."""
    chunks = [
        (k, b)
        for k, b in _png_chunks(png)
        if not (k == b"tEXt" and b.startswith(STAMP_KEY.encode() + b"\0"))
    ]
    text = (b"tEXt", STAMP_KEY.encode() + b"\0" + digest.encode())
    chunks.insert(1, text)
    return PNG_SIGNATURE + b"".join(_png_chunk(k, b) for k, b in chunks)


def png_stamp(png: bytes) -> str | None:
    try:
        chunks = _png_chunks(png)
    except (ValueError, struct.error):
        return None
    for kind, body in chunks:
        if kind == b"tEXt" and body.startswith(STAMP_KEY.encode() + b"\0"):
            return body.split(b"\0", 1)[1].decode()
    return None


def render(yaml_text: str) -> tuple[str, bytes]:
    """SVG text and PNG bytes of the harness, stamped with the YAML's digest."""
    if shutil.which("dot") is None:
        raise UsageError(
            "graphviz's 'dot' is not installed: apt-get install graphviz "
            "(or run 'haleakala wiring --check', which needs no graphviz)"
        )
    try:
        from wireviz import wireviz
    except ImportError:
        raise UsageError(
            "WireViz is not installed: pip install 'haleakala-companion[kit]'"
        ) from None
    svg, png = wireviz.parse(yaml_text, return_types=("svg", "png"))
    digest = yaml_digest(yaml_text)
    return stamp_svg(svg, digest), stamp_png(_small_png(png), digest)


def _small_png(png: bytes) -> bytes:
    """A 64-colour palette PNG: a third of the size, still sharp (the drawing has few colours).
    Median cut and zlib are deterministic, so the bytes stay reproducible."""
    from PIL import Image

    with Image.open(io.BytesIO(png)) as image:
        palette = image.convert("RGB").quantize(colors=64, method=Image.Quantize.MEDIANCUT)
    out = io.BytesIO()
    palette.save(out, format="PNG", optimize=True)
    return out.getvalue()


# --------------------------------------------------------------------------- the command


def sources(config: Config, pico_config: Path = FIRMWARE_CONFIG) -> dict[str, str]:
    """The text files, keyed by name: YAML and PINS.md (pure: no graphviz)."""
    h = build(config, load_pico_pins(pico_config))
    return {YAML_NAME: harness_yaml(h), PINS_NAME: pins_markdown(h)}


def stale_files(out: Path, texts: dict[str, str]) -> list[str]:
    """Names of the files in ``out`` that do not match ``texts`` (and drawings not drawn from
    that YAML), with the reason."""
    problems = []
    for name, text in texts.items():
        path = out / name
        if not path.is_file():
            problems.append(f"{path} is missing")
        elif path.read_bytes() != text.encode():
            problems.append(f"{path} differs from the config")
    digest = yaml_digest(texts[YAML_NAME])
    svg_path, png_path = out / SVG_NAME, out / PNG_NAME
    if not svg_path.is_file():
        problems.append(f"{svg_path} is missing")
    elif svg_stamp(svg_path.read_text(encoding="utf-8", errors="replace")) != digest:
        problems.append(f"{svg_path} was not drawn from the current {YAML_NAME}")
    if not png_path.is_file():
        problems.append(f"{png_path} is missing")
    elif png_stamp(png_path.read_bytes()) != digest:
        problems.append(f"{png_path} was not drawn from the current {YAML_NAME}")
    return problems


def generate(out: Path, config: Config, pico_config: Path = FIRMWARE_CONFIG) -> list[str]:
    """Write every file into ``out``; returns one line per file (wrote / unchanged)."""
    texts = sources(config, pico_config)
    svg, png = render(texts[YAML_NAME])
    files = {
        out / YAML_NAME: texts[YAML_NAME].encode(),
        out / SVG_NAME: svg.encode(),
        out / PNG_NAME: png,
        out / PINS_NAME: texts[PINS_NAME].encode(),
    }
    return [f"{'wrote' if write_if_changed(p, d) else 'unchanged'}: {p}" for p, d in files.items()]


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "wiring",
        help="regenerate the wiring diagrams and pin table from the config's pin map",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_config_option(parser, "the default kit, hw/config.example.toml")
    parser.add_argument(
        "--out",
        metavar="DIR",
        type=Path,
        default=DEFAULT_OUT,
        help=f"output directory (default: {DEFAULT_OUT})",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="change nothing; exit 1 naming the files that are stale",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    config, label = default_config_for_docs(args.config)
    if args.check:
        problems = stale_files(args.out, sources(config))
        for problem in problems:
            print(f"stale: {problem}", file=sys.stderr)
        if problems:
            print(
                f"run 'haleakala wiring{' --config ' + args.config if args.config else ''}"
                f" --out {args.out}' and commit the result",
                file=sys.stderr,
            )
            return 1
        print(f"up to date: {args.out} matches {label}")
        return 0
    for line in generate(args.out, config):
        print(line)
    return 0
