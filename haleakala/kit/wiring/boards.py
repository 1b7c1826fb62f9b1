"""The two boards the harness joins: the Pi's 40-pin header and the Pico's pins, and the
Pico's reader bus as the firmware's config.py defines it (read, never imported)."""

from __future__ import annotations

import runpy
from pathlib import Path

from haleakala.cli import UsageError
from haleakala.hal.base import SEGMENTS
from haleakala.kit.common import REPO_ROOT
from haleakala.kit.pinout import (
    PI_GPIO_PIN,
    PI_HEADER,
    PI_ROLES,
    PICO_GP_PIN,
    PICO_PINS,
    PICO_USB,
    PicoPins,
    PicoReader,
)

__all__ = [
    "PICO_GP_PIN",
    "PICO_PINS",
    "PICO_USB",
    "PI_GPIO_PIN",
    "PI_HEADER",
    "PI_ROLES",
    "PicoPins",
    "PicoReader",
    "load_pico_pins",
]

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
