"""The pins of the two boards the kit plugs into, as data: the Raspberry Pi's 40-pin header
(the same on every supported model) and the Pico's, and the Pico's reader bus as a value.
A leaf module (imports nothing of the package), so the wiring, the carrier boards and the
checks can all read it."""

from __future__ import annotations

import runpy
from dataclasses import dataclass
from pathlib import Path

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


# --------------------------------------------------------------------------- RF fields

FIRMWARE_CONFIG = Path(__file__).resolve().parents[2] / "firmware" / "haleakala_pico" / "config.py"
FALLBACK_SCAN_GROUPS = ((0, 3), (1, 4), (2, 5))
"""The firmware's default, used when it is not beside the package (an installed wheel)."""


def scan_groups(path: Path = FIRMWARE_CONFIG) -> tuple[tuple[int, ...], ...]:
    """The beaches the Pico scans at the same time (``SCAN_GROUPS`` in its config.py, read,
    never imported): each group's readers have their RF fields on together."""
    if not path.is_file():
        return FALLBACK_SCAN_GROUPS
    values = runpy.run_path(str(path))
    groups = values.get("SCAN_GROUPS", tuple((b,) for b in range(6)))
    return tuple(tuple(int(b) for b in group) for group in groups)


def fields_at_once(path: Path = FIRMWARE_CONFIG) -> int:
    """The most RF fields the firmware has on at one time."""
    return max((len(group) for group in scan_groups(path)), default=1)
