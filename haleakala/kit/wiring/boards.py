"""The two boards the harness joins: the Pi's 40-pin header and the Pico's pins, and the
Pico's reader bus as the firmware's config.py defines it (read, never imported)."""

from __future__ import annotations

import runpy
from dataclasses import dataclass
from pathlib import Path

from haleakala.cli import UsageError
from haleakala.hal.base import SEGMENTS
from haleakala.kit.common import REPO_ROOT

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
