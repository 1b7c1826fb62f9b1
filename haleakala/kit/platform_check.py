"""The pi backend's vendor stacks, opened as on a given Raspberry Pi model, up to the devices.

``python -m haleakala.kit.platform_check --model pi4`` prints one JSON object. It is what the
virtual Pi (``tools/virtual-pi``) runs as the service user, and what the default test suite
runs on x86 for every model (``tests/kit/test_pi_platform.py``), so a platform library missing
from the ``pi`` extra fails CI instead of a maker's first boot:

- gpiozero on its mock pin factory opens every button and the encoder (there is no gpiochip);
- luma.oled drives its ``dummy`` device through our ``PiDisplay``;
- Blinka is forced to the model's board (``BLINKA_FORCEBOARD``, ``BLINKA_FORCECHIP``), so
  ``import board, neopixel`` loads that board's platform libraries (gpiod; rpi_ws281x or the
  Pi 5 PIO driver) and the LED chain is built up to the device open, where the project's own
  message must name the device (``/dev/spidev0.0``, ``/dev/pio0``).

Blinka decides "this is a Raspberry Pi" from the ``Revision`` line of ``/proc/cpuinfo``. The
virtual Pi mounts a Pi's cpuinfo over the real one; on x86 ``--cpuinfo FILE`` makes Blinka's
detector read that file instead (the only stand-in: every import and object is the vendor's).
Test and CI use only: on a real Pi nothing here is needed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path

BOARDS = {
    # model: (Blinka board id, revision code of a current board, /proc/cpuinfo Model line)
    "zero2w": ("RASPBERRY_PI_ZERO_2_W", "902120", "Raspberry Pi Zero 2 W Rev 1.0"),
    "pi3": ("RASPBERRY_PI_3B", "a02082", "Raspberry Pi 3 Model B Rev 1.2"),
    "pi4": ("RASPBERRY_PI_4B", "c03115", "Raspberry Pi 4 Model B Rev 1.5"),
    "pi5": ("RASPBERRY_PI_5", "c04170", "Raspberry Pi 5 Model B Rev 1.0"),
}
CHIP = "BCM2XXX"
"""Blinka's chip id for every Pi (``adafruit_platformdetect.constants.chips.BCM2XXX``, the
library's own name, not a placeholder), the Pi 5 included (its board id selects the BCM2712
pins)."""


def cpuinfo(model: str) -> str:
    """The Raspberry-Pi-specific tail of a 64-bit Raspberry Pi OS ``/proc/cpuinfo``."""
    _, revision, name = BOARDS[model]
    return f"Revision\t: {revision}\nSerial\t\t: 10000000c0ffee00\nModel\t\t: {name}\n"


def force_board(model: str) -> None:
    """Blinka's documented overrides for board and chip."""
    os.environ["BLINKA_FORCEBOARD"] = BOARDS[model][0]
    os.environ["BLINKA_FORCECHIP"] = CHIP
    os.environ.pop("BLINKA_OS_AGNOSTIC", None)
    # rpi-lgpio's own override for the revision it reads from the device tree.
    os.environ["RPI_LGPIO_REVISION"] = BOARDS[model][1]


def read_cpuinfo_from(path: Path) -> None:
    """Make Blinka's detector read ``path`` where it would read /proc/cpuinfo."""
    import adafruit_platformdetect

    text = path.read_text(encoding="utf-8")

    def get_cpuinfo_field(_self: object, field: str) -> str | None:
        match = re.search(rf"^{field}\s+:\s+(.*)$", text, re.M | re.I)
        return match.group(1) if match else None

    adafruit_platformdetect.Detector.get_cpuinfo_field = get_cpuinfo_field


def check(model: str) -> dict[str, object]:
    """Open each part as the daemon would; collect what happened instead of stopping."""
    from haleakala.config import Config
    from haleakala.hal.pi import HardwareError, PiDisplay, PiInputs, open_pi_hardware

    before = set(sys.modules)
    result: dict[str, object] = {"model": model}
    config = Config(model=model)
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    inputs = PiInputs(config, pin_factory=factory, ticker=False)
    result["inputs"] = sorted([*inputs.buttons, "encoder"])
    inputs.close()

    from luma.core.device import dummy

    display = PiDisplay(dummy(mode="1"))
    from PIL import Image

    display.show(Image.new("1", (display.width, display.height), 1))
    result["display"] = f"{display.width}x{display.height} sent {display.sent_count}"

    try:
        hardware = open_pi_hardware(
            config, pin_factory=factory, display_device=dummy(mode="1"), ticker=False
        )
    except HardwareError as exc:
        result["leds"] = str(exc)
    else:  # only on a real Pi with the devices present
        result["leds"] = "opened"
        hardware.close()
    factory.close()
    import board

    result["board"] = board.board_id
    # A maker's RPi.GPIO script: served by the rpi-lgpio shim on lgpio, on every model.
    import importlib.metadata

    from haleakala.hal.pi import lgpio_workdir

    lgpio_workdir()  # the service user in / cannot write lgpio's pipes there
    import RPi.GPIO

    owners = importlib.metadata.packages_distributions().get("RPi", [])
    result["rpi_gpio"] = f"{RPi.GPIO.RPI_INFO['TYPE']} via {', '.join(owners)}"
    result["driver"] = sorted(
        m for m in ("_rpi_ws281x", "adafruit_raspberry_pi5_neopixel_write") if m in sys.modules
    )
    # The wheel the installer built carries the compiled catalogs: the board speaks German.
    from haleakala import i18n

    i18n.use("de")
    result["language"] = i18n.ngettext("{n} shell", "{n} shells", 2).format(n=2)
    i18n.use("en")
    result["modules"] = sorted({m.split(".")[0] for m in set(sys.modules) - before})
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", required=True, choices=sorted(BOARDS))
    parser.add_argument("--cpuinfo", type=Path, help="read this instead of /proc/cpuinfo")
    args = parser.parse_args(argv)
    force_board(args.model)
    if args.cpuinfo is not None:
        read_cpuinfo_from(args.cpuinfo)
    print(json.dumps(check(args.model)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
